package alfworld

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

// Perturbation is what [Spec.BuildWith] applies to a clear game. The
// perturbations registered in package perturb for the household track
// (perturb.Household) satisfy it; this package does not import perturb.
type Perturbation interface {
	// Name names the perturbation; it also seeds the stream ApplyGame
	// draws from, so that each perturbation of a spec has its own.
	Name() string
	// AppliesToGame reports whether the perturbation makes sense for a
	// game of the task type; the grid leaves out the cells where it does
	// not.
	AppliesToGame(taskType string) bool
	// ApplyGame perturbs g in place, drawing only from rng, and sets its
	// Label and Answer. It returns ErrRedraw when this game cannot take
	// the perturbation; the builder draws another game of the same spec.
	ApplyGame(rng *rand.Rand, g *Game) error
}

// The building blocks below are the household's ambiguities. Package
// perturb registers them, under the same names and labels as the
// tabletop's; each draws only from rng and returns ErrRedraw when the game
// cannot take it. A new perturbation may call them or work on a Game
// directly (its House, Instruction, Goal, Label and Answer are exported;
// [Game.Refer] says the instruction again).

// Absence leaves no object of the kind the instruction names; asked with
// the absence tag, the user names another kind to use, and the goal is
// about that kind.
func Absence(rng *rand.Rand, g *Game) error {
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
	use := Indefinite(alt.Name)
	if g.Goal.Count >= 2 {
		use = "two " + Plural(alt.Name)
	}
	g.Answer = "There is no " + g.named + " here. Use " + use + " instead."
	return nil
}

// MultiplicityApplies reports whether [Multiplicity] makes sense for a
// task type: not for pick_two_obj_and_place, where "the two mugs" among
// three would need the user to name two.
func MultiplicityApplies(taskType string) bool { return taskType != TypePickTwoObjAndPlace }

// Multiplicity makes the instruction say "the mug" where there are
// several; asked with the multiplicity tag, the user says which ("the red
// one", "the one that belongs to Sam", "mug 2"), and only that one counts.
func Multiplicity(rng *rand.Rand, g *Game) error {
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
	if err := g.Refer(FormDefinite); err != nil {
		return fmt.Errorf("household perturbation multiplicity: %w", err)
	}
	g.Label = tasks.LabelMultiplicity
	return nil
}

// Underspecified makes the instruction not say the kind ("put something
// cool in countertop."); asked with the underspecified tag, the user names
// it. It draws nothing from rng.
func Underspecified(_ *rand.Rand, g *Game) error {
	if err := g.Refer(FormVague); err != nil {
		return fmt.Errorf("household perturbation underspecified: %w", err)
	}
	g.Label = tasks.LabelUnderspecified
	if g.Goal.Count >= 2 {
		g.Answer = "I mean two " + Plural(g.Goal.Kind) + "."
	} else {
		g.Answer = "I mean " + Indefinite(g.Goal.Kind) + "."
	}
	return nil
}

// PartialObservability keeps the instruction clear but hides every object
// of the goal's kind in closed receptacles: ones it fits if there are any,
// else any that open, never one of the destination kind. Exploring finds
// it, and telling the user it is absent is wrong. Its Answer is empty and
// it is scored by success only.
func PartialObservability(rng *rand.Rand, g *Game) error {
	h := g.House
	k, _ := scenes.KindOf(g.Goal.Kind)
	var fitting, closed []int
	for r, rec := range h.Receptacles {
		if !rec.Openable || rec.Open || rec.Kind == g.Goal.Dest {
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

// Indefinite puts the right article before a kind, as a person would say
// it ("an apple"; the engine, like ALFWorld, writes "a" before every
// name).
func Indefinite(kind string) string {
	if kind != "" && strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}

// Plural spells the plural of a kind's name.
func Plural(kind string) string {
	switch {
	case strings.HasSuffix(kind, "knife"):
		return strings.TrimSuffix(kind, "fe") + "ves"
	case strings.HasSuffix(kind, "o"), strings.HasSuffix(kind, "x"), strings.HasSuffix(kind, "s"),
		strings.HasSuffix(kind, "sh"), strings.HasSuffix(kind, "ch"):
		return kind + "es"
	}
	return kind + "s"
}

// builtin is one of the built-in perturbations as [Spec.Build] knows it
// by name.
type builtin struct {
	name    string
	applies func(taskType string) bool // nil: every type
	apply   func(*rand.Rand, *Game) error
}

func (b builtin) Name() string { return b.name }
func (b builtin) AppliesToGame(taskType string) bool {
	return b.applies == nil || b.applies(taskType)
}
func (b builtin) ApplyGame(rng *rand.Rand, g *Game) error {
	if b.apply == nil {
		return nil
	}
	return b.apply(rng, g)
}

// builtins are the building blocks by name, in the order of package
// perturb's registry, for the name-based [Spec.Build], [Perturbations] and
// [Applies]; a test of package perturb checks that they agree with the
// registry.
var builtins = []builtin{
	{name: tasks.LabelNone},
	{name: tasks.LabelAbsence, apply: Absence},
	{name: tasks.LabelMultiplicity, applies: MultiplicityApplies, apply: Multiplicity},
	{name: tasks.LabelUnderspecified, apply: Underspecified},
	{name: tasks.LabelPartialObservability, apply: PartialObservability},
}

func lookupBuiltin(name string) (builtin, bool) {
	if name == "" {
		name = tasks.LabelNone
	}
	i := slices.IndexFunc(builtins, func(b builtin) bool { return b.name == name })
	if i < 0 {
		return builtin{}, false
	}
	return builtins[i], true
}

// Perturbations returns the names of the built-in household perturbations,
// the same names and labels as the tabletop's: none, absence,
// multiplicity, underspecified, partial_observability.
//
// Deprecated: the household grid takes its perturbations from package
// perturb's registry (perturb.ForHousehold), which also holds any
// registered outside this package; this list knows the built-ins only.
func Perturbations() []string {
	out := make([]string, len(builtins))
	for i, b := range builtins {
		out[i] = b.name
	}
	return out
}

// Applies reports whether a built-in perturbation makes sense for a task
// type ("" counts as none); an unknown name does not apply.
//
// Deprecated: use the registered perturbation's AppliesToGame.
func Applies(taskType, perturbation string) bool {
	b, ok := lookupBuiltin(perturbation)
	return ok && b.AppliesToGame(taskType)
}
