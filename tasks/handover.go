package tasks

import (
	"math/rand/v2"

	"github.com/ambibench/ambibench/scenes"
)

// handover: two robots. The block lies in robot 2's workspace, the bowl in
// robot 1's; robot 1 gets the instruction, so the block must pass through
// the shared workspace.
type handover struct{}

func (handover) Name() string { return "handover" }
func (handover) Description() string {
	return "two robots: a block from robot 2's workspace into a bowl in robot 1's"
}
func (handover) TwoRobots() bool { return true }

func (handover) Generate(rng *rand.Rand) (*Episode, error) {
	l := scenes.NewLayout(rng, scenes.MinSpacing, true)
	blockColors := scenes.PickColors(rng, 3, nil)
	bowlColors := scenes.PickColors(rng, 3, nil)
	p, err := l.Add(scenes.ClassBlock, blockColors[0], scenes.RegionRect(scenes.RegionRobot2))
	if err != nil {
		return nil, err
	}
	dst, err := l.Add(scenes.ClassBowl, bowlColors[0], scenes.RegionRect(scenes.RegionRobot1))
	if err != nil {
		return nil, err
	}
	for _, c := range blockColors[1:] {
		if _, err := l.Add(scenes.ClassBlock, c, scenes.Table); err != nil {
			return nil, err
		}
	}
	for _, c := range bowlColors[1:] {
		if _, err := l.Add(scenes.ClassBowl, c, scenes.Table); err != nil {
			return nil, err
		}
	}
	return &Episode{
		Family:   "handover",
		Template: pick(rng, pickPlaceTemplates),
		Moves: []Move{{
			Pick:  Ref{Phrase: Phrase(p), ID: p.ID},
			Place: Ref{Phrase: Phrase(dst), ID: dst.ID},
			Prep:  "in",
		}},
		Objects:    l.Objects(),
		TwoRobots:  true,
		Label:      LabelNone,
		Difficulty: 2,
	}, nil
}
