package household

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/ambibench/ambibench/agents/internal/agenttest"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
)

// fakeHouse is a household Env over a tiny scripted world: fixed answers
// to known commands, "Nothing happens." to the rest, a goal reached by
// one command, and a step limit per trial. It keeps the commands of each
// trial, and refuses a new trial after a win, after a wrong question, or
// once the trials are used up, as the harness does.
type fakeHouse struct {
	answers   map[string]string
	win       string // the command that reaches the goal
	stepLimit int
	maxTrials int
	tag       string // the question tag that gets an answer; any other ends the episode

	trial     int
	steps     int
	won, over bool
	log       [][]string // commands sent, per trial
	newTrials int
}

func newFakeHouse(maxTrials int) *fakeHouse {
	return &fakeHouse{
		answers: map[string]string{
			"go to countertop 1":             "You arrive at loc 3. On the countertop 1, you see a apple 1.",
			"take apple 1 from countertop 1": "You pick up the apple 1 from the countertop 1.",
			"go to fridge 1":                 "You arrive at loc 5. The fridge 1 is closed.",
			"open fridge 1":                  "You open the fridge 1. The fridge 1 is open. In it, you see nothing.",
		},
		win:       "put apple 1 in/on fridge 1",
		stepLimit: 6,
		maxTrials: maxTrials,
		trial:     1,
		log:       [][]string{nil},
	}
}

func (e *fakeHouse) Instruction() string  { return "put some apple in fridge." }
func (e *fakeHouse) Robot() string        { return "agent" }
func (e *fakeHouse) Partner() string      { return "" }
func (e *fakeHouse) Tools() []agents.Tool { return agents.HouseholdTools() }
func (e *fakeHouse) Track() string        { return agents.TrackHousehold }
func (e *fakeHouse) Trial() int           { return e.trial }
func (e *fakeHouse) MaxTrials() int       { return e.maxTrials }
func (e *fakeHouse) Opening() string {
	return fmt.Sprintf("You are in the middle of a room (trial %d). Looking quickly around you, you see a countertop 1, and a fridge 1.\n\nYour task is to: put some apple in fridge.", e.trial)
}

func (e *fakeHouse) NewTrial(ctx context.Context) (string, error) {
	switch {
	case e.won:
		return "", errors.New("the game is won")
	case e.over:
		return "", errors.New("the episode is over")
	case e.trial >= e.maxTrials:
		return "", fmt.Errorf("all %d trials are used", e.maxTrials)
	}
	e.trial++
	e.newTrials++
	e.steps = 0
	e.log = append(e.log, nil)
	return e.Opening(), nil
}

func (e *fakeHouse) Call(_ context.Context, c agents.ToolCall) (agents.Result, error) {
	if e.won || e.over || e.steps >= e.stepLimit {
		return agents.Result{Text: "The trial is over.", Ended: true}, nil
	}
	args, err := agents.DecodeArgs(c)
	if err != nil {
		return agents.Result{Text: "error: " + err.Error(), Error: err.Error()}, nil
	}
	switch a := args.(type) {
	case *agents.ActArgs:
		e.steps++
		e.log[e.trial-1] = append(e.log[e.trial-1], a.Command)
		obs, ok := e.answers[a.Command]
		switch {
		case a.Command == e.win:
			e.won = true
			return agents.Result{Text: "You put the apple 1 in/on the fridge 1.", Ended: true}, nil
		case strings.HasPrefix(a.Command, "think:"):
			obs = "OK."
		case !ok:
			obs = "Nothing happens."
		}
		if e.steps >= e.stepLimit {
			return agents.Result{Text: obs + "\n(The step limit is reached.)", Ended: true}, nil
		}
		return agents.Result{Text: obs}, nil
	case *agents.AskArgs:
		if a.Tag != e.tag {
			e.over = true
			return agents.Result{Text: "That question does not fit; the episode ends.", Ended: true}, nil
		}
		return agents.Result{Text: "I mean the apple 1."}, nil
	case *agents.NoArgs:
		if c.Name == agents.ToolAdmissible {
			return agents.Result{Text: "go to countertop 1\ngo to fridge 1", Items: []string{"go to countertop 1", "go to fridge 1"}}, nil
		}
	}
	return agents.Result{Text: "error: not a household tool", Error: "not a household tool"}, nil
}

// houseModel answers planning calls from one script and reflection calls
// from another, and keeps every request.
type houseModel struct {
	plans    []llm.Reply
	reflects []string
	reqs     []llm.Request
	roles    []string
}

func (m *houseModel) Name() string { return "scripted" }

func (m *houseModel) Generate(_ context.Context, req llm.Request) (llm.Reply, error) {
	b, err := agenttest.ContextOf(req)
	if err != nil {
		return llm.Reply{}, err
	}
	m.reqs = append(m.reqs, req)
	m.roles = append(m.roles, b.Role)
	switch b.Role {
	case llm.CallReflect:
		if len(m.reflects) == 0 {
			return llm.Reply{}, errors.New("scripted model: no reflection left")
		}
		r := m.reflects[0]
		m.reflects = m.reflects[1:]
		return llm.Reply{Text: r, FinishReason: llm.FinishStop, InputTokens: 100, OutputTokens: len(r)}, nil
	case llm.CallPlan:
		if len(m.plans) == 0 {
			return llm.Reply{}, fmt.Errorf("scripted model: planning call %d past the script", len(m.roles))
		}
		r := m.plans[0]
		m.plans = m.plans[1:]
		return r, nil
	}
	return llm.Reply{}, fmt.Errorf("scripted model: role %q", b.Role)
}

func act(cmds ...string) llm.Reply {
	var r llm.Reply
	for i, c := range cmds {
		args, _ := json.Marshal(agents.ActArgs{Command: c})
		r.ToolCalls = append(r.ToolCalls, llm.ToolCall{ID: fmt.Sprint("c", i), Name: agents.ToolAct, Args: args})
	}
	r.FinishReason = llm.FinishToolCalls
	return r
}

func acts(cmds ...string) []llm.Reply {
	var out []llm.Reply
	for _, c := range cmds {
		out = append(out, act(c))
	}
	return out
}

func userText(req llm.Request) string { return req.Messages[len(req.Messages)-1].Text }

var winning = []string{"go to countertop 1", "take apple 1 from countertop 1", "go to fridge 1", "open fridge 1", "put apple 1 in/on fridge 1"}

// ReAct sends one command per model call: of a reply with two calls only
// the first reaches the world, and each prompt holds the trajectory so
// far, in the prose and in the block, and ends when the world says so.
func TestReactOneCommandPerCall(t *testing.T) {
	env := newFakeHouse(1)
	model := &houseModel{plans: append([]llm.Reply{
		act("think: the apple is likely on the countertop 1.", "go to fridge 1"),
		act("go to countertop 1"),
	}, acts(winning[1:]...)...)}
	agent, err := agenttest.Workflow(t, "react", model)
	if err != nil {
		t.Fatal(err)
	}
	if err := agent.Run(context.Background(), env); err != nil {
		t.Fatalf("run: %v", err)
	}
	want := append([]string{"think: the apple is likely on the countertop 1."}, winning...)
	if !slices.Equal(env.log[0], want) {
		t.Errorf("the world saw %q, want %q (the second call of a reply is not run)", env.log[0], want)
	}
	if len(model.reqs) != len(want) || env.newTrials != 0 {
		t.Fatalf("%d model calls, %d new trials; want %d and none", len(model.reqs), env.newTrials, len(want))
	}
	for i, req := range model.reqs {
		b, err := agenttest.ContextOf(req)
		if err != nil {
			t.Fatal(err)
		}
		if b.Track != agents.TrackHousehold || b.Role != llm.CallPlan || b.Format != llm.FormatToolCalls ||
			b.Instruction != env.Instruction() || !strings.HasPrefix(b.Opening, "You are in the middle") {
			t.Errorf("call %d: block %+v", i, b)
		}
		if len(b.Trajectory) != i {
			t.Fatalf("call %d: block trajectory has %d steps, want %d", i, len(b.Trajectory), i)
		}
		if i > 0 && b.Trajectory[i-1].Command != want[i-1] {
			t.Errorf("call %d: the block's last step is %+v, want %q", i, b.Trajectory[i-1], want[i-1])
		}
		text := userText(req)
		if i > 0 && !strings.Contains(text, "> "+want[i-1]+"\n") {
			t.Errorf("call %d: the prompt lacks the step %q:\n%s", i, want[i-1], text)
		}
		if strings.Contains(text, "Notes you wrote") {
			t.Errorf("call %d: a first trial's prompt shows notes", i)
		}
	}
	var offered []string
	for _, d := range model.reqs[0].Tools {
		offered = append(offered, d.Name)
	}
	if !slices.Equal(offered, []string{agents.ToolAct, agents.ToolAdmissible, agents.ToolAsk}) {
		t.Errorf("tools offered %v", offered)
	}
	if _, ok := agent.(agents.Reflective); ok {
		t.Error("react claims to reflect")
	}
}

// A reply without a tool call is asked again once, saying so; a second
// in a row ends the run with an error that names it. A lone one is
// forgiven.
func TestReactMalformed(t *testing.T) {
	text := llm.Reply{Text: "I would go to the fridge.", FinishReason: llm.FinishStop}
	for _, tc := range []struct {
		name    string
		plans   []llm.Reply
		wantErr string
		calls   int
	}{
		{"twice in a row ends the trial", []llm.Reply{act("go to countertop 1"), text, text}, "2 replies in a row had no tool call", 3},
		{"once is forgiven", append([]llm.Reply{text}, acts(winning...)...), "", 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := newFakeHouse(1)
			model := &houseModel{plans: tc.plans}
			agent, err := agenttest.Workflow(t, "react", model)
			if err != nil {
				t.Fatal(err)
			}
			err = agent.Run(context.Background(), env)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("run error %v, want %q", err, tc.wantErr)
			}
			if len(model.reqs) != tc.calls {
				t.Fatalf("%d model calls, want %d", len(model.reqs), tc.calls)
			}
			for i, req := range model.reqs {
				retry := i > 0 && len(tc.plans[i-1].ToolCalls) == 0
				if got := strings.Contains(userText(req), "Your last reply had no tool call"); got != retry {
					t.Errorf("call %d: re-prompt note %v, want %v", i, got, retry)
				}
			}
		})
	}
}

// A model that only lists commands and never acts is stopped by the
// call bound, with an error, when react plays on after repeats
// (--play-on-repeat); by default the second listing ends the trial.
func TestReactCallBound(t *testing.T) {
	env := playOnHouse{newFakeHouse(1)}
	model := &houseModel{}
	for range reactMaxCalls {
		model.plans = append(model.plans, llm.Reply{ToolCalls: []llm.ToolCall{{ID: "l", Name: agents.ToolAdmissible, Args: json.RawMessage(`{}`)}}})
	}
	agent, err := agenttest.Workflow(t, "react", model)
	if err != nil {
		t.Fatal(err)
	}
	err = agent.Run(context.Background(), env)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("did not end after %d model calls", reactMaxCalls)) {
		t.Fatalf("run error %v, want the call bound named", err)
	}
	// Only the latest listing is shown in full.
	last := userText(model.reqs[len(model.reqs)-1])
	if n := strings.Count(last, "Admissible now:"); n != 1 {
		t.Errorf("the last prompt shows %d full listings, want 1", n)
	}
}

// A wrong question ends the game; react stops there without an error.
func TestReactWrongTag(t *testing.T) {
	env := newFakeHouse(1)
	env.tag = "multiplicity"
	model := &houseModel{plans: []llm.Reply{{ToolCalls: []llm.ToolCall{{ID: "q", Name: agents.ToolAsk, Args: json.RawMessage(`{"tag":"absence","question":"Is there an apple?"}`)}}}}}
	agent, err := agenttest.Workflow(t, "react", model)
	if err != nil {
		t.Fatal(err)
	}
	if err := agent.Run(context.Background(), env); err != nil || len(model.reqs) != 1 || !env.over {
		t.Errorf("run error %v after %d calls, episode over %v; want a clean stop after one", err, len(model.reqs), env.over)
	}
}

// Whatever arguments a model sends, a step records something to show it.
func FuzzStepOf(f *testing.F) {
	for _, s := range []struct{ name, args string }{
		{agents.ToolAct, `{"command":"go to fridge 1"}`},
		{agents.ToolAct, `{"command":""}`},
		{agents.ToolAsk, `{"tag":"absence","question":"Where?"}`},
		{agents.ToolAsk, `{"tag":"bogus"}`},
		{agents.ToolAdmissible, ``},
		{"done", `null`},
		{agents.ToolAct, `{"command":`},
		{"", `[1,2]`},
	} {
		f.Add(s.name, s.args)
	}
	f.Fuzz(func(t *testing.T, name, args string) {
		s := stepOf(llm.ToolCall{Name: name, Args: json.RawMessage(args)}, agents.Result{Error: "refused"})
		if s.Tool != name || s.Result == "" {
			t.Errorf("step %+v for %s %q", s, name, args)
		}
		v := views([]householdStep{s, s})
		if len(v) != 2 || (name != agents.ToolAct && v[0].Call == "") {
			t.Errorf("views %+v", v)
		}
		_ = s.key()
	})
}

// reactGolden is the data of the react and reflexion prompts' golden
// files: a trajectory with every kind of step, a stale listing and the
// latest one, and reflections on two earlier trials.
func reactGolden(withSteps, retry bool) reactPrompt {
	env := newFakeHouse(5)
	env.trial = 3
	ex, err := examplesFor(taskTypeOf(env))
	if err != nil {
		panic(err)
	}
	p := reactPrompt{Instruction: env.Instruction(), Opening: env.Opening(), Tags: strings.Join(agents.AskTags, ", "), Examples: ex, Retry: retry, Trial: env.trial}
	var steps []householdStep
	var refl []agents.ReflectionRecord
	if withSteps {
		steps = []householdStep{
			{Tool: agents.ToolAct, Command: "think: the apple is likely on the countertop 1.", Result: "OK."},
			{Tool: agents.ToolAdmissible, Result: "go to countertop 1\ngo to fridge 1\nlook"},
			{Tool: agents.ToolAct, Command: "go to countertop 1", Result: "On the countertop 1, you see a apple 1, and a apple 2."},
			{Tool: agents.ToolAsk, Command: "multiplicity", Question: "Which apple do you mean?", Result: "I mean the apple 2."},
			{Tool: agents.ToolAdmissible, Result: "examine apple 1\nexamine apple 2\ngo to fridge 1\ntake apple 1 from countertop 1\ntake apple 2 from countertop 1"},
		}
		refl = []agents.ReflectionRecord{
			{Trial: 1, Text: "I never opened the fridge 1. Next time: take the apple, go to the fridge 1, open it, put the apple in."},
			{Trial: 2, Text: "I took the wrong apple. Ask which apple is meant before taking one."},
		}
	}
	p.Steps, p.Reflections = views(steps), reflectionViews(refl, false)
	return p
}

// reflectGolden is the data of the reflection prompt's golden files: a
// trial stopped on a repeat, after one note; text is the text shape.
func reflectGolden(text bool) reflectPrompt {
	env := newFakeHouse(5)
	tr := trialRecord{Trial: 2, Opening: env.Opening(), End: endRepeat, Steps: []householdStep{
		{Tool: agents.ToolAct, Command: "go to fridge 1", Result: "You arrive at loc 5. The fridge 1 is closed."},
		{Tool: agents.ToolAct, Command: "go to fridge 1", Result: "You arrive at loc 5. The fridge 1 is closed."},
	}}
	past := []agents.ReflectionRecord{{Trial: 1, Text: "Start at the countertop 1."}}
	p, err := newReflectPrompt(context.Background(), env, tr, past, text)
	if err != nil {
		panic(err)
	}
	return p
}

// On a tabletop episode both workflows stop at once with an error that
// names the track, and call no model.
func TestHouseholdWorkflowsRefuseTabletop(t *testing.T) {
	for _, name := range []string{"react", "reflexion"} {
		model := &houseModel{}
		agent, err := agenttest.Workflow(t, name, model)
		if err != nil {
			t.Fatal(err)
		}
		err = agent.Run(context.Background(), agenttest.TabletopEnv{})
		if err == nil || !strings.Contains(err.Error(), "plays the household track only; this episode is on the tabletop track") || len(model.reqs) != 0 {
			t.Errorf("%s: error %v after %d model calls", name, err, len(model.reqs))
		}
	}
}
