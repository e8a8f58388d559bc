package household

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks"
)

// ErrRedraw means this game cannot take the perturbation (say, no other
// kind could stand in for an absent one); draw another game.
var ErrRedraw = errors.New("game cannot take this perturbation; draw another")

// Perturbations returns the names of the household perturbations, the
// same names and labels as the tabletop's: none, absence, multiplicity,
// underspecified, partial_observability.
func Perturbations() []string {
	return []string{tasks.LabelNone, tasks.LabelAbsence, tasks.LabelMultiplicity,
		tasks.LabelUnderspecified, tasks.LabelPartialObservability}
}

// Applies reports whether a perturbation makes sense for a task type.
// Multiplicity does not apply to pick_two_obj_and_place: "the two mugs"
// among three would need the user to name two.
func Applies(taskType, perturbation string) bool {
	if perturbation == tasks.LabelMultiplicity && taskType == TypePickTwoObjAndPlace {
		return false
	}
	return slices.Contains(Perturbations(), perturbation) || perturbation == ""
}

// Perturb turns a clear game into an ambiguous or harder one in place and
// sets its Label and Answer, drawing only from rng:
//
//   - absence: no object of the kind the instruction names is left; asked
//     with the absence tag, the user names another kind to use, and the
//     goal is about that kind;
//   - multiplicity: the instruction says "the mug" and there are several;
//     asked with the multiplicity tag, the user says which ("the red one",
//     "the one that belongs to Sam", "mug 2"), and only that one counts;
//   - underspecified: the instruction does not say the kind ("put something
//     cool in countertop."); asked with the underspecified tag, the user
//     names it;
//   - partial_observability: the instruction is clear, but every object
//     of the kind lies inside closed receptacles; exploring finds it, and
//     telling the user it is absent is wrong. Its Answer is empty and it
//     is scored by success only.
//
// "" and "none" leave the game as it is. It returns ErrRedraw when this
// game cannot take the perturbation.
func Perturb(g *Game, name string, rng *rand.Rand) error {
	if !Applies(g.Type, name) {
		if slices.Contains(Perturbations(), name) {
			return ErrRedraw
		}
		return fmt.Errorf("household perturbation: unknown %q (want one of %v)", name, Perturbations())
	}
	if g.Label != tasks.LabelNone {
		return fmt.Errorf("household perturbation %s: game %s is already perturbed (%s)", name, g.ID, g.Label)
	}
	switch name {
	case tasks.LabelAbsence:
		return absence(g, rng)
	case tasks.LabelMultiplicity:
		return multiplicity(g, rng)
	case tasks.LabelUnderspecified:
		g.form = formVague
		g.render()
		g.Label = tasks.LabelUnderspecified
		if g.Goal.Count >= 2 {
			g.Answer = "I mean two " + plural(g.Goal.Kind) + "."
		} else {
			g.Answer = "I mean " + indefinite(g.Goal.Kind) + "."
		}
		return nil
	case tasks.LabelPartialObservability:
		return partialObservability(g, rng)
	}
	return nil
}

func absence(g *Game, rng *rand.Rand) error {
	s := specs[g.Type]
	h := g.House
	var alts []scenes.Kind
	for _, k := range s.candidates(h.Rooms[0]) {
		if k.Name == g.Goal.Kind || len(h.ItemsOf(k.Name)) < g.Goal.Count {
			continue
		}
		if g.Goal.Dest != "" && !k.Fits(g.Goal.Dest) {
			continue
		}
		alts = append(alts, k)
	}
	if len(alts) == 0 {
		return ErrRedraw
	}
	alt := alts[rng.IntN(len(alts))]
	for is := h.ItemsOf(g.Goal.Kind); len(is) > 0; is = h.ItemsOf(g.Goal.Kind) {
		h.RemoveItem(is[0])
	}
	g.Goal.Kind = alt.Name
	if g.Goal.Dest != "" && !g.clearDestinations(rng, alt.Name) {
		return ErrRedraw
	}
	g.Label = tasks.LabelAbsence
	use := indefinite(alt.Name)
	if g.Goal.Count >= 2 {
		use = "two " + plural(alt.Name)
	}
	g.Answer = "There is no " + g.named + " here. Use " + use + " instead."
	return nil
}

func multiplicity(g *Game, rng *rand.Rand) error {
	h := g.House
	k, _ := scenes.KindOf(g.Goal.Kind)
	var fits []int
	for r, rec := range h.Receptacles {
		if k.Fits(rec.Kind) && rec.Kind != g.Goal.Dest {
			fits = append(fits, r)
		}
	}
	want := 2 + rng.IntN(2)
	for len(h.ItemsOf(k.Name)) < want {
		if len(fits) == 0 {
			return ErrRedraw
		}
		if _, err := h.AddItem(k.Name, fits[rng.IntN(len(fits))]); err != nil {
			return fmt.Errorf("household perturbation multiplicity: %w", err)
		}
	}
	same := h.ItemsOf(k.Name)
	// Tell them apart by colour and owner where the kind has those.
	if len(k.Colors) >= len(same) {
		for j, c := range rng.Perm(len(k.Colors))[:len(same)] {
			h.Items[same[j]].Color = k.Colors[c]
		}
	}
	owners := scenes.HouseOwners()
	if k.Owned && len(owners) >= len(same) {
		for j, o := range rng.Perm(len(owners))[:len(same)] {
			h.Items[same[j]].Owner = owners[o]
		}
	}
	meant := h.Items[same[rng.IntN(len(same))]]
	answers := []string{"I mean the " + meant.Name + "."}
	if len(k.Colors) >= len(same) {
		answers = append(answers, "I mean the "+meant.Color+" one.")
	}
	if k.Owned && len(owners) >= len(same) {
		answers = append(answers, "I mean the one that belongs to "+meant.Owner+".")
	}
	g.Answer = answers[rng.IntN(len(answers))]
	g.Goal.Item = meant.Name
	g.form = formDefinite
	g.render()
	g.Label = tasks.LabelMultiplicity
	return nil
}

// partialObservability hides every object of the goal's kind in closed
// receptacles: ones it fits if there are any, else any that open, never
// one of the destination kind.
func partialObservability(g *Game, rng *rand.Rand) error {
	h := g.House
	k, _ := scenes.KindOf(g.Goal.Kind)
	var fitting, closed []int
	for r, rec := range h.Receptacles {
		rk, _ := scenes.KindOf(rec.Kind)
		if !rk.Openable || rec.Open || rec.Kind == g.Goal.Dest {
			continue
		}
		closed = append(closed, r)
		if k.Fits(rec.Kind) {
			fitting = append(fitting, r)
		}
	}
	if len(fitting) == 0 {
		fitting = closed
	}
	if len(fitting) == 0 {
		return ErrRedraw
	}
	for _, i := range h.ItemsOf(k.Name) {
		if !h.Hidden(i) {
			h.Items[i].In = fitting[rng.IntN(len(fitting))]
		}
	}
	g.Label = tasks.LabelPartialObservability
	g.Answer = ""
	return nil
}

// indefinite puts the right article before a kind, as a person would say
// it (the engine, like ALFWorld, writes "a" before every name).
func indefinite(kind string) string {
	if kind != "" && strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}

// plural spells the plural of a kind's name.
func plural(kind string) string {
	switch {
	case strings.HasSuffix(kind, "knife"):
		return strings.TrimSuffix(kind, "fe") + "ves"
	case strings.HasSuffix(kind, "o"), strings.HasSuffix(kind, "x"), strings.HasSuffix(kind, "s"),
		strings.HasSuffix(kind, "sh"), strings.HasSuffix(kind, "ch"):
		return kind + "es"
	}
	return kind + "s"
}
