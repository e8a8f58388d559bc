package perturb

import (
	"math/rand/v2"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks"
	"github.com/ambibench/ambibench/tasks/household"
)

// partialObservability puts two robots at the table, each seeing only its
// own and the shared workspace, and the block in robot 2's. Robot 1 gets
// the instruction; the block exists, so the right move is to ask robot 2,
// and telling the user it is absent is wrong.
type partialObservability struct{}

func (partialObservability) Name() string { return tasks.LabelPartialObservability }
func (partialObservability) Description() string {
	return "two robots with private views; the block is in the other robot's workspace"
}

// Applies to families whose instruction names one block plainly, so that
// where it lies is the whole difficulty.
func (partialObservability) Applies(f tasks.Family) bool {
	return f.Name() == "pick_place" || f.Name() == "handover"
}

func (partialObservability) Apply(rng *rand.Rand, ep *tasks.Episode) error {
	if len(ep.Moves) != 1 {
		return ErrRedraw
	}
	m := ep.Moves[0]
	l := scenes.NewLayout(rng, scenes.MinSpacing, true)
	areaOf := func(id string) scenes.Rect {
		switch id {
		case m.Pick.ID:
			return scenes.RegionRect(scenes.RegionRobot2)
		case m.Place.ID:
			return scenes.RegionRect(scenes.RegionRobot1)
		}
		return scenes.Table
	}
	// The constrained objects go first, while their strips are empty.
	order := append([]scenes.Object(nil), ep.Objects...)
	for pass := range 2 {
		for _, o := range order {
			constrained := o.ID == m.Pick.ID || o.ID == m.Place.ID
			if constrained != (pass == 0) {
				continue
			}
			if _, err := l.Place(o, areaOf(o.ID), nil); err != nil {
				return ErrRedraw
			}
		}
	}
	ep.Objects = l.Objects()
	ep.TwoRobots, ep.PartialView = true, true
	ep.Label = tasks.LabelPartialObservability
	ep.Answer = ""
	return nil
}

// On the household track every object of the kind lies in closed
// receptacles (household.PartialObservability); the answer stays empty.
func (partialObservability) AppliesToGame(string) bool { return true }
func (partialObservability) ApplyGame(rng *rand.Rand, g *household.Game) error {
	return household.PartialObservability(rng, g)
}
