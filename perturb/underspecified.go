package perturb

import (
	"math/rand/v2"

	"github.com/ambibench/ambibench/tasks"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// underspecified makes the instruction vague: the block becomes "something"
// or the like, or the destination is dropped ("move the red block away").
// The user, asked with the underspecified tag, says what was meant.
type underspecified struct{}

func (underspecified) Name() string { return tasks.LabelUnderspecified }
func (underspecified) Description() string {
	return "the referring phrase becomes vague, or the destination is dropped"
}
func (underspecified) Applies(tasks.Family) bool { return true }

// VagueWords replace a referring phrase.
var VagueWords = []string{"something", "that thing", "the item", "the object"}

// NoDestinationTemplates drop the destination of a one-move instruction.
var NoDestinationTemplates = []string{
	"Can you move {pick0} away?",
	"Move {pick0} away.",
	"Put {pick0} somewhere else.",
}

func (underspecified) Apply(rng *rand.Rand, ep *tasks.Episode) error {
	if len(ep.Moves) == 1 && rng.IntN(2) == 0 {
		m := ep.Moves[0]
		ep.Template = NoDestinationTemplates[rng.IntN(len(NoDestinationTemplates))]
		ep.Answer = "Put it " + m.Prep + " " + m.Place.Phrase + "."
	} else {
		i := rng.IntN(len(ep.Moves))
		m := &ep.Moves[i]
		ep.Answer = "I mean " + m.Pick.Phrase + "."
		m.Pick.Phrase = VagueWords[rng.IntN(len(VagueWords))]
	}
	ep.Label = tasks.LabelUnderspecified
	return nil
}

// On the household track the instruction does not say the kind; the user
// names it (alfworld.Underspecified).
func (underspecified) AppliesToGame(string) bool { return true }
func (underspecified) HouseholdDescription() string {
	return "the task does not say the kind (\"put something cool in countertop\"); asked, the user names it"
}
func (underspecified) ApplyGame(rng *rand.Rand, g *alfworld.Game) error {
	return alfworld.Underspecified(rng, g)
}
