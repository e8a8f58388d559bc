package reference_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	_ "github.com/ambibench/ambibench/agents/reference"
	"github.com/ambibench/ambibench/sim/textworld"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// houseEnv is a household Env over the engine: one trial, a user who
// answers the game's label with its answer, the truth for the oracle.
type houseEnv struct {
	g       *alfworld.Game
	e       *textworld.Game
	opening string
	truth   *agents.Truth
	ended   bool
	sent    []string // act commands
	asked   []string // tags
	listed  [][]string
}

func newHouseEnv(t *testing.T, spec alfworld.Spec, pert string) *houseEnv {
	t.Helper()
	g, err := spec.Build(pert)
	if err != nil {
		t.Fatal(err)
	}
	e, err := textworld.New(g.House, textworld.Options{})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := g.Expert("")
	if err != nil {
		t.Fatal(err)
	}
	truth := &agents.Truth{Label: g.Label}
	if g.Answer != "" {
		truth.Plan = append(truth.Plan, agents.PlanStep{Action: agents.ToolAsk, Tag: g.Label})
	}
	for _, c := range plan {
		truth.Plan = append(truth.Plan, agents.PlanStep{Action: agents.ToolAct, Command: c})
	}
	return &houseEnv{g: g, e: e, opening: g.Intro(e.Reset()), truth: truth}
}

func (h *houseEnv) Instruction() string  { return h.g.Instruction }
func (h *houseEnv) Robot() string        { return "agent" }
func (h *houseEnv) Partner() string      { return "" }
func (h *houseEnv) Tools() []agents.Tool { return agents.HouseholdTools() }
func (h *houseEnv) Track() string        { return agents.TrackHousehold }
func (h *houseEnv) Opening() string      { return h.opening }
func (h *houseEnv) Truth() *agents.Truth { return h.truth }
func (h *houseEnv) won() bool            { return h.g.Goal.Satisfied(h.e.State()) }
func (h *houseEnv) Call(_ context.Context, c agents.ToolCall) (agents.Result, error) {
	if h.ended {
		return agents.Result{Text: "The trial is over.", Ended: true}, nil
	}
	args, err := agents.DecodeArgs(c)
	if err != nil {
		return agents.Result{Error: err.Error()}, nil
	}
	switch a := args.(type) {
	case *agents.ActArgs:
		h.sent = append(h.sent, a.Command)
		obs := h.e.Step(a.Command)
		h.ended = h.won() || h.e.Steps() >= h.g.StepLimit
		return agents.Result{Text: obs, Ended: h.ended}, nil
	case *agents.AskArgs:
		h.asked = append(h.asked, a.Tag)
		if a.Tag != h.g.Label {
			h.ended = true
			return agents.Result{Text: "That question does not fit.", Ended: true}, nil
		}
		return agents.Result{Text: h.g.Answer}, nil
	case *agents.NoArgs:
		l := h.e.Admissible()
		h.listed = append(h.listed, l)
		return agents.Result{Text: strings.Join(l, "\n"), Items: l}, nil
	}
	return agents.Result{Error: fmt.Sprintf("tool %s is not on this track", c.Name)}, nil
}

func runAgent(t *testing.T, name string, seed uint64, env agents.Env) error {
	t.Helper()
	info, ok := agents.Lookup(name)
	if !ok {
		t.Fatalf("no agent %q", name)
	}
	a, err := info.New(agents.Config{Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return a.Run(context.Background(), env)
}

func TestReferenceAgentsPlayHousehold(t *testing.T) {
	specs := alfworld.EvalGames()
	for _, tc := range []struct {
		why   string
		agent string
		spec  alfworld.Spec
		pert  string
		asks  []string
	}{
		{"the oracle follows the expert's plan", "oracle", specs[55], "none", nil},
		{"the oracle asks first when the game is ambiguous", "oracle", specs[55], "multiplicity", []string{"multiplicity"}},
		{"rules plays from the text alone", "rules", specs[10], "none", nil},
		{"rules asks which one when the task says the X and there are several", "rules", specs[55], "multiplicity", []string{"multiplicity"}},
		{"rules opens closed places before calling anything absent", "rules", specs[100], "partial_observability", nil},
		{"rules asks about a vague task", "rules", specs[120], "underspecified", []string{"underspecified"}},
	} {
		env := newHouseEnv(t, tc.spec, tc.pert)
		if err := runAgent(t, tc.agent, 1, env); err != nil {
			t.Errorf("%s: %v", tc.why, err)
		}
		if !env.won() || !slices.Equal(env.asked, tc.asks) {
			t.Errorf("%s: %s on %s/%s: won %v, asked %v (want %v)", tc.why, tc.agent, env.g.ID, tc.pert, env.won(), env.asked, tc.asks)
		}
		if tc.agent == "oracle" && len(env.sent) != len(env.truth.Plan)-len(tc.asks) {
			t.Errorf("%s: %d commands for a plan of %d", tc.why, len(env.sent), len(env.truth.Plan)-len(tc.asks))
		}
	}
}

// random sends only commands that were admissible when it chose them,
// until the step limit ends the trial; its seed fixes them.
func TestRandomPlaysHouseholdBySeed(t *testing.T) {
	play := func(seed uint64) *houseEnv {
		env := newHouseEnv(t, alfworld.EvalGames()[0], "none")
		if err := runAgent(t, "random", seed, env); err != nil {
			t.Fatal(err)
		}
		return env
	}
	a, b, c := play(7), play(7), play(8)
	if !a.ended || len(a.sent) != a.g.StepLimit && !a.won() {
		t.Errorf("random stopped after %d commands without the trial ending", len(a.sent))
	}
	for i, cmd := range a.sent {
		if !slices.Contains(a.listed[i], cmd) {
			t.Errorf("command %d %q was not admissible", i, cmd)
		}
	}
	if !slices.Equal(a.sent, b.sent) || slices.Equal(a.sent, c.sent) {
		t.Errorf("the same seed gave different commands, or another seed the same ones")
	}
}
