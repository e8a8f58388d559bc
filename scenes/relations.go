package scenes

import "math"

// Relations of the scene graph. Directions are on the table plane, seen from
// above: left is smaller x, above is larger y (away from the robots).
const (
	RelLeftOf   = "left_of"
	RelRightOf  = "right_of"
	RelAbove    = "above"
	RelBelow    = "below"
	RelInsideOf = "inside_of"
	RelOnTopOf  = "on_top_of"
	RelNear     = "near"
)

// Relations lists every relation a graph may hold, in a fixed order.
var Relations = []string{RelLeftOf, RelRightOf, RelAbove, RelBelow, RelInsideOf, RelOnTopOf, RelNear}

// NearDistance is the planar distance under which two objects are near.
const NearDistance = 0.2

// BowlInnerRadius is how far from a bowl's centre a block's centre may lie
// and still be inside it.
const BowlInnerRadius = BowlSize/2 - 0.005

// Inside reports whether object a lies inside bowl b: a is not a bowl and its
// centre is within b's rim.
func Inside(a, b Object) bool {
	return b.Class == ClassBowl && a.Class != ClassBowl && a.ID != b.ID &&
		PlanarDistance(a, b) <= BowlInnerRadius
}

// OnTop reports whether block a rests on block b: a is higher than b and its
// centre lies over b's footprint.
func OnTop(a, b Object) bool {
	if a.ID == b.ID || b.Class != ClassBlock || a.Class != ClassBlock {
		return false
	}
	return a.Pose.Z() > b.Pose.Z()+b.Extent.Z()/2 &&
		math.Abs(a.Pose.X()-b.Pose.X()) <= b.Extent.X()/2 &&
		math.Abs(a.Pose.Y()-b.Pose.Y()) <= b.Extent.Y()/2
}

// Direction returns the relation of a to b along the dominant axis of their
// offset: left_of, right_of, above or below.
func Direction(a, b Object) string {
	return directionOf(a.Pose.X()-b.Pose.X(), a.Pose.Y()-b.Pose.Y())
}

// directionOf is the relation of an offset (dx, dy) along its dominant
// axis.
func directionOf(dx, dy float64) string { return Relations[directionCode(dx, dy)-1] }

// The relation codes of pairCodes: one more than the relation's index
// in Relations.
var (
	codeInsideOf = relationCode(RelInsideOf)
	codeOnTopOf  = relationCode(RelOnTopOf)
	codeNear     = relationCode(RelNear)
	codeLeftOf   = relationCode(RelLeftOf)
	codeRightOf  = relationCode(RelRightOf)
	codeAbove    = relationCode(RelAbove)
	codeBelow    = relationCode(RelBelow)
)

// pairCodes returns the relations from a to b and from b to a, as codes
// (see RelationCodes), 0 past the last: those of relationsOf
// (relations_pairs_test.go states it plainly), on objects read once (see
// pairObject). Containment and stacking take the place of the
// directional relations between the two objects they join. The two
// directions share what they read: the containment and stacking tests,
// and nearness, which is symmetric.
//
// same is whether the two objects share an id: no object is inside, or on
// top of, itself.
func pairCodes(a, b *pairObject, same bool) (ab, ba [2]uint8) {
	ia, ib := !same && a.inside(b), !same && b.inside(a)
	ta, tb := false, false
	if !ia && !ib && !same {
		ta, tb = a.onTop(b), b.onTop(a)
	}
	// In each direction the first of the four tests that holds decides,
	// in relationsOf's order; a test that holds only of the other
	// direction leaves this one none. (No two objects of positive size
	// are each inside, or each on top of, the other; a box of negative
	// size read from a reply may be.)
	switch {
	case ia || ib:
		if ia {
			ab[0] = codeInsideOf
		}
		if ib {
			ba[0] = codeInsideOf
		}
	case ta || tb:
		if ta {
			ab[0] = codeOnTopOf
		}
		if tb {
			ba[0] = codeOnTopOf
		}
	default:
		dx, dy := a.x-b.x, a.y-b.y
		ab[0], ba[0] = directionCode(dx, dy), directionCode(-dx, -dy)
		if a.near(b) {
			ab[1], ba[1] = codeNear, codeNear
		}
	}
	return ab, ba
}

// directionCode is the code of directionOf(dx, dy).
func directionCode(dx, dy float64) uint8 {
	if math.Abs(dx) >= math.Abs(dy) {
		if dx < 0 {
			return codeLeftOf
		}
		return codeRightOf
	}
	if dy > 0 {
		return codeAbove
	}
	return codeBelow
}

// pairObject is what the relations read of an object, read once a graph
// rather than once a pair: the pose, the footprint and the class. It
// holds no pointer (its id is compared where a pair is read: see
// pairCodes), so a table's are a block the collector need not scan.
type pairObject struct {
	x, y, z     float64
	halfX       float64 // half the extent along each axis
	halfY       float64
	top         float64 // z + half the height
	bowl, block bool
}

func newPairObject(o *Object) pairObject {
	return pairObject{
		x: o.Pose.X(), y: o.Pose.Y(), z: o.Pose.Z(),
		halfX: o.Extent.X() / 2, halfY: o.Extent.Y() / 2, top: o.Pose.Z() + o.Extent.Z()/2,
		bowl: o.Class == ClassBowl, block: o.Class == ClassBlock,
	}
}

// inside is Inside(a, b) for objects of different ids.
func (a *pairObject) inside(b *pairObject) bool {
	if !b.bowl || a.bowl {
		return false
	}
	dx, dy := a.x-b.x, a.y-b.y
	if math.Abs(dx) > BowlInnerRadius || math.Abs(dy) > BowlInnerRadius {
		return false // a hypotenuse is never shorter than a side
	}
	return hypotAtMost(dx, dy, BowlInnerRadius)
}

// onTop is OnTop(a, b) for objects of different ids.
func (a *pairObject) onTop(b *pairObject) bool {
	if !b.block || !a.block {
		return false
	}
	return a.z > b.top && math.Abs(a.x-b.x) <= b.halfX && math.Abs(a.y-b.y) <= b.halfY
}

// near reports whether PlanarDistance(a, b) < NearDistance, and takes the
// square root only when neither axis alone is as far: a hypotenuse is
// never shorter than a side, so the answer is the same, and most pairs of
// a crowded table cost none.
func (a *pairObject) near(b *pairObject) bool {
	dx, dy := a.x-b.x, a.y-b.y
	if math.Abs(dx) >= NearDistance || math.Abs(dy) >= NearDistance {
		return false
	}
	return hypotLess(dx, dy, NearDistance)
}

// hypotMargin is the relative distance from a threshold's square at
// which a sum of squares decides a comparison of math.Hypot with the
// threshold: both are within a few units in the last place (1e-16) of the
// exact length and its square, so a sum this far off the square is
// certainly on the same side as the hypotenuse. Only the rare pair nearer
// the threshold than that costs the hypotenuse.
const hypotMargin = 1e-9

// hypotLess reports whether math.Hypot(dx, dy) < r, for r > 0.
func hypotLess(dx, dy, r float64) bool {
	switch s, r2 := dx*dx+dy*dy, r*r; {
	case s < r2*(1-hypotMargin):
		return true
	case s > r2*(1+hypotMargin):
		return false
	}
	return math.Hypot(dx, dy) < r
}

// hypotAtMost reports whether math.Hypot(dx, dy) <= r, for r > 0.
func hypotAtMost(dx, dy, r float64) bool {
	switch s, r2 := dx*dx+dy*dy, r*r; {
	case s < r2*(1-hypotMargin):
		return true
	case s > r2*(1+hypotMargin):
		return false
	}
	return math.Hypot(dx, dy) <= r
}
