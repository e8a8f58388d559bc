package household

import (
	"context"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/internal/agenttest"
)

// The prefix cut is process_ob's (alfworld_trial.py, lines 41-44): a
// leading "You arrive at loc N. " goes, every other text stays.
func TestStripArrival(t *testing.T) {
	for _, tc := range []struct{ why, in, want string }{
		{"an arrival at an open receptacle", "You arrive at loc 12. On the countertop 1, you see a apple 1.", "On the countertop 1, you see a apple 1."},
		{"an arrival at a closed one", "You arrive at loc 3. The fridge 1 is closed.", "The fridge 1 is closed."},
		{"the step limit's note stays after the cut", "You arrive at loc 3. The fridge 1 is closed.\n(The step limit of 49 is reached; the trial is over.)", "The fridge 1 is closed.\n(The step limit of 49 is reached; the trial is over.)"},
		{"ALFWorld 0.4 names the receptacle: process_ob keeps it", "You arrive at countertop 1. On the countertop 1, you see nothing.", "You arrive at countertop 1. On the countertop 1, you see nothing."},
		{"only a leading arrival is cut", "OK. You arrive at loc 3. The fridge 1 is closed.", "OK. You arrive at loc 3. The fridge 1 is closed."},
		{"a failed command", "Nothing happens.", "Nothing happens."},
		{"no number: not an arrival", "You arrive at loc . The fridge 1 is closed.", "You arrive at loc . The fridge 1 is closed."},
	} {
		if got := stripArrival(tc.in); got != tc.want {
			t.Errorf("%s: stripArrival(%q) = %q, want %q", tc.why, tc.in, got, tc.want)
		}
	}
}

// keepingHouse is a fakeHouse run with the household track's
// --keep-arrival.
type keepingHouse struct{ *fakeHouse }

func (keepingHouse) KeepArrival() bool { return true }

// react's prompt, its context and the reflection's read the arrival
// without its "You arrive at loc N. " by default, and whole when the Env
// asks to keep it.
func TestReactArrivalCut(t *testing.T) {
	for _, tc := range []struct {
		why  string
		keep bool
		want string
	}{
		{"by default the prefix is cut, as the authors' loop cuts it", false, "> go to countertop 1\nOn the countertop 1, you see a apple 1.\n"},
		{"--keep-arrival passes the world's text through", true, "> go to countertop 1\nYou arrive at loc 3. On the countertop 1, you see a apple 1.\n"},
	} {
		var env agents.Env = newFakeHouse(1)
		if tc.keep {
			env = keepingHouse{env.(*fakeHouse)}
		}
		model := &houseModel{plans: acts(winning...)}
		agent, err := agenttest.Workflow(t, "react", model)
		if err != nil {
			t.Fatal(err)
		}
		if err := agent.Run(context.Background(), env); err != nil {
			t.Fatalf("%s: run: %v", tc.why, err)
		}
		if text := userText(model.reqs[1]); !strings.Contains(text, tc.want) {
			t.Errorf("%s: the second prompt lacks %q:\n%s", tc.why, tc.want, text)
		}
		b, err := agenttest.ContextOf(model.reqs[1])
		if err != nil {
			t.Fatal(err)
		}
		if got, want := b.Trajectory[0].Result, strings.SplitN(tc.want, "\n", 3)[1]; got != want {
			t.Errorf("%s: the context's observation %q, want %q", tc.why, got, want)
		}
	}
}
