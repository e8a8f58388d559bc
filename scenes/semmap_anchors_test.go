package scenes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ambibench/ambibench/internal/fma"
	"github.com/go-gl/mathgl/mgl64"
)

// The tree relates every instance to the anchors exactly as measuring
// every anchor does: the same verdict and the same distance, bit for bit
// (fma.Same: within a tolerance where the build fuses multiply-adds),
// for each relation, over maps whose rows say what could go wrong.
func TestAnchorTreeIsRelate(t *testing.T) {
	for _, tc := range []struct {
		why     string
		n       int
		anchors int // one anchor in this many instances
		layout  func(r *rand.Rand, i int) (c, s mgl64.Vec3)
	}{
		{"a flat of rooms: furniture on the floor, things on it", 1000, 5, func(r *rand.Rand, i int) (mgl64.Vec3, mgl64.Vec3) {
			s := mgl64.Vec3{0.1 + 2*r.Float64(), 0.1 + 2*r.Float64(), 0.05 + r.Float64()}
			return mgl64.Vec3{40 * r.Float64(), 40 * r.Float64(), s[2] / 2}, s
		}},
		{"a lattice: many anchors at equal distances, splits through equal coordinates", 800, 8, func(r *rand.Rand, i int) (mgl64.Vec3, mgl64.Vec3) {
			return mgl64.Vec3{0.75 * float64(r.IntN(40)), 0.75 * float64(r.IntN(40)), 0.5 * float64(r.IntN(3))}, mgl64.Vec3{1.5, 1.5, 1}
		}},
		{"stacks: boxes resting on boxes, tops exactly at the tolerance", 600, 6, func(r *rand.Rand, i int) (mgl64.Vec3, mgl64.Vec3) {
			z := float64(r.IntN(4))*0.5 + 0.25 + float64(r.IntN(3)-1)*onTolerance
			return mgl64.Vec3{float64(r.IntN(30)), float64(r.IntN(30)), z}, mgl64.Vec3{0.2 + 3*r.Float64(), 0.2 + 3*r.Float64(), 0.5}
		}},
		{"one huge anchor among small ones, and centres at the near distance", 500, 8, func(r *rand.Rand, i int) (mgl64.Vec3, mgl64.Vec3) {
			if i == 0 {
				return mgl64.Vec3{5, 5, 0.5}, mgl64.Vec3{30, 30, 1}
			}
			return mgl64.Vec3{5 + MapNearDistance*float64(r.IntN(21)-10), 5 + MapNearDistance*float64(r.IntN(21)-10), 1 + 0.1*float64(r.IntN(3))}, mgl64.Vec3{0.3, 0.3, 0.2}
		}},
		{"few anchors, far apart: the nearest is many splits away", 1000, 40, func(r *rand.Rand, i int) (mgl64.Vec3, mgl64.Vec3) {
			return mgl64.Vec3{200 * r.Float64(), 3 * r.Float64(), r.Float64()}, mgl64.Vec3{0.5, 0.5, 0.5}
		}},
	} {
		r := rand.New(rand.NewPCG(1, uint64(len(tc.why))))
		var all, anchors []Instance
		for i := range tc.n {
			c, s := tc.layout(r, i)
			in := Instance{ID: fmt.Sprintf("obj%d", i), Center: c, Size: s}
			if i%7 == 3 {
				in.ID = "obj0" // duplicate ids: relate skips every anchor of the name
			}
			all = append(all, in)
			if i%tc.anchors == 0 {
				anchors = append(anchors, in)
			}
		}
		tree := newAnchorTree(anchors)
		if tree == nil {
			t.Fatalf("%s: no tree over %d anchors", tc.why, len(anchors))
		}
		for _, rel := range []string{MapRelNear, MapRelOn, MapRelFar, "", "beside"} {
			counted := 0
			for i := range all {
				wantD, wantOK := relate(all[i], anchors, rel)
				gotD, gotOK := tree.relate(&all[i], rel)
				if gotOK != wantOK || !fma.Same(gotD, wantD) {
					t.Fatalf("%s: %s %s: the tree says %v, %v; every anchor measured says %v, %v", tc.why, all[i].ID, rel, gotD, gotOK, wantD, wantOK)
				}
				if wantOK {
					counted++
				}
			}
			if (rel == MapRelNear || rel == MapRelOn || rel == MapRelFar) && (counted == 0 || counted == len(all)) {
				t.Errorf("%s: %s holds for %d of %d instances; the row tests nothing", tc.why, rel, counted, len(all))
			}
		}
	}
}

// The tree is not built where it would not be exact or would not pay.
func TestAnchorTreeFallsBack(t *testing.T) {
	many := func(n int) []Instance {
		out := make([]Instance, n)
		for i := range out {
			out[i] = Instance{ID: fmt.Sprint(i), Center: mgl64.Vec3{float64(i), 0, 0}, Size: mgl64.Vec3{1, 1, 1}}
		}
		return out
	}
	nan, inf := many(anchorTreeMin), many(anchorTreeMin)
	nan[3].Center[1] = math.NaN()
	inf[5].Size[0] = math.Inf(1)
	for _, tc := range []struct {
		why     string
		anchors []Instance
		tree    bool
	}{
		{"few anchors: measuring each is cheaper", many(anchorTreeMin - 1), false},
		{"enough anchors", many(anchorTreeMin), true},
		{"a NaN centre cannot be ordered", nan, false},
		{"an infinite box hides nothing", inf, false},
	} {
		if got := newAnchorTree(tc.anchors) != nil; got != tc.tree {
			t.Errorf("%s: tree built %v, want %v", tc.why, got, tc.tree)
		}
	}
}
