package perturb

import (
	"math/rand/v2"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// absence removes the block the instruction names, or its destination. The
// user, asked with the absence tag, offers another object instead.
type absence struct{}

func (absence) Name() string { return tasks.LabelAbsence }
func (absence) Description() string {
	return "the referred block or its destination is removed from the table"
}
func (absence) Applies(tasks.Family) bool { return true }

func (absence) Apply(rng *rand.Rand, ep *tasks.Episode) error {
	i := rng.IntN(len(ep.Moves))
	m := &ep.Moves[i]
	removePlace := objectDestination(ep, i) && rng.IntN(2) == 0
	if removePlace {
		dst, _ := ep.Object(m.Place.ID)
		alt, ok := spare(rng, ep, scenes.ClassBowl)
		if !ok {
			return ErrRedraw
		}
		ep.Remove(dst.ID)
		m.Place.ID, m.Prep = alt.ID, "in"
		ep.Answer = "There is no such " + dst.Class + " here. Put it in " + tasks.Phrase(alt) + " instead."
	} else {
		alt, ok := spare(rng, ep, scenes.ClassBlock)
		if !ok {
			return ErrRedraw
		}
		ep.Remove(m.Pick.ID)
		m.Pick.ID = alt.ID
		ep.Answer = "There is no such block here. Take " + tasks.Phrase(alt) + " instead."
	}
	ep.Label = tasks.LabelAbsence
	return nil
}

// On the household track no object of the named kind is left; the user
// offers another kind (alfworld.Absence).
func (absence) AppliesToGame(string) bool { return true }
func (absence) HouseholdDescription() string {
	return "no object of the kind the task names is left; asked, the user names another kind to use"
}
func (absence) ApplyGame(rng *rand.Rand, g *alfworld.Game) error {
	return alfworld.Absence(rng, g)
}
