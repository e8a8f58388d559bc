package scenes

import (
	"math"
	"testing"
)

// The grid table is what the look's benchmarks call crowded: every object
// on the table, each id its own, a quarter of them bowls, neighbours a
// cell apart.
func TestGridTable(t *testing.T) {
	objs := GridTable(8, 6)
	if len(objs) != 48 {
		t.Fatalf("%d objects, want 48", len(objs))
	}
	ids, bowls := map[string]bool{}, 0
	for i, o := range objs {
		if ids[o.ID] {
			t.Errorf("object %d: id %q twice", i, o.ID)
		}
		ids[o.ID] = true
		if o.Class == ClassBowl {
			bowls++
		}
		if !Table.Contains(o.Pose.X(), o.Pose.Y()) {
			t.Errorf("%s at (%v, %v) is off the table", o.ID, o.Pose.X(), o.Pose.Y())
		}
	}
	if bowls != 12 {
		t.Errorf("%d bowls, want 12", bowls)
	}
	if dx := objs[1].Pose.X() - objs[0].Pose.X(); math.Abs(dx-(TableMaxX-TableMinX)/8) > 1e-12 {
		t.Errorf("neighbours %v apart along x, want a cell, %v", dx, (TableMaxX-TableMinX)/8)
	}
}
