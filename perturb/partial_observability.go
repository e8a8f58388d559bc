package perturb

import (
	"math/rand/v2"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// partialObservability puts two robots at the table, each seeing only its
// own and the shared workspace. Robot 1 gets the instruction, and one of
// the two things it names is in robot 2's workspace, drawn per episode
// (the two cases of paper 001, §4.3):
//
//   - the object (tasks.OutOfViewObject): the block lies in robot 2's
//     workspace, the destination in robot 1's; robot 1 asks robot 2 to
//     bring the block to the shared workspace, then places it;
//   - the destination (tasks.OutOfViewDestination): the block lies in
//     robot 1's workspace, the destination in robot 2's; robot 1 puts the
//     block in the shared workspace and asks robot 2 to place it.
//
// Either way the thing exists, so the right move is to ask robot 2, and
// telling the user it is absent is a wrong tag.
type partialObservability struct{}

func (partialObservability) Name() string { return tasks.LabelPartialObservability }
func (partialObservability) Description() string {
	return "two robots with private views; the block, or its destination, is in the other robot's workspace"
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
	// The case is drawn after the layout, so that an episode of the object
	// case has the table it had before the destination case existed. The
	// destination case is the same table mirrored left to right: the
	// workspaces swap and every distance stays.
	ep.OutOfView = tasks.OutOfViewObject
	if rng.IntN(2) == 1 {
		ep.OutOfView = tasks.OutOfViewDestination
		for i := range ep.Objects {
			o := &ep.Objects[i]
			o.Pose[0] = -o.Pose[0]
			o.Region = scenes.RegionAt(true, o.Pose.X(), o.Pose.Y())
		}
	}
	ep.TwoRobots, ep.PartialView = true, true
	ep.Label = tasks.LabelPartialObservability
	ep.Answer = ""
	return nil
}

// On the household track every object of the kind lies in closed
// receptacles (alfworld.PartialObservability); the answer stays empty.
func (partialObservability) AppliesToGame(string) bool { return true }
func (partialObservability) HouseholdDescription() string {
	return "every object of the kind lies in closed receptacles; the task is clear and exploring finds it"
}
func (partialObservability) ApplyGame(rng *rand.Rand, g *alfworld.Game) error {
	return alfworld.PartialObservability(rng, g)
}
