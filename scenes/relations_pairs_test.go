package scenes

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// relationsOf is the plain statement of the relations from a to b, in the
// terms of the exported predicates, which pairCodes computes on objects
// read once.
func relationsOf(a, b Object) []string {
	switch {
	case Inside(a, b):
		return []string{RelInsideOf}
	case Inside(b, a):
		return nil
	case OnTop(a, b):
		return []string{RelOnTopOf}
	case OnTop(b, a):
		return nil
	}
	rels := []string{Direction(a, b)}
	if PlanarDistance(a, b) < NearDistance {
		rels = append(rels, RelNear)
	}
	return rels
}

// BuildGraph's edges are relationsOf over every ordered pair, on tables
// dense enough for every relation: blocks in bowls, stacks, near pairs,
// ties of direction.
func TestBuildGraphEdgesAreRelationsOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		var objs []Object
		for i := range 2 + rng.IntN(20) {
			x, y := -0.3+0.6*rng.Float64(), -0.8+0.6*rng.Float64()
			if rng.IntN(4) == 0 && len(objs) > 0 { // on or at another
				o := objs[rng.IntN(len(objs))]
				x, y = o.Pose.X()+0.01*rng.NormFloat64(), o.Pose.Y()
			}
			var o Object
			if rng.IntN(3) == 0 {
				o = NewBowl(ObjectID("red", ClassBowl, i), "red", x, y)
			} else {
				o = NewBlock(ObjectID("red", ClassBlock, i), "red", x, y)
				o.Pose[2] += BlockSize * float64(rng.IntN(2))
			}
			objs = append(objs, o)
		}
		var want []Edge
		for _, a := range objs {
			for _, b := range objs {
				if a.ID == b.ID {
					continue
				}
				for _, r := range relationsOf(a, b) {
					want = append(want, Edge{Source: a.ID, Target: b.ID, Relation: r})
				}
			}
		}
		if got := BuildGraph(objs).EdgeList(); !slices.Equal(got, want) {
			t.Fatalf("trial %d: edges differ from relationsOf:\ngot  %v\nwant %v", trial, got, want)
		}
	}
}

// hypotLess and hypotAtMost answer as math.Hypot compared with the
// threshold does, which the relations compared before: offsets drawn on
// the circle of each threshold, then moved by a few units in the last
// place and by a little more than hypotMargin either way (where the sum
// of squares decides), and offsets on the axes, at zero and far out.
func TestHypotComparisonsAreHypots(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, r := range []float64{NearDistance, BowlInnerRadius} {
		var offsets [][2]float64
		for range 20000 {
			a := 2 * math.Pi * rng.Float64()
			dx, dy := r*math.Cos(a), r*math.Sin(a)
			for _, k := range []int{-3, -2, -1, 0, 1, 2, 3} {
				ddx, ddy := dx, dy
				for range max(k, -k) {
					ddx, ddy = math.Nextafter(ddx, ddx*float64(k)), math.Nextafter(ddy, ddy*float64(k))
				}
				offsets = append(offsets, [2]float64{ddx, ddy})
			}
			for _, f := range []float64{1 - 2*hypotMargin, 1 - hypotMargin, 1 + hypotMargin, 1 + 2*hypotMargin} {
				offsets = append(offsets, [2]float64{dx * f, dy * f})
			}
		}
		offsets = append(offsets, [2]float64{r, 0}, [2]float64{0, -r}, [2]float64{math.Nextafter(r, 0), 0}, [2]float64{0, 0}, [2]float64{1e-300, 1e-300}, [2]float64{1e300, 0})
		for _, o := range offsets {
			h := math.Hypot(o[0], o[1])
			if got, want := hypotLess(o[0], o[1], r), h < r; got != want {
				t.Errorf("hypotLess(%v, %v, %v) = %v, math.Hypot says %v (%v)", o[0], o[1], r, got, want, h)
			}
			if got, want := hypotAtMost(o[0], o[1], r), h <= r; got != want {
				t.Errorf("hypotAtMost(%v, %v, %v) = %v, math.Hypot says %v (%v)", o[0], o[1], r, got, want, h)
			}
		}
	}
}

// RelationCodes, which reads each unordered pair once, gives relationsOf
// of every ordered pair for boxes of any size, negative heights included
// (a detection read from a reply may have one): there two blocks may each
// be on top of the other, which a table's objects never are. Some boxes
// are wider than a bowl, so that a block may be on top of one farther off
// than a bowl's inner radius, and some read NaN for a coordinate or a
// size.
func TestRelationCodesOfAnyBox(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	classes := []string{ClassBlock, ClassBowl, "plate"}
	for trial := range 300 {
		n := 2 + rng.IntN(12)
		objs := make([]Object, n)
		for i := range objs {
			o := &objs[i]
			o.ID, o.Class = ObjectID("red", ClassBlock, i), classes[rng.IntN(len(classes))]
			wide := 0.1
			if rng.IntN(8) == 0 {
				wide = 0.4
			}
			for k := range 3 {
				o.Pose[k] = 0.05 * float64(rng.IntN(5)-2)
				o.Extent[k] = wide * rng.Float64()
			}
			if rng.IntN(2) == 0 {
				o.Extent[2] = -o.Extent[2] // stacking reads the height alone
			}
			if rng.IntN(40) == 0 {
				o.Pose[rng.IntN(2)] = math.NaN()
			}
			if rng.IntN(40) == 0 {
				o.Extent[rng.IntN(2)] = math.NaN()
			}
		}
		codes, count := RelationCodes(objs)
		total := 0
		for i := range objs {
			for j := range objs {
				var got []string
				for _, c := range codes[2*(i*n+j) : 2*(i*n+j)+2] {
					if c != 0 {
						got = append(got, Relations[c-1])
					}
				}
				var want []string
				if i != j {
					want = relationsOf(objs[i], objs[j])
				}
				if !slices.Equal(got, want) {
					t.Fatalf("trial %d, %v to %v: %v, relationsOf says %v", trial, objs[i], objs[j], got, want)
				}
				total += len(want)
			}
		}
		if count != total {
			t.Fatalf("trial %d: count %d, want %d", trial, count, total)
		}
		// Into a buffer that held anything, the same codes.
		dirty := make([]uint8, 2*14*14+rng.IntN(8))
		for k := range dirty {
			dirty[k] = uint8(rng.IntN(256))
		}
		if into, c := RelationCodesInto(dirty, objs); !slices.Equal(into, codes) || c != count || &into[0] != &dirty[0] {
			t.Fatalf("trial %d: RelationCodesInto a used buffer: %v (%d), RelationCodes %v (%d)", trial, into, c, codes, count)
		}
	}
}

// A pooled derivation is RelationCodes, however the buffer it borrows was
// left by the one before (a larger table's, a smaller's), and releasing
// it twice, or releasing the zero value, gives nothing back twice.
func TestPoolRelationCodesIsRelationCodes(t *testing.T) {
	for trial, dims := range [][2]int{{8, 6}, {3, 2}, {0, 0}, {1, 1}, {6, 5}, {8, 6}} {
		objs := GridTable(dims[0], dims[1])
		n := len(objs)
		codes, count := RelationCodes(objs)
		p := PoolRelationCodes(objs)
		if !slices.Equal(p.Codes, codes) || p.Count != count {
			t.Fatalf("trial %d (%d objects): pooled %v (%d), RelationCodes %v (%d)", trial, n, p.Codes, p.Count, codes, count)
		}
		p.Release()
		p.Release()
		if p.Codes != nil {
			t.Fatalf("trial %d: codes still readable after Release", trial)
		}
	}
	var zero PooledRelations
	zero.Release()
}
