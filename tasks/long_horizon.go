package tasks

import (
	"math/rand/v2"

	"github.com/ambibench/ambibench/scenes"
)

// longHorizon: two or three blocks, each to its own bowl.
type longHorizon struct{}

func (longHorizon) Name() string        { return "long_horizon" }
func (longHorizon) Description() string { return "two or three blocks, each into its own bowl" }
func (longHorizon) TwoRobots() bool     { return false }

var longHorizonTemplates = map[int][]string{
	2: {
		"Put {pick0} {place0}, then {pick1} {place1}.",
		"First put {pick0} {place0}, then put {pick1} {place1}.",
	},
	3: {
		"Put {pick0} {place0}, then {pick1} {place1}, then {pick2} {place2}.",
		"First put {pick0} {place0}, then put {pick1} {place1}, then put {pick2} {place2}.",
	},
}

func (longHorizon) Generate(rng *rand.Rand) (*Episode, error) {
	n := 2 + rng.IntN(2)
	objs, err := scenes.GenerateTabletop(rng, scenes.TabletopConfig{Blocks: 3, Bowls: 3})
	if err != nil {
		return nil, err
	}
	blocks, bowls := ofClass(objs, scenes.ClassBlock), ofClass(objs, scenes.ClassBowl)
	bi, wi := rng.Perm(len(blocks)), rng.Perm(len(bowls))
	ep := &Episode{
		Family:     "long_horizon",
		Template:   pick(rng, longHorizonTemplates[n]),
		Objects:    objs,
		Label:      LabelNone,
		Difficulty: n,
	}
	for i := range n {
		b, w := blocks[bi[i]], bowls[wi[i]]
		ep.Moves = append(ep.Moves, Move{
			Pick:  Ref{Phrase: Phrase(b), ID: b.ID},
			Place: Ref{Phrase: Phrase(w), ID: w.ID},
			Prep:  "in",
		})
	}
	return ep, nil
}
