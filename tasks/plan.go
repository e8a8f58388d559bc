package tasks

import "github.com/ambibench/ambibench/scenes"

// Step is one action of the reference solution of an episode.
type Step struct {
	Robot  string // who acts
	Action string // "ask", "ask_robot" or "pick_and_place"
	Tag    string // for "ask": the ambiguity tag
	Pick   string
	Place  string
}

// Ambiguity labels that the simulated user answers.
const (
	LabelAbsence        = "absence"
	LabelMultiplicity   = "multiplicity"
	LabelUnderspecified = "underspecified"
	// LabelPartialObservability is resolved by asking the other robot, not
	// the user.
	LabelPartialObservability = "partial_observability"
)

// UserTags are the tags a question to the user may carry.
var UserTags = []string{LabelAbsence, LabelMultiplicity, LabelUnderspecified}

// Plan returns what a perfect agent does: ask the user with the right tag
// if the episode is ambiguous, ask robot 2 to hand over any block in its
// workspace, and carry out the moves the user means. A destination in
// robot 2's workspace is robot 2's to reach: robot 1 puts the block in the
// shared workspace and asks robot 2 (Step.Place says where to), which
// then places it.
func (e *Episode) Plan() []Step {
	var plan []Step
	switch e.Label {
	case LabelAbsence, LabelMultiplicity, LabelUnderspecified:
		plan = append(plan, Step{Robot: scenes.Robot1, Action: "ask", Tag: e.Label})
	}
	inRobot2 := func(id string) bool {
		o, ok := e.Object(id)
		return ok && e.TwoRobots && o.Region == scenes.RegionRobot2
	}
	for _, m := range e.Moves {
		if inRobot2(m.Pick.ID) {
			plan = append(plan,
				Step{Robot: scenes.Robot1, Action: "ask_robot", Pick: m.Pick.ID, Place: scenes.SharedPlace},
				Step{Robot: scenes.Robot2, Action: "pick_and_place", Pick: m.Pick.ID, Place: scenes.SharedPlace})
		}
		if inRobot2(m.Place.ID) {
			plan = append(plan,
				Step{Robot: scenes.Robot1, Action: "pick_and_place", Pick: m.Pick.ID, Place: scenes.SharedPlace},
				Step{Robot: scenes.Robot1, Action: "ask_robot", Pick: m.Pick.ID, Place: m.Place.ID},
				Step{Robot: scenes.Robot2, Action: "pick_and_place", Pick: m.Pick.ID, Place: m.Place.ID})
			continue
		}
		plan = append(plan, Step{Robot: scenes.Robot1, Action: "pick_and_place", Pick: m.Pick.ID, Place: m.Place.ID})
	}
	return plan
}
