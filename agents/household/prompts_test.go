package household

import (
	"context"
	"flag"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/internal/agenttest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// Every prompt template, rendered with fixed data, matches its golden file
// under testdata/ (rewrite with -update). A prompt change shows in review
// as a diff of the text a model reads.
func TestPromptsGolden(t *testing.T) {
	hinted := reactGolden(false, false)
	hinted.Hints = true
	for _, tc := range []struct {
		golden, template string
		data             any
	}{
		{"react_system.txt", "react_system.tmpl", reactGolden(false, false)},
		{"react_system_hints.txt", "react_system.tmpl", hinted},
		{"react_user_first.txt", "react_user.tmpl", reactGolden(false, false)},
		{"react_user.txt", "react_user.tmpl", reactGolden(true, false)},
		{"react_user_retry.txt", "react_user.tmpl", reactGolden(true, true)},
		{"reflexion_reflect.txt", "reflexion_reflect.tmpl", reflectGolden(false)},
		{"reflexion_reflect_text.txt", "reflexion_reflect.tmpl", reflectGolden(true)},
		{"react_text_system.txt", "react_text_system.tmpl", reactTextSystemGolden(false)},
		{"react_text_system_hints.txt", "react_text_system.tmpl", reactTextSystemGolden(true)},
		{"react_user_text.txt", "react_user.tmpl", reactTextGolden(false)},
		{"react_user_text_retry.txt", "react_user.tmpl", reactTextGolden(true)},
	} {
		got, err := render(tc.template, tc.data)
		if err != nil {
			t.Fatalf("%s: %v", tc.template, err)
		}
		agenttest.GoldenPrompt(t, tc.template, tc.golden, got, *update)
	}
	// The text shape's first prompt of a trial whole, as a model reads it:
	// one user message, the instructions and worked games, then the task.
	for _, hinted := range []bool{false, true} {
		env := newFakeHouse(1)
		var henv agents.Env = env
		golden := "react_text_prompt.txt"
		if hinted {
			henv, golden = hintedHouse{env}, "react_text_prompt_hints.txt"
		}
		model := &textModel{lines: []string{"look", "look"}}
		p := newTextPlayer(model, henv)
		if _, err := p.play(context.Background(), env.Opening(), 1, nil, true); err != nil {
			t.Fatal(err)
		}
		req := model.reqs[0]
		if req.System != "" || len(req.Messages) != 1 {
			t.Errorf("the text shape sent a system text of %d bytes and %d messages; want one user message", len(req.System), len(req.Messages))
		}
		agenttest.GoldenPrompt(t, "react_text_system.tmpl and react_user.tmpl", golden, userText(req), *update)
	}
}

// The golden prompts are what a real model reads, byte for byte; none of
// them may carry a machine-readable copy of the context (the fenced
// "```ambibench" block the prompts once ended in) or mention one.
func TestGoldenPromptsHoldNoBlock(t *testing.T) { agenttest.PromptsHoldNoBlock(t) }
