package household

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/sim/textworld"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// A trial allows 49 actions, as the Reflexion authors' loop sends at most
// 49 (alfworld_trial.py, line 56, while cur_step < 49). Every act counts
// — thoughts and commands that fail too, as there — while listing the
// admissible commands and asking the user cost none: the 49th act ends
// the trial however many of those came between.
func TestHouseholdStepBudget(t *testing.T) {
	t.Parallel()
	if alfworld.StepLimit != 49 {
		t.Fatalf("StepLimit %d, want the authors' 49", alfworld.StepLimit)
	}
	// A multiplicity game, so that the right tag is answered and play goes on.
	g, err := HouseholdGame(alfworld.TypePickHeatThenPlace, "multiplicity", 0)
	if err != nil {
		t.Fatal(err)
	}
	env, err := newHouseholdEnv(g, textworld.Options{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	call := func(name string, args any) agents.Result {
		t.Helper()
		b, _ := json.Marshal(args)
		r, err := env.Call(ctx, agents.ToolCall{Name: name, Args: b})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	acts := []agents.ActArgs{{Command: "think: where is the egg?"}, {Command: "open nothing 9"}, {Command: "look"}}
	for i := range alfworld.StepLimit - 1 {
		if r := call(agents.ToolAct, acts[i%len(acts)]); r.Ended {
			t.Fatalf("act %d ended the trial: %q", i+1, r.Text)
		}
		// Free: neither of these is an action.
		call(agents.ToolAdmissible, struct{}{})
		call(agents.ToolAsk, agents.AskArgs{Tag: "multiplicity", Question: "Which egg?"})
	}
	if env.trialSteps != alfworld.StepLimit-1 {
		t.Fatalf("%d steps counted after %d acts and as many listings and questions", env.trialSteps, alfworld.StepLimit-1)
	}
	r := call(agents.ToolAct, agents.ActArgs{Command: "look"})
	if !r.Ended || !strings.Contains(r.Text, "The step limit of 49 is reached") {
		t.Fatalf("act 49: %q, ended %v; want the trial over", r.Text, r.Ended)
	}
}
