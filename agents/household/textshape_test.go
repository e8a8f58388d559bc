package household

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

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
		{"a question with nothing to ask is a command too", "ask absence:  ", agents.ToolAct, "ask absence:", true},
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
	if !strings.HasSuffix(text, "\n> ") || len(last.Tools) != 0 || last.System != "" || len(last.Messages) != 1 ||
		strings.Contains(text, "admissible_commands") || !strings.Contains(text, "ask TAG: question") {
		t.Errorf("want one user message that asks in lines and ends in \"> \", no tools and no system text; tools %d, system %d bytes, prompt ends %q",
			len(last.Tools), len(last.System), text[len(text)-20:])
	}
	b, err := agenttest.ContextOf(last)
	if err != nil {
		t.Fatal(err)
	}
	if b.Format != llm.FormatText {
		t.Errorf("context format %q, want text", b.Format)
	}
}

// reactTextSystemGolden is the golden data of the text shape's
// instructions: its worked games as that shape writes them.
func reactTextSystemGolden(hinted bool) reactPrompt {
	p := reactGolden(false, false)
	ex, err := textExamplesFor(taskTypeOf(newFakeHouse(1)))
	if err != nil {
		panic(err)
	}
	p.Examples, p.Text, p.Hints = ex, true, hinted
	return p
}

// reactTextGolden is the golden data of the text shape's user prompt: a
// trial with a thought, a move and a question, written as its lines,
// after two notes numbered by their place.
func reactTextGolden(retry bool) reactPrompt {
	p := reactGolden(true, retry)
	p.Text = true
	p.Opening = textOpening(p.Opening)
	p.Reflections = reflectionViews([]agents.ReflectionRecord{
		{Trial: 1, Text: "I never opened the fridge 1. Next time: take the apple, go to the fridge 1, open it, put the apple in."},
		{Trial: 2, Text: "I took the wrong apple. Ask which apple is meant before taking one."},
	}, true)
	p.Steps = views([]householdStep{
		{Tool: agents.ToolAct, Command: "think: the apple is likely on the countertop 1.", Result: "OK.", TextForm: true},
		{Tool: agents.ToolAct, Command: "go to countertop 1", Result: "On the countertop 1, you see a apple 1, and a apple 2.", TextForm: true},
		{Tool: agents.ToolAsk, Command: "multiplicity", Question: "Which apple do you mean?", Result: "I mean the apple 2.", TextForm: true},
	})
	return p
}

// Whatever a model writes, textAction reads at most one line of it: a
// reply with a non-blank line is one call (an ask only with a known tag),
// whose command or question is a trimmed part of that line; a reply with
// none is no call.
func FuzzTextAction(f *testing.F) {
	for _, s := range []string{"go to fridge 1", "> open fridge 1", "\n \nlook\n", "ask multiplicity: Which one?", "ask colour: which?", "ask absence:", " \n\n", ">", "> \n>", "think: a\nb", "\r\nask underspecified : what?\r\n", "\xca"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		tc, ok := textAction(reply)
		hasLine := false
		for l := range strings.SplitSeq(reply, "\n") {
			if strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), ">")) != "" {
				hasLine = true
				break
			}
		}
		if ok != hasLine {
			t.Fatalf("%q: ok %v, but a non-blank line: %v", reply, ok, hasLine)
		}
		if !ok {
			return
		}
		args, err := agents.DecodeArgs(agents.ToolCall{Name: tc.Name, Args: tc.Args})
		if err != nil {
			t.Fatalf("%q: %s with arguments that do not decode: %v", reply, tc.Name, err)
		}
		var parts []string
		switch a := args.(type) {
		case *agents.ActArgs:
			parts = []string{a.Command}
			if a.Command == "" {
				t.Errorf("%q: an empty command", reply)
			}
		case *agents.AskArgs:
			if !slices.Contains(agents.AskTags, a.Tag) {
				t.Errorf("%q: ask with the tag %q", reply, a.Tag)
			}
			parts = []string{a.Tag, a.Question}
		default:
			t.Fatalf("%q: a %s call", reply, tc.Name)
		}
		// The arguments are JSON, which writes each byte that is not UTF-8
		// as U+FFFD.
		var valid strings.Builder
		for i := 0; i < len(reply); {
			r, n := utf8.DecodeRuneInString(reply[i:])
			if r == utf8.RuneError && n == 1 {
				valid.WriteRune(utf8.RuneError)
			} else {
				valid.WriteString(reply[i : i+n])
			}
			i += n
		}
		for _, p := range parts {
			if strings.Contains(p, "\n") || p != strings.TrimSpace(p) || !strings.Contains(valid.String(), p) {
				t.Errorf("%q: %q is not a trimmed part of one line", reply, p)
			}
		}
	})
}
