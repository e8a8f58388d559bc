package household

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/internal/agenttest"
	"github.com/ambibench/ambibench/agents/llm"
)

// A text reply is one action, its first line, as a completion stopped at
// the newline gives it (alfworld_trial.py, line 57: stop=['\n']).
func TestTextAction(t *testing.T) {
	for _, tc := range []struct {
		why, reply string
		tool, cmd  string // cmd: the command, or the tag and question as "tag|question"
		ok         bool
	}{
		{"one command", "go to fridge 1", agents.ToolAct, "go to fridge 1", true},
		{"the prompt's \"> \" echoed", "> open fridge 1", agents.ToolAct, "open fridge 1", true},
		{"only the first line is the action", "take apple 1 from countertop 1\n> go to fridge 1\nOK.", agents.ToolAct, "take apple 1 from countertop 1", true},
		{"a chat model's blank first line is skipped", "\n  \nlook\n", agents.ToolAct, "look", true},
		{"a thought is a command", "think: the apple is likely on the countertop 1.", agents.ToolAct, "think: the apple is likely on the countertop 1.", true},
		{"a question with a known tag", "ask multiplicity: Which apple do you mean?", agents.ToolAsk, "multiplicity|Which apple do you mean?", true},
		{"an unknown tag is a command, which the world will not understand", "ask colour: which one?", agents.ToolAct, "ask colour: which one?", true},
		{"nothing at all", " \n\n", "", "", false},
	} {
		tc2, ok := textAction(tc.reply)
		if ok != tc.ok {
			t.Errorf("%s: ok %v, want %v", tc.why, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		got := ""
		switch tc2.Name {
		case agents.ToolAct:
			var a agents.ActArgs
			json.Unmarshal(tc2.Args, &a)
			got = a.Command
		case agents.ToolAsk:
			var a agents.AskArgs
			json.Unmarshal(tc2.Args, &a)
			got = a.Tag + "|" + a.Question
		}
		if tc2.Name != tc.tool || got != tc.cmd {
			t.Errorf("%s: %s %q, want %s %q", tc.why, tc2.Name, got, tc.tool, tc.cmd)
		}
	}
}

// textModel answers every planning call with the next line of a script.
type textModel struct {
	houseModel
	lines []string
}

func (m *textModel) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	b, err := agenttest.ContextOf(req)
	if err != nil {
		return llm.Reply{}, err
	}
	if b.Role != llm.CallPlan {
		return m.houseModel.Generate(ctx, req)
	}
	m.reqs = append(m.reqs, req)
	m.roles = append(m.roles, b.Role)
	line := m.lines[0]
	m.lines = m.lines[1:]
	return llm.Reply{Text: line, FinishReason: llm.FinishStop}, nil
}

// react-text plays the published shape: no tools offered, the prompt
// ends in "> " and holds each step as "> command" and its observation,
// a question is an "ask TAG: question" line, and the context says text.
func TestReactTextShape(t *testing.T) {
	env := newFakeHouse(1)
	env.tag = "multiplicity"
	model := &textModel{lines: append([]string{"> go to countertop 1", "ask multiplicity: Which apple?\nand more"}, winning[1:]...)}
	agent, err := agenttest.Workflow(t, "react-text", model)
	if err != nil {
		t.Fatal(err)
	}
	if err := agent.Run(context.Background(), env); err != nil {
		t.Fatalf("run: %v", err)
	}
	if !env.won {
		t.Fatalf("not won; the world saw %q", env.log)
	}
	last := model.reqs[len(model.reqs)-1]
	text := userText(last)
	for _, want := range []string{"> go to countertop 1\nOn the countertop 1, you see a apple 1.\n> ask multiplicity: Which apple?\nUser: I mean the apple 1.\n", "\n> "} {
		if !strings.Contains(text, want) {
			t.Errorf("the last prompt lacks %q:\n%s", want, text)
		}
	}
	if !strings.HasSuffix(text, "\n> ") || len(last.Tools) != 0 || strings.Contains(last.System, "admissible_commands") || !strings.Contains(last.System, "ask TAG: question") {
		t.Errorf("want a prompt ending in \"> \", no tools, and a system text that asks in lines; tools %d, prompt ends %q", len(last.Tools), text[len(text)-20:])
	}
	b, err := agenttest.ContextOf(last)
	if err != nil {
		t.Fatal(err)
	}
	if b.Format != llm.FormatText {
		t.Errorf("context format %q, want text", b.Format)
	}
}

// reactTextGolden is the golden data of the text shape's user prompt: a
// trial with a thought, a move and a question, written as its lines.
func reactTextGolden(retry bool) reactPrompt {
	p := reactGolden(true, retry)
	p.Text = true
	p.Steps = views([]householdStep{
		{Tool: agents.ToolAct, Command: "think: the apple is likely on the countertop 1.", Result: "OK.", TextForm: true},
		{Tool: agents.ToolAct, Command: "go to countertop 1", Result: "On the countertop 1, you see a apple 1, and a apple 2.", TextForm: true},
		{Tool: agents.ToolAsk, Command: "multiplicity", Question: "Which apple do you mean?", Result: "I mean the apple 2.", TextForm: true},
	})
	return p
}
