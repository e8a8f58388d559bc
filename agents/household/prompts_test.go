package household

import (
	"flag"
	"github.com/ambibench/ambibench/agents/internal/agenttest"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// Every prompt template, rendered with fixed data, matches its golden file
// under testdata/ (rewrite with -update). A prompt change shows in review
// as a diff of the text a model reads.
func TestPromptsGolden(t *testing.T) {
	for _, tc := range []struct {
		golden, template string
		data             any
	}{
		{"react_system.txt", "react_system.tmpl", reactGolden(false, false)},
		{"react_user_first.txt", "react_user.tmpl", reactGolden(false, false)},
		{"react_user.txt", "react_user.tmpl", reactGolden(true, false)},
		{"react_user_retry.txt", "react_user.tmpl", reactGolden(true, true)},
		{"reflexion_reflect.txt", "reflexion_reflect.tmpl", reflectGolden()},
		{"react_text_system.txt", "react_text_system.tmpl", reactGolden(false, false)},
		{"react_user_text.txt", "react_user.tmpl", reactTextGolden(false)},
		{"react_user_text_retry.txt", "react_user.tmpl", reactTextGolden(true)},
	} {
		got, err := render(tc.template, tc.data)
		if err != nil {
			t.Fatalf("%s: %v", tc.template, err)
		}
		agenttest.GoldenPrompt(t, tc.template, tc.golden, got, *update)
	}
}

// The golden prompts are what a real model reads, byte for byte; none of
// them may carry a machine-readable copy of the context (the fenced
// "```ambibench" block the prompts once ended in) or mention one.
func TestGoldenPromptsHoldNoBlock(t *testing.T) { agenttest.PromptsHoldNoBlock(t) }
