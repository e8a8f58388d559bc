package perturb

import (
	"math"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks"
)

// directionWords are how the user says a direction on the table, as the
// task grammar reads it.
var directionWords = map[string]string{
	scenes.RelLeftOf:  "to the left of",
	scenes.RelRightOf: "to the right of",
	scenes.RelAbove:   "above",
	scenes.RelBelow:   "below",
}

// clearMargin is how much larger an offset's dominant axis must be than
// the other for a direction to be said of it: physics settles a table by
// a few millimetres, which must not turn "left of" into "above".
const clearMargin = 1.25

// seenAnswer says which of two alike objects is meant without their ids:
// by the direction of the meant one from an object that is the only one
// of its colour and class on the table (and that robot 1 observes), a
// direction the other does not share; failing that, by its colour if no
// other object has it, or by its direction from the other ("the blue block
// to the left of the other blue block"). It is
// "" when neither is clear, or when either rests on or in something; the
// user then answers by id (Answer).
func seenAnswer(ep *tasks.Episode, meant, other string) string {
	m, ok1 := ep.Object(meant)
	o, ok2 := ep.Object(other)
	if !ok1 || !ok2 || resting(m) || resting(o) {
		return ""
	}
	count := map[string]int{}
	for _, a := range ep.Objects {
		count[a.Color()+" "+a.Class]++
	}
	for _, a := range ep.Objects {
		if a.ID == meant || a.ID == other || count[a.Color()+" "+a.Class] != 1 || resting(a) {
			continue
		}
		if !scenes.Sees(scenes.Robot1, scenes.RegionAt(ep.TwoRobots, a.Pose.X(), a.Pose.Y()), ep.PartialView) {
			continue
		}
		rel, clear := clearDirection(m, a)
		if !clear || scenes.Direction(o, a) == rel {
			continue
		}
		return "I mean the " + m.Color() + " " + m.Class + " " + directionWords[rel] + " the " + a.Color() + " " + a.Class + "."
	}
	if count[m.Color()+" "+m.Class] == 1 {
		return "I mean the " + m.Color() + " " + m.Class + "."
	}
	if rel, clear := clearDirection(m, o); clear && o.Color() == m.Color() && o.Class == m.Class {
		return "I mean the " + m.Color() + " " + m.Class + " " + directionWords[rel] + " the other " + m.Color() + " " + m.Class + "."
	}
	return ""
}

// clearDirection is the direction of a from b with whether its dominant
// axis clearly dominates.
func clearDirection(a, b scenes.Object) (string, bool) {
	dx, dy := math.Abs(a.Pose.X()-b.Pose.X()), math.Abs(a.Pose.Y()-b.Pose.Y())
	return scenes.Direction(a, b), math.Max(dx, dy) > clearMargin*math.Min(dx, dy)
}

// resting reports an object that stands on or in another, whose relation
// to it is on_top_of or inside_of rather than a direction.
func resting(o scenes.Object) bool { return o.Pose.Z() > o.Extent.Z()/2+1e-6 }
