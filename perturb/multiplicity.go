package perturb

import (
	"math/rand/v2"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// multiplicity adds a second object that the instruction's phrase also
// matches. The user, asked with the multiplicity tag, names the one meant.
type multiplicity struct{}

func (multiplicity) Name() string { return tasks.LabelMultiplicity }
func (multiplicity) Description() string {
	return "a second object matching the referring phrase is added"
}
func (multiplicity) Applies(tasks.Family) bool { return true }

func (multiplicity) Apply(rng *rand.Rand, ep *tasks.Episode) error {
	i := rng.IntN(len(ep.Moves))
	m := &ep.Moves[i]
	l := scenes.LayoutOf(rng, scenes.MinSpacing, ep.TwoRobots, ep.Objects)
	ref := &m.Pick
	if objectDestination(ep, i) && rng.IntN(2) == 0 {
		ref = &m.Place
	}
	orig, _ := ep.Object(ref.ID)
	var twin scenes.Object
	var err error
	if rel, anchor, ok := spatialPick(ep, i); ok && ref == &m.Pick {
		// The phrase names a direction: the twin is another block in that
		// direction, of a colour no block has yet.
		used := colorsOf(ep.Objects, scenes.ClassBlock)
		colors := scenes.PickColors(rng, 1, used)
		if len(colors) == 0 {
			return ErrRedraw
		}
		twin, err = l.AddWhere(scenes.ClassBlock, colors[0], scenes.Table, func(x, y float64) bool {
			return scenes.Direction(scenes.NewBlock("", "", x, y), anchor) == rel
		})
	} else {
		area := scenes.Table
		if ep.TwoRobots {
			area = scenes.RegionRect(orig.Region)
		}
		twin, err = l.Add(orig.Class, orig.Color(), area)
	}
	if err != nil {
		return ErrRedraw
	}
	ep.Objects = l.Objects()
	if rng.IntN(2) == 0 {
		ref.ID = twin.ID
	}
	ep.Label = tasks.LabelMultiplicity
	ep.Answer = "I mean " + ref.ID + "."
	other := orig.ID
	if ref.ID == orig.ID {
		other = twin.ID
	}
	ep.AnswerSeen = seenAnswer(ep, ref.ID, other)
	return nil
}

// On the household track the instruction says "the mug" among several;
// the user says which (alfworld.Multiplicity). It leaves out
// pick_two_obj_and_place.
func (multiplicity) AppliesToGame(taskType string) bool {
	return alfworld.MultiplicityApplies(taskType)
}
func (multiplicity) HouseholdDescription() string {
	return "the task says \"the mug\" among several; asked, the user says which (not pick_two_obj_and_place)"
}
func (multiplicity) ApplyGame(rng *rand.Rand, g *alfworld.Game) error {
	return alfworld.Multiplicity(rng, g)
}

// spatialPick returns the direction and anchor of move i's pick phrase if it
// names the block by a relation.
func spatialPick(ep *tasks.Episode, i int) (rel string, anchor scenes.Object, ok bool) {
	m := ep.Moves[i]
	for _, r := range tasks.Directions {
		for _, o := range ep.Objects {
			if m.Pick.Phrase == tasks.SpatialPhrase(r, o) {
				return r, o, true
			}
		}
	}
	return "", scenes.Object{}, false
}

func colorsOf(objs []scenes.Object, class string) []string {
	var out []string
	for _, o := range objs {
		if o.Class == class {
			out = append(out, o.Color())
		}
	}
	return out
}
