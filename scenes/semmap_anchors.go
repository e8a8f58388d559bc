package scenes

import (
	"cmp"
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl64"
)

// The anchors of a relation query in a k-d tree over their centres, so
// that relating an instance to them costs about the logarithm of their
// number instead of one distance per anchor: a query relating a fifth of
// a map to a tenth of it compared every pair, and at 1,000 objects cost
// four times an unrelated one (BenchmarkResolveObjects).
//
// The tree only chooses which anchors to measure. Each anchor measured is
// measured as relate measures it (in.Center.Sub(a.Center).Len(), RestsOn),
// and a subtree is skipped only when none of its anchors could count; so
// the answer, distance for distance, is relate's (TestAnchorTreeIsRelate
// holds it to that). Floating point cannot make a skipped anchor count:
// a computed difference grows with the exact one, and a computed length
// is at least each computed component less one part in 2^52, for which
// the bounds allow a part in 10^9.

// anchorTreeMin is the number of anchors below which measuring every one
// is cheaper than building the tree.
const anchorTreeMin = 16

// boundSlack widens the bounds of the searches against rounding.
const boundSlack = 1e-9

// anchorTree is a k-d tree stored in an array: the anchor at the middle of
// a range splits it on axis depth%3, the lower half before it.
type anchorTree struct {
	anchors []anchor
	// maxHalf is the largest half-extent of an anchor's box in x and y:
	// no instance farther than it from an anchor's centre rests on it.
	maxHalf mgl64.Vec2
	buf     []int
}

// anchor is what relating reads of an anchor; it is small and sorts fast.
type anchor struct {
	center, size mgl64.Vec3
	id           string
}

// newAnchorTree builds the tree, or returns nil when relate should measure
// every anchor: there are few, or a number is not finite (the tree's
// order needs every centre to compare, and an infinite box would hide
// nothing). An instance related over the tree must be finite too
// (finiteBox).
func newAnchorTree(anchors []Instance) *anchorTree {
	if len(anchors) < anchorTreeMin {
		return nil
	}
	t := &anchorTree{anchors: make([]anchor, len(anchors))}
	for i := range anchors {
		a := &anchors[i]
		if !finiteBox(a) {
			return nil
		}
		t.anchors[i] = anchor{a.Center, a.Size, a.ID}
		t.maxHalf[0] = max(t.maxHalf[0], a.Size[0]/2)
		t.maxHalf[1] = max(t.maxHalf[1], a.Size[1]/2)
	}
	t.build(0, len(t.anchors), 0)
	return t
}

// finiteBox reports whether an instance's centre and size are finite.
func finiteBox(in *Instance) bool {
	for k := range 3 {
		if math.IsInf(in.Center[k], 0) || math.IsNaN(in.Center[k]) || math.IsInf(in.Size[k], 0) || math.IsNaN(in.Size[k]) {
			return false
		}
	}
	return true
}

func (t *anchorTree) build(lo, hi, depth int) {
	if hi-lo < 2 {
		return
	}
	axis := depth % 3
	slices.SortFunc(t.anchors[lo:hi], func(a, b anchor) int { return cmp.Compare(a.center[axis], b.center[axis]) })
	mid := (lo + hi) / 2
	t.build(lo, mid, depth+1)
	t.build(mid+1, hi, depth+1)
}

// within lists the anchors whose centre is within r of c on every axis
// (its slice is reused by the next call).
func (t *anchorTree) within(c mgl64.Vec3, r mgl64.Vec3) []int {
	t.buf = t.buf[:0]
	t.collect(c, r, 0, len(t.anchors), 0)
	return t.buf
}

func (t *anchorTree) collect(c, r mgl64.Vec3, lo, hi, depth int) {
	for lo < hi {
		mid := (lo + hi) / 2
		p := t.anchors[mid].center
		if math.Abs(p[0]-c[0]) <= r[0] && math.Abs(p[1]-c[1]) <= r[1] && math.Abs(p[2]-c[2]) <= r[2] {
			t.buf = append(t.buf, mid)
		}
		axis := depth % 3
		left, right := c[axis]-p[axis] <= r[axis], p[axis]-c[axis] <= r[axis]
		depth++
		switch {
		case left && right:
			t.collect(c, r, lo, mid, depth)
			lo = mid + 1
		case left:
			hi = mid
		case right:
			lo = mid + 1
		default:
			return
		}
	}
}

// nearest is the distance from c to the nearest anchor not named skip,
// +Inf when there is none.
func (t *anchorTree) nearest(c mgl64.Vec3, skip string) float64 {
	return t.search(c, skip, 0, len(t.anchors), 0, math.Inf(1))
}

func (t *anchorTree) search(c mgl64.Vec3, skip string, lo, hi, depth int, best float64) float64 {
	if lo >= hi {
		return best
	}
	mid := (lo + hi) / 2
	a := &t.anchors[mid]
	if a.id != skip {
		best = min(best, c.Sub(a.center).Len())
	}
	// The side of the split that c is on first; the other only if the
	// split is no farther than the nearest anchor found.
	gap := c[depth%3] - a.center[depth%3]
	nearLo, nearHi, farLo, farHi := lo, mid, mid+1, hi
	if gap > 0 {
		nearLo, nearHi, farLo, farHi = mid+1, hi, lo, mid
	}
	best = t.search(c, skip, nearLo, nearHi, depth+1, best)
	if math.Abs(gap) <= best*(1+boundSlack) {
		best = t.search(c, skip, farLo, farHi, depth+1, best)
	}
	return best
}

// relate is the package's relate over the tree, for a finite instance.
func (t *anchorTree) relate(in *Instance, rel string) (float64, bool) {
	best, found := math.Inf(1), false
	switch rel {
	case "":
		return 0, true
	case MapRelFar:
		best = t.nearest(in.Center, in.ID)
		return best, best > MapNearDistance
	case MapRelNear:
		r := MapNearDistance * (1 + boundSlack)
		for _, i := range t.within(in.Center, mgl64.Vec3{r, r, r}) {
			a := &t.anchors[i]
			if a.id == in.ID {
				continue
			}
			if d := in.Center.Sub(a.center).Len(); d <= MapNearDistance {
				best, found = min(best, d), true
			}
		}
	case MapRelOn:
		for _, i := range t.within(in.Center, mgl64.Vec3{t.maxHalf[0], t.maxHalf[1], math.Inf(1)}) {
			a := &t.anchors[i]
			if a.id != in.ID && restsOn(in.Center, in.Size, a.center, a.size) {
				best, found = min(best, in.Center.Sub(a.center).Len()), true
			}
		}
	}
	return best, found
}
