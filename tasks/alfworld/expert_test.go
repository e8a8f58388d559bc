package alfworld_test

import (
	"strings"
	"testing"

	"github.com/ambibench/ambibench/sim/textworld"
	"github.com/ambibench/ambibench/tasks"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// The planner writes commands in a grammar this package names by value,
// since it may not import the engine.
func TestGrammarNameAgreesWithEngine(t *testing.T) {
	t.Parallel()
	for _, grammar := range []string{textworld.GrammarV03, textworld.GrammarV04} {
		g := build(t, alfworld.EvalGames()[0], "")
		plan, err := g.Expert(grammar)
		if err != nil {
			t.Fatal(err)
		}
		for _, cmd := range plan {
			if strings.HasPrefix(cmd, "put ") || strings.HasPrefix(cmd, "move ") {
				want := textworld.PutCommand(grammar, "X", "Y")[:4]
				if !strings.HasPrefix(cmd, want) {
					t.Errorf("grammar %s: expert wrote %q; the engine's form starts %q", grammar, cmd, want)
				}
			}
		}
	}
}

// replay plays a plan through a fresh engine and returns the observations.
func replay(t *testing.T, g *alfworld.Game, plan []string, opts textworld.Options) []string {
	t.Helper()
	e, err := textworld.New(g.House, opts)
	if err != nil {
		t.Fatalf("%s: %v", g.ID, err)
	}
	obs := []string{e.Reset()}
	for _, cmd := range plan {
		adm := e.Admissible()
		if !contains(adm, cmd) {
			t.Errorf("%s: expert command %q is not admissible; admissible: %v", g.ID, cmd, adm)
		}
		o := e.Step(cmd)
		if o == textworld.NothingHappens {
			t.Errorf("%s: expert command %q: nothing happens", g.ID, cmd)
		}
		obs = append(obs, o)
	}
	if ok, why := g.Goal.Holds(e.State()); !ok {
		t.Errorf("%s (%s): after the expert's %d commands the goal fails: %s\nplan: %q", g.ID, g.Instruction, len(plan), why, plan)
	}
	if e.Steps() != len(plan) {
		t.Errorf("%s: engine counted %d steps for %d commands", g.ID, e.Steps(), len(plan))
	}
	return obs
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func build(t testing.TB, s alfworld.Spec, perturbation string) *alfworld.Game {
	t.Helper()
	g, err := s.Build(perturbation)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The expert's plan, replayed through the engine, reaches the goal on
// every evaluation game under every perturbation and in both grammars,
// within the step limit, each command admissible when it is given.
func TestExpertSolvesEveryEvalGame(t *testing.T) {
	t.Parallel()
	for _, p := range alfworld.Perturbations() {
		for _, grammar := range []string{textworld.GrammarV03, textworld.GrammarV04} {
			for _, s := range alfworld.EvalGames() {
				if !alfworld.Applies(s.Type, p) {
					continue
				}
				g := build(t, s, p)
				plan, err := g.Expert(grammar)
				if err != nil {
					t.Fatalf("%s/%s: %v", s.ID, p, err)
				}
				if len(plan) == 0 || len(plan) > g.StepLimit {
					t.Errorf("%s/%s: plan of %d commands; want 1..%d", s.ID, p, len(plan), g.StepLimit)
				}
				replay(t, g, plan, textworld.Options{Grammar: grammar})
			}
		}
	}
}

// keepRelevant leaves out of the breadth-first search the commands that
// cannot help the goal: taking or going to what the goal does not
// mention. See Expert's comment for why that loses no shortest plan.
func keepRelevant(g *alfworld.Game) func(string) bool {
	h := g.House
	relevant := map[string]bool{}
	for _, it := range h.Items {
		if g.Goal.Matches(&it) || it.Kind == g.Goal.Lamp && g.Goal.Lamp != "" {
			relevant[h.Receptacles[it.In].Name] = true
		}
	}
	for _, r := range h.Receptacles {
		switch r.Kind {
		case g.Goal.Dest, "microwave", "fridge", "sinkbasin":
			if r.Kind == g.Goal.Dest || g.Goal.State != "" {
				relevant[r.Name] = true
			}
		}
	}
	return func(cmd string) bool {
		if r, ok := strings.CutPrefix(cmd, "go to "); ok {
			return relevant[r]
		}
		if rest, ok := strings.CutPrefix(cmd, "take "); ok {
			obj, _, _ := strings.Cut(rest, " from ")
			i, _ := h.ItemIndex(obj)
			return g.Goal.Matches(&h.Items[i])
		}
		return !strings.HasPrefix(cmd, "close ")
	}
}

// On a sample of every type and perturbation, the expert's plan is as
// short as breadth-first search over the engine finds.
func TestExpertIsShortest(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("breadth-first search takes a few seconds")
	}
	n := 0
	for _, p := range alfworld.Perturbations() {
		for i, s := range alfworld.EvalGames() {
			if !alfworld.Applies(s.Type, p) || s.Index%6 != i%3 {
				continue
			}
			g := build(t, s, p)
			plan, err := g.Expert("")
			if err != nil {
				t.Fatal(err)
			}
			e, err := textworld.New(g.House, textworld.Options{})
			if err != nil {
				t.Fatal(err)
			}
			e.Reset()
			best, ok := textworld.ShortestPlan(e, g.Goal.Satisfied, keepRelevant(g), len(plan))
			if !ok {
				t.Errorf("%s/%s: search found no plan of at most %d commands", s.ID, p, len(plan))
				continue
			}
			if len(best) != len(plan) {
				t.Errorf("%s/%s: expert plan has %d commands, search found %d:\nexpert %q\nsearch %q", s.ID, p, len(plan), len(best), plan, best)
			}
			n++
		}
	}
	if n < 60 {
		t.Errorf("compared only %d games; the sample is too thin", n)
	}
	t.Logf("expert length equals search length on %d games", n)
}

// The expert starts from whatever state it is given: holding something
// else, or already half done.
func TestExpertFromMidGame(t *testing.T) {
	t.Parallel()
	for _, s := range alfworld.EvalGames()[:40] {
		g := build(t, s, tasks.LabelNone)
		e, err := textworld.New(g.House, textworld.Options{})
		if err != nil {
			t.Fatal(err)
		}
		e.Reset()
		// Wander: take the first object one can, somewhere.
		for _, cmd := range e.Admissible() {
			if strings.HasPrefix(cmd, "go to ") {
				e.Step(cmd)
				for _, c := range e.Admissible() {
					if strings.HasPrefix(c, "take ") || strings.HasPrefix(c, "open ") {
						e.Step(c)
						break
					}
				}
				break
			}
		}
		plan, err := alfworld.Expert(e.State(), g.Goal, "")
		if err != nil {
			t.Fatalf("%s: %v", s.ID, err)
		}
		for _, cmd := range plan {
			if o := e.Step(cmd); o == textworld.NothingHappens {
				t.Errorf("%s: mid-game expert command %q: nothing happens", s.ID, cmd)
			}
		}
		if ok, why := g.Goal.Holds(e.State()); !ok {
			t.Errorf("%s: mid-game expert plan %q fails: %s", s.ID, plan, why)
		}
	}
}
