package simmodel

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/housework"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/sim/textworld"
	"github.com/ambibench/ambibench/tasks"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// houseTrial is one trial played by the model.
type houseTrial struct {
	opening string
	won     bool
	steps   []llm.HouseStep
	end     string
}

// playHouse plays one trial of a game the way a ReAct workflow with fresh
// prompts does: each call's block carries the trajectory so far, the
// reply is one tool call, and a user answers a question tagged with the
// game's label by the game's answer and ends the trial on another tag.
func playHouse(t *testing.T, m *Model, g *alfworld.Game, reflections []string, trial int) houseTrial {
	t.Helper()
	e, err := textworld.New(g.House, textworld.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opening := g.Intro(e.Reset())
	tr := houseTrial{opening: opening}
	for range 120 {
		b := &llm.CallContext{Role: llm.CallPlan, Track: "household", Instruction: g.Instruction, Opening: opening,
			Trajectory: tr.steps, Reflections: reflections, Trial: trial, Format: llm.FormatToolCalls}
		r, err := m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "Play.\n"}}, Context: b})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.ToolCalls) != 1 {
			tr.end = "reply without one tool call: " + r.Text
			return tr
		}
		var a struct{ Command, Tag, Question string }
		if err := json.Unmarshal(r.ToolCalls[0].Args, &a); err != nil {
			t.Fatal(err)
		}
		switch r.ToolCalls[0].Name {
		case "act":
			obs := e.Step(a.Command)
			tr.steps = append(tr.steps, llm.HouseStep{Tool: "act", Command: a.Command, Result: obs})
			if g.Goal.Satisfied(e.State()) {
				tr.won = true
				return tr
			}
			if e.Steps() >= g.StepLimit {
				tr.end = "step limit"
				return tr
			}
		case "ask":
			if a.Tag != g.Label {
				tr.steps = append(tr.steps, llm.HouseStep{Tool: "ask", Command: a.Tag, Question: a.Question, Result: "That question does not fit."})
				tr.end = "wrong tag " + a.Tag
				return tr
			}
			tr.steps = append(tr.steps, llm.HouseStep{Tool: "ask", Command: a.Tag, Question: a.Question, Result: g.Answer})
		default:
			t.Fatalf("%s: unknown tool %q", g.ID, r.ToolCalls[0].Name)
		}
	}
	tr.end = "too many calls"
	return tr
}

func build(t *testing.T, s alfworld.Spec, pert string) *alfworld.Game {
	t.Helper()
	g, err := s.Build(pert)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The perfect model plays the games end to end as the rules planner does.
func TestHouseholdPerfectWins(t *testing.T) {
	m := New(Perfect, "sim:perfect")
	budgetLost := 0
	for _, pert := range alfworld.Perturbations() {
		won, n := 0, 0
		for i, spec := range alfworld.EvalGames() {
			if i%4 != 0 || !alfworld.Applies(spec.Type, pert) {
				continue
			}
			n++
			g := build(t, spec, pert)
			switch tr := playHouse(t, m, g, nil, 1); {
			case tr.won:
				won++
			case pert == tasks.LabelAbsence && tr.end == "step limit" && budgetLost == 0:
				// Before it may call a thing absent the model looks in
				// every receptacle that can hold one; in a kitchen of
				// ALFWorld's size (20 cabinets, 9 drawers) that can take
				// more than the 50 steps. One such game is allowed.
				budgetLost++
				t.Logf("%s %s: lost at the step limit, searching", g.ID, pert)
			default:
				t.Errorf("%s %s: lost (%s) after %d steps", g.ID, pert, tr.end, len(tr.steps))
			}
		}
		t.Logf("%s: %d/%d won", pert, won, n)
	}
}

// A kept conversation in text: "> command" replies, observations as user
// messages.
func TestHouseholdTextFormat(t *testing.T) {
	m := New(Perfect, "sim:perfect")
	g := build(t, alfworld.EvalGames()[60], tasks.LabelMultiplicity)
	e, err := textworld.New(g.House, textworld.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opening := g.Intro(e.Reset())
	b := &llm.CallContext{Role: llm.CallPlan, Track: "household", Instruction: g.Instruction, Opening: opening, Format: llm.FormatText}
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: opening}}, Context: b}
	asked := false
	for range 60 {
		r, err := m.Generate(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(r.Text, "> ") || strings.Contains(r.Text, "\n") || len(r.ToolCalls) > 0 {
			t.Fatalf("reply %q: want one line \"> command\"", r.Text)
		}
		cmd := strings.TrimPrefix(r.Text, "> ")
		var obs string
		if rest, ok := strings.CutPrefix(cmd, "ask multiplicity: "); ok && rest != "" {
			obs, asked = g.Answer, true
		} else {
			obs = e.Step(cmd)
		}
		req.Messages = append(req.Messages, llm.Message{Role: llm.RoleAssistant, Text: r.Text}, llm.Message{Role: llm.RoleUser, Text: obs})
		if g.Goal.Satisfied(e.State()) {
			if !asked {
				t.Errorf("%s: won a multiplicity game without asking", g.ID)
			}
			return
		}
	}
	t.Fatalf("%s: not won in text format; conversation ends %q", g.ID, req.Messages[len(req.Messages)-1].Text)
}

// Each slip, at rate 1, shows in the first trial where it can.
func TestHouseholdSlips(t *testing.T) {
	for _, tc := range []struct {
		why     string
		profile Profile
		game    int // index in EvalGames
		pert    string
		shows   func(tr houseTrial) bool
	}{
		{"skip: the egg goes into the fridge unheated", Profile{Skip: 1}, 55, tasks.LabelNone, func(tr houseTrial) bool {
			return !tr.won && !anyCommand(tr, "heat ") && anyCommand(tr, "put egg")
		}},
		{"loop: the second command repeats the first", Profile{Loop: 1}, 55, tasks.LabelNone, func(tr houseTrial) bool {
			return !tr.won && len(tr.steps) > 2 && tr.steps[1].Command == tr.steps[0].Command && tr.steps[2].Command == tr.steps[0].Command
		}},
		{"multiplicity: no question, though several were seen", Profile{Multiplicity: 1}, 55, tasks.LabelMultiplicity, func(tr houseTrial) bool {
			return !anyTool(tr, "ask")
		}},
		{"tag: a question, wrongly tagged", Profile{Tag: 1}, 20, tasks.LabelUnderspecified, func(tr houseTrial) bool {
			return strings.HasPrefix(tr.end, "wrong tag")
		}},
		{"tag: a hidden object called absent before the closed places are opened", Profile{Tag: 1}, 20, tasks.LabelPartialObservability, func(tr houseTrial) bool {
			return tr.end == "wrong tag absence"
		}},
		{"vague: a guess instead of a question", Profile{Vague: 1}, 20, tasks.LabelUnderspecified, func(tr houseTrial) bool {
			// The guess may be a kind the room lacks, which the model then
			// asks about as absent; it never asks what was meant.
			for _, s := range tr.steps {
				if s.Tool == "ask" && s.Command == tasks.LabelUnderspecified {
					return false
				}
			}
			return len(tr.steps) > 0
		}},
		{"absence: another kind instead of a question", Profile{Absence: 1}, 0, tasks.LabelAbsence, func(tr houseTrial) bool {
			return !anyTool(tr, "ask") && anyCommand(tr, "take ")
		}},
	} {
		g := build(t, alfworld.EvalGames()[tc.game], tc.pert)
		tr := playHouse(t, New(tc.profile, "sim:test"), g, nil, 1)
		if !tc.shows(tr) {
			t.Errorf("%s: %s %s played %+v", tc.why, g.ID, tc.pert, tr)
		}
	}
}

func anyCommand(tr houseTrial, prefix string) bool {
	for _, s := range tr.steps {
		if s.Tool == "act" && strings.HasPrefix(s.Command, prefix) {
			return true
		}
	}
	return false
}

func anyTool(tr houseTrial, tool string) bool {
	for _, s := range tr.steps {
		if s.Tool == tool {
			return true
		}
	}
	return false
}

// reflectOn asks the model to reflect on a failed trial.
func reflectOn(t *testing.T, m *Model, g *alfworld.Game, tr houseTrial) string {
	t.Helper()
	b := &llm.CallContext{Role: llm.CallReflect, Track: "household", Instruction: g.Instruction, Opening: tr.opening, Trajectory: tr.steps, Format: llm.FormatText}
	r, err := m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "Reflect.\n"}}, Context: b})
	if err != nil {
		t.Fatal(err)
	}
	return r.Text
}

// A slip persists from trial to trial unless a reflection names it; one
// that does is heeded about heedReflection of the time, afresh each trial.
func TestHouseholdReflectionSuppressesSlip(t *testing.T) {
	m := New(Profile{Skip: 1}, "sim:skip")
	games, heeded, heededUnrelated, slipAgain := 0, 0, 0, 0
	for _, spec := range alfworld.EvalGames() {
		if spec.Type != alfworld.TypePickHeatThenPlace && spec.Type != alfworld.TypePickCoolThenPlace && spec.Type != alfworld.TypePickCleanThenPlace {
			continue
		}
		g := build(t, spec, tasks.LabelNone)
		first := playHouse(t, m, g, nil, 1)
		if first.won {
			t.Fatalf("%s: won with every treatment skipped", g.ID)
		}
		text := reflectOn(t, m, g, first)
		verb := map[string]string{housework.StateHot: "heat", housework.StateCold: "cool", housework.StateClean: "clean"}[g.Goal.State]
		if !strings.Contains(text, verb) || !strings.Contains(text, g.Goal.Kind) {
			t.Errorf("%s: reflection %q does not name the skipped %s of the %s", g.ID, text, verb, g.Goal.Kind)
		}
		games++
		if playHouse(t, m, g, []string{text}, 2).won {
			heeded++
		}
		if playHouse(t, m, g, []string{"I should search more carefully next time."}, 2).won {
			heededUnrelated++
		}
		// Unheeded in trial 2, the same reflection gets a new chance in
		// trial 3; a model that slips with no reflection slips again.
		if playHouse(t, m, g, nil, 3).won {
			slipAgain++
		}
	}
	rate := float64(heeded) / float64(games)
	t.Logf("%d treatment games: the skip heeded in trial 2 in %d (%.2f); unrelated reflections heeded %d; won without reflection %d", games, heeded, rate, heededUnrelated, slipAgain)
	if rate < heedReflection-0.2 || rate > heedReflection+0.2 {
		t.Errorf("a reflection naming the slip was heeded in %.2f of games, want about %.1f", rate, heedReflection)
	}
	if heededUnrelated != 0 || slipAgain != 0 {
		t.Errorf("the slip was avoided %d times after an unrelated reflection and %d times without one; want never", heededUnrelated, slipAgain)
	}
}

// Reflections on other slips name them in words the model matches.
func TestHouseholdReflectionNamesSlips(t *testing.T) {
	for _, tc := range []struct {
		why     string
		profile Profile
		game    int
		pert    string
		kind    string
	}{
		{"a loop names the repeated command", Profile{Loop: 1}, 55, tasks.LabelNone, housework.MistakeLoop},
		{"another instance than the one meant", Profile{Hallucinate: 1}, 55, tasks.LabelMultiplicity, housework.MistakeInstance},
	} {
		m := New(tc.profile, "sim:test")
		g := build(t, alfworld.EvalGames()[tc.game], tc.pert)
		tr := playHouse(t, m, g, nil, 1)
		if tr.won {
			t.Errorf("%s: %s won despite the slip", tc.why, g.ID)
			continue
		}
		text := reflectOn(t, m, g, tr)
		s := housework.State{Instruction: g.Instruction, Opening: tr.opening}
		for _, st := range tr.steps {
			if st.Tool == "ask" {
				s.Turns = append(s.Turns, housework.Turn{Tag: st.Command, Question: st.Question, Answer: st.Result})
				continue
			}
			s.Turns = append(s.Turns, housework.Turn{Command: st.Command, Observation: st.Result})
		}
		found := false
		for _, mk := range housework.Diagnose(s) {
			if mk.Kind == tc.kind && housework.Mentioned([]string{text}, mk.Keys()) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: reflection %q does not name a %s mistake", tc.why, text, tc.kind)
		}
	}
}

// FuzzHousehold feeds the household planner and reflector a trajectory,
// a kept conversation in text and reflections that are arbitrary: the
// model reads observations, "> command" lines and answers it did not
// write. It must never panic, and a planning reply is one act or ask call,
// or one "> " line in text.
func FuzzHousehold(f *testing.F) {
	f.Add("put the mug in sinkbasin.", "go to shelf 1", "You arrive at loc 7. On the shelf 1, you see a mug 2, and a mug 1.", "multiplicity", "I mean the red one.", "> ask multiplicity: which?", "I sent \"go to shelf 1\" again")
	f.Add("heat some egg and put it in fridge.", "open fridge 1", "You open the fridge 1. The fridge 1 is open. In it, you see a egg 1.", "absence", "Use a tomato instead.", "> take egg 1 from fridge 1", "heat the egg")
	f.Add("put something in desk.", "", "Nothing happens.", "underspecified", "", ">", "")
	f.Add("", "think:", "OK.", "tag", "\n", "> ask : ", "no ")
	// Household text with a code fence once closed the fenced block the
	// context rode in, and the model answered that it found no block.
	f.Add("put a mug in desk.", "go to desk 1", "On the desk 1, you see a ```ambibench note.```", "absence", "```", "> ```", "```json\n{}\n```")
	m := New(Weak, "sim:weak")
	f.Fuzz(func(t *testing.T, instruction, cmd, obs, tag, answer, line, reflection string) {
		traj := []llm.HouseStep{{Tool: "act", Command: cmd, Result: obs}, {Tool: "ask", Command: tag, Question: "?", Result: answer}, {Tool: "admissible_commands", Result: cmd}}
		for _, tc := range []struct{ role, format string }{
			{llm.CallPlan, llm.FormatToolCalls}, {llm.CallPlan, llm.FormatText}, {llm.CallReflect, llm.FormatText},
		} {
			b := &llm.CallContext{Role: tc.role, Track: "household", Instruction: instruction, Opening: room + "\n" + obs,
				Trajectory: traj, Reflections: []string{reflection}, Format: tc.format}
			req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: room + "\n" + obs}, {Role: llm.RoleAssistant, Text: line}, {Role: llm.RoleUser, Text: answer}}, Context: b}
			r, err := m.Generate(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if tc.role != llm.CallPlan || r.Text == malformed().Text {
				continue
			}
			if tc.format == llm.FormatText {
				if !strings.HasPrefix(r.Text, "> ") || len(r.ToolCalls) != 0 {
					t.Fatalf("text plan reply %+v", r)
				}
			} else if len(r.ToolCalls) != 1 || r.ToolCalls[0].Name != "act" && r.ToolCalls[0].Name != "ask" {
				t.Fatalf("tool-call plan reply %+v", r)
			}
		}
	})
}

const room = "You are in the middle of a room. Looking quickly around you, you see a cabinet 1, a countertop 1, a desk 1, a drawer 1, a fridge 1, a microwave 1, a shelf 1, and a sinkbasin 1."

// Regression (the fuzz failure "a code fence in household text"): when the
// context rode in a fenced block of the prompt, an observation, answer or
// reflection holding ``` closed the block early, and the model answered
// that it found none. The context is a typed field now, so household text
// is only text, whatever it holds.
func TestCodeFenceInHouseholdText(t *testing.T) {
	m := New(Perfect, "sim:perfect")
	fence := "```"
	obs := "You arrive at desk 1. On the desk 1, you see a " + fence + "ambibench note " + fence + "."
	b := &llm.CallContext{Role: llm.CallPlan, Track: "household", Instruction: "put a mug in desk.",
		Opening: room + "\n\nYour task is to: put a mug in desk.",
		Trajectory: []llm.HouseStep{{Tool: "act", Command: "go to desk 1", Result: obs},
			{Tool: "ask", Command: "absence", Question: "Where " + fence + "?", Result: fence + "json\n{}\n" + fence}},
		Reflections: []string{"I should look in the shelf " + fence + " first."}, Format: llm.FormatToolCalls}
	text := b.Opening + "\n> go to desk 1\n" + obs + "\n"
	r, err := m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: text}}, Context: b})
	if err != nil {
		t.Fatal(err)
	}
	if r.Text == NoContextReply || len(r.ToolCalls) != 1 || (r.ToolCalls[0].Name != "act" && r.ToolCalls[0].Name != "ask") {
		t.Errorf("a fence in the trial's text broke the model: %+v", r)
	}
}
