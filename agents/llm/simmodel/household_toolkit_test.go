package simmodel

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/housework"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/sim/textworld"
	"github.com/ambibench/ambibench/tasks"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// solvedCase plays the expert's plan of the first training game of a type.
func solvedCase(t *testing.T, taskType string) []llm.HouseStep {
	t.Helper()
	for _, s := range alfworld.TrainGames(6) {
		if s.Type != taskType {
			continue
		}
		g := build(t, s, tasks.LabelNone)
		plan, err := g.Expert("")
		if err != nil {
			t.Fatal(err)
		}
		e, err := textworld.New(g.House, textworld.Options{})
		if err != nil {
			t.Fatal(err)
		}
		e.Reset()
		var out []llm.HouseStep
		for _, c := range plan {
			out = append(out, llm.HouseStep{Tool: "act", Command: c, Result: e.Step(c)})
		}
		return out
	}
	t.Fatalf("no training game of type %s", taskType)
	return nil
}

func toolReply(t *testing.T, m *Model, tool string, g *alfworld.Game, tr houseTrial, solved []llm.HouseStep, outputs []string) string {
	t.Helper()
	b := &llm.CallContext{Role: llm.CallReflect, Track: "household", Instruction: g.Instruction, Opening: tr.opening,
		Trajectory: tr.steps, Tool: tool, Case: solved, Reflections: outputs, Format: llm.FormatText}
	r, err := m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "Reflect.\n"}}, Context: b})
	if err != nil {
		t.Fatal(err)
	}
	return r.Text
}

// Each tool names the slips it is for, and not the others: the router
// has something to choose. A slip is named when the reply holds every key
// of one of the trial's diagnosed mistakes of that kind.
func TestToolkitNamesItsSlips(t *testing.T) {
	for _, tc := range []struct {
		why     string
		profile Profile
		game    int
		pert    string
		kind    string
		namedBy []string
	}{
		{"a skipped heating: the solved case's rule and the lesson", Profile{Skip: 1}, 55, tasks.LabelNone, housework.MistakeSkip, []string{"key_rules", "lesson"}},
		{"a loop: the experience and the lesson", Profile{Loop: 1}, 55, tasks.LabelNone, housework.MistakeLoop, []string{"experience", "lesson"}},
		{"several eggs and no question: ambiguity and lesson", Profile{Multiplicity: 1}, 55, tasks.LabelMultiplicity, housework.MistakeMultiplicity, []string{"lesson", "ambiguity"}},
		{"another egg than the one meant: experience, lesson, ambiguity", Profile{Hallucinate: 1}, 55, tasks.LabelMultiplicity, housework.MistakeInstance, []string{"experience", "lesson", "ambiguity"}},
		{"a wrong tag: lesson and ambiguity", Profile{Tag: 1}, 20, tasks.LabelUnderspecified, housework.MistakeTag, []string{"lesson", "ambiguity"}},
	} {
		m := New(tc.profile, "sim:test")
		// The first game from tc.game on that the slip loses: taking one
		// of several at random can still be the right one.
		var g *alfworld.Game
		var tr houseTrial
		for i := tc.game; ; i++ {
			spec := alfworld.EvalGames()[i%len(alfworld.EvalGames())]
			if !alfworld.Applies(spec.Type, tc.pert) {
				continue
			}
			g = build(t, spec, tc.pert)
			if tr = playHouse(t, m, g, nil, 1); !tr.won {
				break
			}
			if i > tc.game+40 {
				t.Fatalf("%s: 40 games won despite the slip", tc.why)
			}
		}
		s := housework.State{Instruction: g.Instruction, Opening: tr.opening}
		for _, st := range tr.steps {
			if st.Tool == "ask" {
				s.Turns = append(s.Turns, housework.Turn{Tag: st.Command, Question: st.Question, Answer: st.Result})
			} else {
				s.Turns = append(s.Turns, housework.Turn{Command: st.Command, Observation: st.Result})
			}
		}
		var mistake *housework.Mistake
		for _, mk := range housework.Diagnose(s) {
			if mk.Kind == tc.kind {
				mistake = &mk
				break
			}
		}
		if mistake == nil {
			t.Fatalf("%s: the trial shows no %s mistake: %+v", tc.why, tc.kind, housework.Diagnose(s))
		}
		solved := solvedCase(t, g.Type)
		var outputs, named []string
		for _, tool := range []string{"key_rules", "experience", "lesson", "ambiguity"} {
			text := toolReply(t, m, tool, g, tr, solved, nil)
			outputs = append(outputs, text)
			if housework.Mentioned([]string{text}, mistake.Keys()) {
				named = append(named, tool)
			}
		}
		if !slices.Equal(named, tc.namedBy) {
			t.Errorf("%s: named by %v, want %v; replies:\n%s", tc.why, named, tc.namedBy, strings.Join(outputs, "\n"))
		}
		plan := toolReply(t, m, "plan", g, tr, nil, outputs)
		if !housework.Mentioned([]string{plan}, mistake.Keys()) {
			t.Errorf("%s: the plan drops what the tools named: %q", tc.why, plan)
		}
	}
}

// Without a solved case key_rules has nothing to say, and a clear trial
// gives ambiguity nothing to find.
func TestToolkitWithoutMaterial(t *testing.T) {
	m := New(Profile{Skip: 1}, "sim:test")
	g := build(t, alfworld.EvalGames()[55], tasks.LabelNone)
	tr := playHouse(t, m, g, nil, 1)
	if got := toolReply(t, m, "key_rules", g, tr, nil, nil); !strings.HasPrefix(got, "No solved case") {
		t.Errorf("key_rules without a case: %q", got)
	}
	if got := toolReply(t, m, "ambiguity", g, tr, nil, nil); !strings.HasPrefix(got, "The task was clear") {
		t.Errorf("ambiguity on a skipped heating: %q", got)
	}
	if got := toolReply(t, m, "mystery", g, tr, nil, nil); !strings.Contains(got, `"mystery"`) {
		t.Errorf("an unknown tool: %q", got)
	}
}

// FuzzToolkit feeds every reflection tool a trial, a solved case and
// outputs it did not write: the replies are never empty and never panic.
func FuzzToolkit(f *testing.F) {
	f.Add("heat some egg and put it in fridge.", "put egg 1 in/on fridge 1", "You put the egg 1 in/on the fridge 1.", "heat egg 1 with microwave 1", "multiplicity", "the red one", "Lesson: heat it.")
	f.Add("put two plate in cabinet.", "go to cabinet 1", "Nothing happens.", "open drawer 2", "absence", "", "")
	f.Add("", "", "", "use desklamp 1", "", "\n", "> ask")
	m := New(Weak, "sim:weak")
	f.Fuzz(func(t *testing.T, instruction, cmd, obs, caseCmd, tag, answer, output string) {
		traj := []llm.HouseStep{{Tool: "act", Command: cmd, Result: obs}, {Tool: "act", Command: cmd, Result: obs}, {Tool: "ask", Command: tag, Question: "?", Result: answer}}
		solved := []llm.HouseStep{{Tool: "act", Command: caseCmd, Result: obs}}
		for _, tool := range []string{"key_rules", "experience", "lesson", "ambiguity", "plan"} {
			b := &llm.CallContext{Role: llm.CallReflect, Track: "household", Instruction: instruction, Opening: room, Trajectory: traj,
				Tool: tool, Case: solved, Reflections: []string{output}, Format: llm.FormatText}
			r, err := m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "Prompt."}}, Context: b})
			if err != nil {
				t.Fatal(err)
			}
			if strings.TrimSpace(r.Text) == "" {
				t.Fatalf("%s: an empty reply", tool)
			}
		}
	})
}
