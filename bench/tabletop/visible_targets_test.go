package tabletop

import (
	"testing"

	"github.com/ambibench/ambibench/perturb"
	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/scenes/camera"
	"github.com/ambibench/ambibench/tasks"
)

// minNamedVisible is the least share of an object the instruction names
// that the camera of a robot meant to see it must show: at the simulated
// model's detection floor (a tenth) an object may be missed, and an object
// the task turns on should never be.
const minNamedVisible = 0.5

// TestNamedObjectsAreVisible checks, over every cell at the family's own
// size and at 24 and 48 objects, that each object the episode refers to is
// at least minNamedVisible visible in robot 1's opening image, unless
// partial observability hides it from robot 1 on purpose. The draws meet
// it as they are (the worst seen is 0.57, at 48 objects); this holds them
// to it.
func TestNamedObjectsAreVisible(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip(singlePath)
	}
	checked, worst := 0, 1.0
	for _, size := range []int{0, 24, 48} {
		for _, f := range tasks.All() {
			for _, p := range perturb.ForTabletop() {
				if !p.Applies(f) {
					continue
				}
				for i := range 20 {
					ep, err := MakeEpisodeSized(1, f.Name(), p.Name(), i, size)
					if err != nil {
						t.Fatal(err)
					}
					w, err := NewWorld(ep)
					if err != nil {
						t.Fatal(err)
					}
					objs := w.Objects()
					vis, err := camera.Visibility(objs, robotCamera(camera.DefaultOptions(), ep, scenes.Robot1))
					if err != nil {
						t.Fatal(err)
					}
					for _, id := range ep.Referred() {
						for k, o := range objs {
							if o.ID != id || vis[k].Hidden {
								continue
							}
							checked++
							worst = min(worst, vis[k].Fraction)
							if vis[k].Fraction < minNamedVisible {
								t.Errorf("%s/%s episode %d at %d objects: %s is %.2f visible to robot 1, want at least %.1f", f.Name(), p.Name(), i, size, id, vis[k].Fraction, minNamedVisible)
							}
						}
					}
				}
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d named objects checked", checked)
	}
	t.Logf("%d named objects, the least visible %.2f", checked, worst)
}
