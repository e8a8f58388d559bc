package physics

import (
	"reflect"
	"testing"

	"github.com/jakecoffman/cp/v2"

	"github.com/ambibench/ambibench/scenes"
)

// TestPartsAreConstructed checks that the bodies and shapes parts hands
// out, of the scenes' sizes and of others, are those cp's constructors
// make.
func TestPartsAreConstructed(t *testing.T) {
	p := newParts(2, 2)
	for _, size := range []float64{scenes.BlockSize, 0.05} {
		side := size * cm
		moment := cp.MomentForBox(blockMass, side, side)
		got := p.body(blockMass, moment)
		if want := cp.NewBody(blockMass, moment); got.Mass() != want.Mass() || got.Moment() != want.Moment() ||
			got.Position() != want.Position() || got.Angle() != want.Angle() {
			t.Errorf("block body of side %v: %v, want %v", side, got, want)
		}
		want := cp.NewBox(got, side, side, 0)
		want.SetFriction(0.6)
		want.SetElasticity(0)
		want.SetFilter(filterTable)
		if shapes := p.copies(p.box(side), got); len(shapes) != 1 || !reflect.DeepEqual(shapes[0], want) {
			t.Errorf("box of side %v: %+v, want %+v", side, shapes[0].Class, want.Class)
		}
	}
	for _, size := range []float64{scenes.BowlSize, 0.1} {
		r := size / 2 * cm
		body := p.body(bowlMass, cp.MomentForCircle(bowlMass, r-rimRadius, r, cp.Vector{}))
		shapes := p.copies(p.ring(r), body)
		if len(shapes) != rimSegments {
			t.Fatalf("ring of radius %v: %d segments", r, len(shapes))
		}
		for i, got := range shapes {
			want := cp.NewSegment(body, rimCorners[i].Mult(r), rimCorners[i+1].Mult(r), rimRadius)
			want.SetFriction(0.6)
			want.SetElasticity(0)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("ring of radius %v, segment %d: %+v, want %+v", r, i, got.Class, want.Class)
			}
		}
	}
	if len(p.boxes) != 1 || len(p.rings) != 1 {
		t.Errorf("%d boxes and %d rings of its own, want one of each", len(p.boxes), len(p.rings))
	}
}
