package alfworld_test

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

func TestEvalSplit(t *testing.T) {
	t.Parallel()
	specs := alfworld.EvalGames()
	if len(specs) != 134 {
		t.Fatalf("eval split has %d games, want 134", len(specs))
	}
	want := map[string]int{
		alfworld.TypePickAndPlace: 24, alfworld.TypePickCleanThenPlace: 31, alfworld.TypePickHeatThenPlace: 23,
		alfworld.TypePickCoolThenPlace: 21, alfworld.TypeLookAtObjInLight: 18, alfworld.TypePickTwoObjAndPlace: 17,
	}
	got := map[string]int{}
	ids := map[string]bool{}
	for _, s := range specs {
		got[s.Type]++
		if ids[s.ID] {
			t.Errorf("id %s twice", s.ID)
		}
		ids[s.ID] = true
		if s.Split != alfworld.SplitEval || !strings.HasPrefix(s.ID, "eval/"+s.Type+"/") {
			t.Errorf("spec %+v is not named as an eval game of its type", s)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("eval split counts %v, want valid_unseen's %v", got, want)
	}
	for typ, n := range want {
		if alfworld.EvalCount(typ) != n {
			t.Errorf("EvalCount(%s) = %d, want %d", typ, alfworld.EvalCount(typ), n)
		}
	}
	// A change of the seed hashing would change every game; pin one.
	if s := specs[0]; s.ID != "eval/pick_and_place/00" || s.Seed != pinnedSeed {
		t.Errorf("first eval spec is %s seed %d; ids and seeds must not change (was eval/pick_and_place/00 seed %d)", s.ID, s.Seed, uint64(pinnedSeed))
	}
	if !reflect.DeepEqual(specs, alfworld.EvalGames()) {
		t.Errorf("EvalGames differs between calls")
	}
}

const pinnedSeed = 6073532706455731021

func TestTrainSplitIsDisjoint(t *testing.T) {
	t.Parallel()
	eval := map[uint64]bool{}
	for _, s := range alfworld.EvalGames() {
		eval[s.Seed] = true
	}
	train := alfworld.TrainGames(600)
	if len(train) != 600 {
		t.Fatalf("TrainGames(600) gave %d", len(train))
	}
	perType := map[string]int{}
	for _, s := range train {
		if eval[s.Seed] {
			t.Errorf("train game %s shares its seed with an eval game", s.ID)
		}
		perType[s.Type]++
	}
	for _, typ := range alfworld.Types() {
		if perType[typ] != 100 {
			t.Errorf("train split has %d %s games of 600, want 100 (types in turn)", perType[typ], typ)
		}
	}
	if !reflect.DeepEqual(alfworld.TrainGames(10), train[:10]) {
		t.Errorf("TrainGames(10) is not the start of TrainGames(600)")
	}
	if len(alfworld.TrainGames(-1)) != 0 {
		t.Errorf("TrainGames(-1) is not empty")
	}
	for _, s := range train[:60] {
		build(t, s, "")
	}
}

// Every clear eval game is well formed: its house holds together, its
// instruction names the goal's kind and destination in ALFWorld's words,
// its goal does not hold at the start, and there are enough objects.
func TestEvalGamesAreWellFormed(t *testing.T) {
	t.Parallel()
	for _, s := range alfworld.EvalGames() {
		g := build(t, s, "")
		if err := g.House.Validate(); err != nil {
			t.Errorf("%s: %v", s.ID, err)
		}
		if g.ID != s.ID || g.Type != s.Type || g.Goal.Type != s.Type || g.StepLimit != 49 || g.Label != tasks.LabelNone || g.Answer != "" {
			t.Errorf("%s: header %+v", s.ID, g)
		}
		if ok, _ := g.Goal.Holds(g.House); ok {
			t.Errorf("%s: the goal holds before any step", s.ID)
		}
		if !strings.Contains(g.Instruction, g.Goal.Kind) || !strings.HasSuffix(g.Instruction, ".") {
			t.Errorf("%s: instruction %q does not name %s", s.ID, g.Instruction, g.Goal.Kind)
		}
		if len(g.House.ItemsOf(g.Goal.Kind)) < g.Goal.Count {
			t.Errorf("%s: %d %s for a goal of %d", s.ID, len(g.House.ItemsOf(g.Goal.Kind)), g.Goal.Kind, g.Goal.Count)
		}
		switch g.Type {
		case alfworld.TypeLookAtObjInLight:
			if g.Goal.Dest != "" || len(g.House.ItemsOf(g.Goal.Lamp)) == 0 || !strings.Contains(g.Instruction, "the "+g.Goal.Lamp+".") {
				t.Errorf("%s: look-at game without its lamp: %q %+v", s.ID, g.Instruction, g.Goal)
			}
		default:
			if !strings.HasSuffix(g.Instruction, " "+g.Goal.Dest+".") || len(g.House.ReceptaclesOf(g.Goal.Dest)) == 0 {
				t.Errorf("%s: instruction %q or house lacks destination %s", s.ID, g.Instruction, g.Goal.Dest)
			}
			for _, i := range g.House.ItemsOf(g.Goal.Kind) {
				if g.House.Receptacles[g.House.Items[i].In].Kind == g.Goal.Dest {
					t.Errorf("%s: %s starts in a %s already", s.ID, g.House.Items[i].Name, g.Goal.Dest)
				}
			}
		}
		k, _ := scenes.KindOf(g.Goal.Kind)
		if g.Goal.State == alfworld.StateHot && !k.Heatable || g.Goal.State == alfworld.StateCold && !k.Coolable || g.Goal.State == alfworld.StateClean && !k.Cleanable {
			t.Errorf("%s: %s cannot be made %s", s.ID, k.Name, g.Goal.State)
		}
	}
}

func TestGenerateIsFixedBySeed(t *testing.T) {
	t.Parallel()
	for _, typ := range alfworld.Types() {
		a, err := alfworld.Generate(typ, 7)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := alfworld.Generate(typ, 7)
		c, _ := alfworld.Generate(typ, 8)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: seed 7 gave two games", typ)
		}
		if reflect.DeepEqual(a.House, c.House) {
			t.Errorf("%s: seeds 7 and 8 gave the same house; the seed is not used", typ)
		}
	}
	if _, err := alfworld.Generate("slice_and_place", 1); err == nil || !strings.Contains(err.Error(), "slice_and_place") {
		t.Errorf("unknown type: error %v", err)
	}
}

func TestGoalHolds(t *testing.T) {
	t.Parallel()
	g := build(t, alfworld.EvalGames()[0], "")
	h := g.House.Clone()
	d := h.ReceptaclesOf(g.Goal.Dest)[0]
	items := h.ItemsOf(g.Goal.Kind)
	h.Items[items[0]].In = d
	if ok, why := g.Goal.Holds(h); !ok {
		t.Errorf("a %s in %s: goal fails: %s", g.Goal.Kind, h.Receptacles[d].Name, why)
	}
	hot := g.Goal
	hot.State = alfworld.StateHot
	if ok, why := hot.Holds(h); ok || !strings.Contains(why, "hot") {
		t.Errorf("a cold-state item meets a hot goal (%v, %q)", ok, why)
	}
	one := g.Goal
	one.Item = "no such 1"
	if ok, _ := one.Holds(h); ok {
		t.Errorf("the goal of one named item holds with another in place")
	}

	two := alfworld.Goal{Type: alfworld.TypePickTwoObjAndPlace, Kind: "apple", Count: 2, Dest: "countertop"}
	house := &scenes.House{
		Receptacles: []scenes.Receptacle{{Name: "countertop 2", Kind: "countertop"}, {Name: "countertop 1", Kind: "countertop"}},
		Items:       []scenes.Item{{Name: "apple 1", Kind: "apple", In: 0}, {Name: "apple 2", Kind: "apple", In: 1}},
		At:          scenes.Nowhere, Held: scenes.Nowhere,
	}
	if ok, _ := two.Holds(house); ok {
		t.Errorf("two apples on two countertops meet a goal of two on one")
	}
	house.Items[1].In = 0
	if ok, why := two.Holds(house); !ok {
		t.Errorf("two apples on one countertop: %s", why)
	}
}

// Each perturbation leaves the game in the state its name promises, with
// a label and an answer a user could give.
func TestPerturbations(t *testing.T) {
	t.Parallel()
	redrawn := 0
	defer func() { t.Logf("%d perturbed eval games are redraws of their spec", redrawn) }()
	for _, s := range alfworld.EvalGames() {
		clear := build(t, s, "")
		for _, p := range alfworld.Perturbations()[1:] {
			if !alfworld.Applies(s.Type, p) {
				if _, err := s.Build(p); err == nil {
					t.Errorf("%s: %s built though it does not apply", s.ID, p)
				}
				continue
			}
			g := build(t, s, p)
			h := g.House
			if g.Label != p {
				t.Errorf("%s/%s: label %q", s.ID, p, g.Label)
			}
			if err := h.Validate(); err != nil {
				t.Errorf("%s/%s: %v", s.ID, p, err)
			}
			if ok, _ := g.Goal.Holds(h); ok {
				t.Errorf("%s/%s: goal holds at the start", s.ID, p)
			}
			switch p {
			case tasks.LabelAbsence:
				if g.Seed != clear.Seed {
					redrawn++
					break // another draw; its named kind is not clear's
				}
				named := clear.Goal.Kind
				if len(h.ItemsOf(named)) != 0 || g.Goal.Kind == named {
					t.Errorf("%s: %s still present or still the goal", s.ID, named)
				}
				if g.Instruction != clear.Instruction || !strings.Contains(g.Answer, g.Goal.Kind) || !strings.HasPrefix(g.Answer, "There is no "+named+" here.") {
					t.Errorf("%s: instruction %q / answer %q do not say absent %s and %s", s.ID, g.Instruction, g.Answer, named, g.Goal.Kind)
				}
			case tasks.LabelMultiplicity:
				same := h.ItemsOf(g.Goal.Kind)
				if len(same) < 2 || g.Goal.Item == "" || !strings.Contains(g.Instruction, "that ") {
					t.Errorf("%s: %d %s, meant %q, instruction %q", s.ID, len(same), g.Goal.Kind, g.Goal.Item, g.Instruction)
				}
				if n := answerPicks(h, same, g.Answer); n != 1 {
					t.Errorf("%s: answer %q picks out %d of the %s", s.ID, g.Answer, n, g.Goal.Kind)
				}
			case tasks.LabelUnderspecified:
				if strings.Contains(g.Instruction, g.Goal.Kind) || !strings.Contains(g.Instruction, "something") && !strings.Contains(g.Instruction, "things") {
					t.Errorf("%s: vague instruction %q", s.ID, g.Instruction)
				}
				stem := g.Goal.Kind[:len(g.Goal.Kind)-2] // "knife" is "knives" in two
				if !strings.Contains(g.Answer, stem) {
					t.Errorf("%s: answer %q does not name %s", s.ID, g.Answer, g.Goal.Kind)
				}
			case tasks.LabelPartialObservability:
				if g.Seed != clear.Seed {
					redrawn++
				}
				if g.Answer != "" || g.Instruction != clear.Instruction && g.Seed == clear.Seed {
					t.Errorf("%s: partial observability changed the words: %q, answer %q", s.ID, g.Instruction, g.Answer)
				}
				for _, i := range h.ItemsOf(g.Goal.Kind) {
					if !h.Hidden(i) {
						t.Errorf("%s: %s is in plain view", s.ID, h.Items[i].Name)
					}
				}
			}
		}
	}
}

// answerPicks counts the items the user's answer fits: by name, colour or
// owner.
func answerPicks(h *scenes.House, items []int, answer string) int {
	n := 0
	for _, i := range items {
		it := h.Items[i]
		switch {
		case answer == "I mean the "+it.Name+".",
			it.Color != "" && answer == "I mean the "+it.Color+" one.",
			it.Owner != "" && answer == "I mean the one that belongs to "+it.Owner+".":
			n++
		}
	}
	return n
}

func TestPerturbErrors(t *testing.T) {
	t.Parallel()
	two := alfworld.EvalGames()[133]
	if _, err := two.Build(tasks.LabelMultiplicity); err == nil || !strings.Contains(err.Error(), "does not apply") {
		t.Errorf("multiplicity on pick-two: %v", err)
	}
	if _, err := two.Build("bogus"); err == nil || !strings.Contains(err.Error(), "unknown perturbation") {
		t.Errorf("bogus perturbation: %v", err)
	}
	g := build(t, two, "")
	before := g.Instruction
	if err := g.Refer(alfworld.FormDefinite); err == nil || g.Instruction != before {
		t.Errorf("pick-two has no definite phrasing, but Refer gave %v and %q", err, g.Instruction)
	}
	if err := alfworld.Multiplicity(rand.New(rand.NewPCG(1, 2)), g); err == nil {
		t.Errorf("multiplicity on a pick-two game succeeded")
	}
}

func TestExpertErrors(t *testing.T) {
	t.Parallel()
	g := build(t, alfworld.EvalGames()[0], "")
	goal := g.Goal
	goal.Kind = "unicorn"
	if _, err := alfworld.Expert(g.House, goal, ""); err == nil || !strings.Contains(err.Error(), "unicorn") {
		t.Errorf("a goal about a kind not in the house: %v", err)
	}
}

// EvalGame gives the spec EvalGames lists for every game of the split, and
// nothing past either end of a type's games or for a type of none.
func TestEvalGame(t *testing.T) {
	t.Parallel()
	for _, want := range alfworld.EvalGames() {
		if got, ok := alfworld.EvalGame(want.Type, want.Index); !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("EvalGame(%q, %d) = %+v, %v; EvalGames lists %+v", want.Type, want.Index, got, ok, want)
		}
	}
	for _, tc := range []struct {
		why      string
		taskType string
		index    int
	}{
		{"before the first game", alfworld.Types()[0], -1},
		{"one past the last game", alfworld.Types()[0], alfworld.EvalCount(alfworld.Types()[0])},
		{"a type the split has no games of", "pick_up_the_phone", 0},
	} {
		if got, ok := alfworld.EvalGame(tc.taskType, tc.index); ok {
			t.Errorf("%s: EvalGame(%q, %d) = %+v, want none", tc.why, tc.taskType, tc.index, got)
		}
	}
}
