package tasks

import (
	"math/rand/v2"

	"github.com/ambibench/ambibench/scenes"
)

// pickPlace: one block to a bowl, or onto another block.
type pickPlace struct{}

func (pickPlace) Name() string { return "pick_place" }
func (pickPlace) Description() string {
	return "one block into a bowl or onto another block"
}
func (pickPlace) TwoRobots() bool { return false }

var pickPlaceTemplates = []string{
	"Pick up {pick0} and place it {place0}.",
	"Put {pick0} {place0}.",
	"Place {pick0} {place0}.",
}

func (pickPlace) Generate(rng *rand.Rand) (*Episode, error) {
	objs, err := scenes.GenerateTabletop(rng, scenes.TabletopConfig{Blocks: 3, Bowls: 3})
	if err != nil {
		return nil, err
	}
	blocks, bowls := ofClass(objs, scenes.ClassBlock), ofClass(objs, scenes.ClassBowl)
	p := pick(rng, blocks)
	var dst scenes.Object
	if rng.IntN(4) == 0 {
		for dst = pick(rng, blocks); dst.ID == p.ID; dst = pick(rng, blocks) {
		}
	} else {
		dst = pick(rng, bowls)
	}
	return &Episode{
		Family:   "pick_place",
		Template: pick(rng, pickPlaceTemplates),
		Moves: []Move{{
			Pick:  Ref{Phrase: Phrase(p), ID: p.ID},
			Place: Ref{Phrase: Phrase(dst), ID: dst.ID},
			Prep:  PrepFor(dst.Class),
		}},
		Objects:    objs,
		Label:      LabelNone,
		Difficulty: 1,
	}, nil
}
