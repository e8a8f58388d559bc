package physics

import (
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

// reachable may leave out only items that certainly overlap nothing:
// each row places a second object by the first and says whether the
// pair must be asked of cp; the world built from it must agree with what
// cp itself finds of every pair.
func TestReachableLeavesOutOnlyPairsApart(t *testing.T) {
	const b = scenes.BlockSize
	for _, tc := range []struct {
		name   string
		second scenes.Object
		near   bool
	}{
		{"blocks half a centimetre apart along x, their circles meeting", scenes.NewBlock("blue block 1", "blue", b+0.005, 0.01), false},
		{"blocks apart along y, offset along x", scenes.NewBlock("blue block 1", "blue", 0.02, -(b + 0.003)), false},
		{"blocks apart along both axes, corner to corner", scenes.NewBlock("blue block 1", "blue", b+0.002, b+0.002), false},
		{"blocks whose corners overlap", scenes.NewBlock("blue block 1", "blue", b-0.002, b-0.002), true},
		{"blocks touching within the solver's slop", scenes.NewBlock("blue block 1", "blue", b+0.0003, 0), true},
		{"blocks far apart", scenes.NewBlock("blue block 1", "blue", 0.2, 0), false},
		{"a block on a bowl's rim", scenes.NewBowl("blue bowl 1", "blue", scenes.BowlSize/2, 0), true},
		{"a block clear of a bowl", scenes.NewBowl("blue bowl 1", "blue", 0.095, 0), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first := scenes.NewBlock("red block 1", "red", 0, -0.5)
			second := tc.second
			second.Pose[1] += -0.5
			w, err := build([]scenes.Object{first, second}, Config{}, addAwake)
			if err != nil {
				t.Fatal(err)
			}
			near := w.reachable()
			if near[0] != tc.near || near[1] != tc.near {
				t.Errorf("reachable = %v, want both %v", near, tc.near)
			}
			if overlap := w.overlapping(w.items[0]); overlap && !near[0] {
				t.Errorf("cp finds the pair overlapping, and reachable left it out")
			}
		})
	}
}
