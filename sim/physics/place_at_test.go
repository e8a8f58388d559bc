package physics

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

// A place by coordinates is a named place without the name: the block
// carried to the middle's point ends where PickAndPlace to "middle" puts
// it, the table after one is the table after the other, and any other
// point of the table is reached alike.
func TestPickAndPlaceAt(t *testing.T) {
	t.Parallel()
	mid := scenes.Places["middle"]
	named := mustWorld(t, table(), Config{})
	if _, err := named.PickAndPlace(scenes.Robot1, "red block 1", "middle"); err != nil {
		t.Fatal(err)
	}
	at := mustWorld(t, table(), Config{})
	if _, err := at.PickAndPlaceAt(scenes.Robot1, "red block 1", mid.X(), mid.Y()); err != nil {
		t.Fatal(err)
	}
	for i, o := range at.Objects() {
		if want := named.Objects()[i]; o.Pose != want.Pose {
			t.Errorf("%s after a place at the middle's point: %v; after a place at \"middle\": %v", o.ID, o.Pose, want.Pose)
		}
	}
	w := mustWorld(t, table(), Config{})
	p := [2]float64{0.12, -0.45}
	if _, err := w.PickAndPlaceAt(scenes.Robot1, "blue block 1", p[0], p[1]); err != nil {
		t.Fatal(err)
	}
	if b := obj(t, w, "blue block 1"); !scenes.AtPoint(b, p) {
		t.Errorf("blue block 1 placed at %v ended at %v", p, b.Pose)
	}
}

func TestPickAndPlaceAtRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why, robot, pick string
		x, y             float64
		two              bool
		want             string
	}{
		{"a point off the table's edge", scenes.Robot1, "red block 1", 0.35, -0.5, false, "off the table"},
		{"a point beyond the table's far side", scenes.Robot1, "red block 1", 0, -0.1, false, "off the table"},
		{"a point that is not a number", scenes.Robot1, "red block 1", math.NaN(), -0.5, false, "off the table"},
		{"a point in the other robot's strip", scenes.Robot1, "red block 1", 0.25, -0.5, true, "out of robot1's reach"},
		{"the pick is checked as by name: a bowl", scenes.Robot1, "red bowl 1", 0, -0.5, false, "only blocks"},
		{"the pick is checked as by name: none such", scenes.Robot1, "purple block 1", 0, -0.5, false, "no object"},
	} {
		t.Run(tc.why, func(t *testing.T) {
			w := mustWorld(t, table(), Config{TwoRobots: tc.two})
			before := w.Objects()
			_, err := w.PickAndPlaceAt(tc.robot, tc.pick, tc.x, tc.y)
			var ae *ActionError
			if !errors.As(err, &ae) || !strings.Contains(ae.Reason, tc.want) {
				t.Fatalf("got %v, want an ActionError containing %q", err, tc.want)
			}
			if !strings.Contains(ae.Action, tc.pick) {
				t.Errorf("the refused action %q does not name the pick", ae.Action)
			}
			for i, o := range w.Objects() {
				if o.Pose != before[i].Pose {
					t.Errorf("a refused action moved %s", o.ID)
				}
			}
		})
	}
}
