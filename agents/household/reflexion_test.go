package household

import (
	"context"
	"fmt"
	"github.com/ambibench/ambibench/agents/internal/agenttest"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
)

// A trial that sends the same command twice in a row is stopped there;
// the model reflects on it, the next trial starts with the reflection in
// its prompt and block, and a win ends the episode with no reflection
// after it.
func TestReflexionRepeatThenWin(t *testing.T) {
	env := newFakeHouse(5)
	note := "I went to the fridge 1 twice; the apple is on the countertop 1, so I start there."
	model := &houseModel{
		plans:    append(acts("go to fridge 1", "go to fridge 1"), acts(winning...)...),
		reflects: []string{"  " + note + "\n"},
	}
	agent, err := agenttest.Workflow(t, "reflexion", model)
	if err != nil {
		t.Fatal(err)
	}
	if err := agent.Run(context.Background(), env); err != nil {
		t.Fatalf("run: %v", err)
	}
	if !slices.Equal(env.log[0], []string{"go to fridge 1", "go to fridge 1"}) || env.newTrials != 1 || !env.won {
		t.Fatalf("trials %q, %d new trials, won %v; want the repeat stopped at once, one new trial, and a win", env.log, env.newTrials, env.won)
	}
	wantRoles := []string{llm.CallPlan, llm.CallPlan, llm.CallReflect, llm.CallPlan, llm.CallPlan, llm.CallPlan, llm.CallPlan, llm.CallPlan}
	if !slices.Equal(model.roles, wantRoles) {
		t.Fatalf("calls %v, want %v", model.roles, wantRoles)
	}
	reflectReq := userText(model.reqs[2])
	// The observations come without "You arrive at loc N. " (arrival.go).
	for _, want := range []string{"> go to fridge 1\nThe fridge 1 is closed.\n> go to fridge 1\n",
		"> go to fridge 1\nThe fridge 1 is closed.\nThe attempt failed.\n", "trial 1"} {
		if !strings.Contains(reflectReq, want) {
			t.Errorf("the reflection prompt lacks %q:\n%s", want, reflectReq)
		}
	}
	rb, err := agenttest.ContextOf(model.reqs[2])
	if err != nil {
		t.Fatal(err)
	}
	if rb.Format != llm.FormatText || len(rb.Trajectory) != 2 || len(rb.Reflections) != 0 || len(model.reqs[2].Tools) != 0 {
		t.Errorf("reflection block %+v with %d tools; want text, the failed trajectory, no past reflections, no tools", rb, len(model.reqs[2].Tools))
	}
	next := model.reqs[3]
	if text := userText(next); !strings.Contains(text, "Attempt 1: "+note+"\n") || !strings.Contains(text, "(trial 2)") {
		t.Errorf("trial 2's first prompt lacks the reflection or the new opening:\n%s", text)
	}
	b, err := agenttest.ContextOf(next)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(b.Reflections, []string{note}) || len(b.Trajectory) != 0 || !strings.Contains(b.Opening, "(trial 2)") || b.Trial != 2 || rb.Trial != 0 {
		// The reflection's prompt does not say which attempt it was, so
		// its context does not either.
		t.Errorf("trial 2's context: reflections %q, %d steps, opening %q, trial %d (reflection's %d, want 0)", b.Reflections, len(b.Trajectory), b.Opening, b.Trial, rb.Trial)
	}
	if text := userText(next); !strings.Contains(text, "This is attempt 2.") {
		t.Errorf("trial 2's prompt does not say which attempt it is, though its context does:\n%s", text)
	}
	got := agent.(agents.Reflective).Reflections()
	want := []agents.ReflectionRecord{{Trial: 1, Text: note, Tokens: 100 + len(note) + 3, PlanChanged: true}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("reflections %+v, want %+v", got, want)
	}
}

// Every trial fails on the step limit: reflexion plays its own limit of
// 10 trials, the count of the Reflexion authors' runs (run_reflexion.sh,
// line 2, --num_trials 10), though the Env would allow 12; it reflects
// after each but the last, and each prompt carries only the latest 3
// reflections (alfworld_trial.py, lines 47-50). A trial that repeats the
// plan of the one before marks the reflection between them as changing
// nothing.
func TestReflexionMemoryAndTrials(t *testing.T) {
	if reflexionTrials != 10 {
		t.Fatalf("reflexion plays %d trials, want the authors' 10", reflexionTrials)
	}
	env := newFakeHouse(reflexionTrials + 2)
	env.stepLimit = 3
	plans := [][]string{
		{"go to countertop 1", "look", "inventory"},
		{"go to countertop 1", "look", "inventory"}, // the plan of trial 1 again
	}
	for i := 3; i <= reflexionTrials; i++ {
		plans = append(plans, []string{"go to fridge 1", "look", fmt.Sprintf("examine fridge %d", i)})
	}
	model := &houseModel{}
	for _, p := range plans {
		model.plans = append(model.plans, acts(p...)...)
	}
	for i := range reflexionTrials - 1 {
		model.reflects = append(model.reflects, fmt.Sprintf("note %d", i+1))
	}
	agent, err := agenttest.Workflow(t, "reflexion", model)
	if err != nil {
		t.Fatal(err)
	}
	if err := agent.Run(context.Background(), env); err != nil {
		t.Fatalf("run: %v", err)
	}
	if env.trial != reflexionTrials || env.newTrials != reflexionTrials-1 || len(model.plans) != 0 || len(model.reflects) != 0 {
		t.Fatalf("trial %d after %d new trials, %d plans and %d reflections left; want trial %d and the scripts used up",
			env.trial, env.newTrials, len(model.plans), len(model.reflects), reflexionTrials)
	}
	for i, p := range plans {
		if !slices.Equal(env.log[i], p) {
			t.Errorf("trial %d sent %q, want %q", i+1, env.log[i], p)
		}
	}
	got := agent.(agents.Reflective).Reflections()
	if len(got) != reflexionTrials-1 {
		t.Fatalf("%d reflections, want %d", len(got), reflexionTrials-1)
	}
	for i, r := range got {
		text := fmt.Sprintf("note %d", i+1)
		want := agents.ReflectionRecord{Trial: i + 1, Text: text, Tokens: 100 + len(text), PlanChanged: i != 0}
		if !reflect.DeepEqual(r, want) {
			t.Errorf("reflection %d: %+v, want %+v", i, r, want)
		}
	}
	// The first prompt of each trial, and the block's reflections.
	var firsts []llm.Request
	for i, role := range model.roles {
		if role == llm.CallPlan && (i == 0 || model.roles[i-1] == llm.CallReflect) {
			firsts = append(firsts, model.reqs[i])
		}
	}
	if len(firsts) != reflexionTrials {
		t.Fatalf("%d trials started, want %d", len(firsts), reflexionTrials)
	}
	last := firsts[reflexionTrials-1]
	b, err := agenttest.ContextOf(last)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(b.Reflections, []string{"note 7", "note 8", "note 9"}) {
		t.Errorf("trial 10's block carries %q, want the last three", b.Reflections)
	}
	text := userText(last)
	if strings.Contains(text, "note 6") || !strings.Contains(text, "Attempt 7: note 7\nAttempt 8: note 8\nAttempt 9: note 9\n") {
		t.Errorf("trial 10's prompt should hold notes 7 to 9, in order:\n%s", text)
	}
}

// The repeat rule and the plan comparison.
func TestRepeatedAndPlanChanged(t *testing.T) {
	step := func(tool, cmd string) householdStep { return householdStep{Tool: tool, Command: cmd} }
	for _, tc := range []struct {
		why   string
		steps []householdStep
		want  bool
	}{
		{"one step cannot repeat", []householdStep{step(agents.ToolAct, "look")}, false},
		{"the same command twice", []householdStep{step(agents.ToolAct, "go to fridge 1"), step(agents.ToolAct, "go to fridge 1")}, true},
		{"the world ignores case, spaces and a full stop", []householdStep{step(agents.ToolAct, "Go to  fridge 1."), step(agents.ToolAct, "go to fridge 1")}, true},
		{"the same thought twice is a loop too", []householdStep{step(agents.ToolAct, "think: hm"), step(agents.ToolAct, "think: hm")}, true},
		{"listing twice learns nothing", []householdStep{step(agents.ToolAdmissible, ""), step(agents.ToolAdmissible, "")}, true},
		{"a cycle of two is not caught", []householdStep{step(agents.ToolAct, "go to a 1"), step(agents.ToolAct, "go to b 1"), step(agents.ToolAct, "go to a 1")}, false},
		{"only the last two count", []householdStep{step(agents.ToolAct, "look"), step(agents.ToolAct, "look"), step(agents.ToolAct, "inventory")}, false},
		{"asks differ by question", []householdStep{{Tool: agents.ToolAsk, Command: "absence", Question: "a?"}, {Tool: agents.ToolAsk, Command: "absence", Question: "b?"}}, false},
	} {
		if got := repeated(tc.steps); got != tc.want {
			t.Errorf("%s: repeated %v, want %v", tc.why, got, tc.want)
		}
	}
	a := []householdStep{step(agents.ToolAct, "think: go"), step(agents.ToolAct, "go to fridge 1"), step(agents.ToolAdmissible, "")}
	for _, tc := range []struct {
		why   string
		other []householdStep
		want  bool
	}{
		{"thoughts and listings are not the plan", []householdStep{step(agents.ToolAct, "Go to fridge 1."), step(agents.ToolAct, "think: another thought")}, false},
		{"another command", []householdStep{step(agents.ToolAct, "go to fridge 2")}, true},
		{"a question added", []householdStep{{Tool: agents.ToolAsk, Command: "absence"}, step(agents.ToolAct, "go to fridge 1")}, true},
		{"an empty trial", nil, true},
	} {
		if got := planChanged(a, tc.other); got != tc.want {
			t.Errorf("%s: planChanged %v, want %v", tc.why, got, tc.want)
		}
	}
}
