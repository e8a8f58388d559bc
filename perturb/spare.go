package perturb

import (
	"math/rand/v2"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks"
)

// spare returns an object of a class that no move refers to and whose
// colour is unique in its class, so the user can name it plainly. On a
// two-robot table a spare destination must be within robot 1's reach,
// since robot 1 places the block.
func spare(rng *rand.Rand, ep *tasks.Episode, class string) (scenes.Object, bool) {
	referred := map[string]bool{}
	for _, id := range ep.Referred() {
		referred[id] = true
	}
	colors := map[string]int{}
	for _, o := range ep.Objects {
		if o.Class == class {
			colors[o.Color()]++
		}
	}
	var cands []scenes.Object
	for _, o := range ep.Objects {
		reachable := class != scenes.ClassBowl || !ep.TwoRobots || scenes.Reaches(scenes.Robot1, o.Region)
		if o.Class == class && !referred[o.ID] && colors[o.Color()] == 1 && reachable {
			cands = append(cands, o)
		}
	}
	if len(cands) == 0 {
		return scenes.Object{}, false
	}
	return cands[rng.IntN(len(cands))], true
}

// objectDestination reports whether move i's destination is an object
// (not a named place).
func objectDestination(ep *tasks.Episode, i int) bool {
	return !tasks.IsPlace(ep.Moves[i].Place.ID)
}
