package stack

import (
	"math/rand/v2"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks"
)

// stack asks for one block on top of another, on a table of four blocks
// and no bowl.
type stack struct{}

func (stack) Name() string        { return "stack" }
func (stack) Description() string { return "one block onto another, on a table of blocks alone" }
func (stack) TwoRobots() bool     { return false }

var templates = []string{"Put {pick0} {place0}.", "Place {pick0} {place0}."}

// Generate draws one clear episode from rng and nothing else; the
// perturbations then make it ambiguous.
func (stack) Generate(rng *rand.Rand) (*tasks.Episode, error) {
	objs, err := scenes.GenerateTabletop(rng, scenes.TabletopConfig{Blocks: 4})
	if err != nil {
		return nil, err
	}
	order := rng.Perm(len(objs))
	top, bottom := objs[order[0]], objs[order[1]]
	return &tasks.Episode{
		Family:   "stack",
		Template: templates[rng.IntN(len(templates))],
		Moves: []tasks.Move{{
			Pick:  tasks.Ref{Phrase: tasks.Phrase(top), ID: top.ID},
			Place: tasks.Ref{Phrase: tasks.Phrase(bottom), ID: bottom.ID},
			Prep:  tasks.PrepFor(bottom.Class),
		}},
		Objects:    objs,
		Label:      tasks.LabelNone,
		Difficulty: 1,
	}, nil
}

func init() { tasks.Register(stack{}) }
