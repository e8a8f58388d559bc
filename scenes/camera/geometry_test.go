package camera

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

// TestRingsHullIsTheSortedHull checks the linear-time hull of a bowl's two
// rings against sorting all the points, on bowls of every size the random
// scenes draw, seen from both views and from cameras moved about, where
// rounding can leave a ring's walk slightly out of order.
func TestRingsHullIsTheSortedHull(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 27))
	checked := 0
	for trial := range 400 {
		opt := DefaultOptions()
		if trial%3 == 0 {
			opt.View = TopDown
		}
		if trial%2 == 1 {
			opt.Eye = [3]float64{rng.Float64() - 0.5, -1.2 + 0.4*rng.Float64(), 0.3 + rng.Float64()}
		}
		for _, ob := range randomScene(rng, 12) {
			if ob.Class != scenes.ClassBowl {
				continue
			}
			sc := newScene(nil, opt.resolved())
			pts := sc.outline(&ob, nil)
			want := hull(slices.Clone(pts))
			got := ringsHullTo(pts[:bowlSegments], pts[bowlSegments:], nil, nil)
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d, %s: rings hull %v, sorted hull %v", trial, ob.ID, got, want)
			}
			checked++
		}
	}
	if checked < 100 {
		t.Fatalf("only %d bowls checked", checked)
	}
}
