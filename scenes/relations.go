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
	dx := a.Pose.X() - b.Pose.X()
	dy := a.Pose.Y() - b.Pose.Y()
	if math.Abs(dx) >= math.Abs(dy) {
		if dx < 0 {
			return RelLeftOf
		}
		return RelRightOf
	}
	if dy > 0 {
		return RelAbove
	}
	return RelBelow
}

// appendRelations appends the relations from a to b to rels. Containment
// and stacking take the place of the directional relations between the two
// objects they join. It appends rather than returns a slice because
// BuildGraph asks it of every ordered pair, n² times a graph.
func appendRelations(rels []string, a, b Object) []string {
	switch {
	case Inside(a, b):
		return append(rels, RelInsideOf)
	case Inside(b, a):
		return rels
	case OnTop(a, b):
		return append(rels, RelOnTopOf)
	case OnTop(b, a):
		return rels
	}
	rels = append(rels, Direction(a, b))
	if PlanarDistance(a, b) < NearDistance {
		rels = append(rels, RelNear)
	}
	return rels
}
