package semmap

import (
	"context"
	"embed"

	"github.com/ambibench/ambibench/agents/prompt"
)

// The prompts are the project's own templates, embedded in the binary,
// registered as the "semmap" set: "ambibench prompts export" writes them
// and "run --prompts DIR" replaces them, each checked against the type
// of the data it is rendered with, given here. A new template needs its
// entry (TestPromptsTyped fails without one).
//
//go:embed prompts/*.tmpl
var promptFS embed.FS

var prompts = prompt.Register("semmap", promptFS, "prompts/*.tmpl", map[string]any{
	"semmap_agent_plan.tmpl":    semmapPrompt{},
	"semmap_agent_refine.tmpl":  semmapPrompt{},
	"semmap_agent_reflect.tmpl": semmapPrompt{},
	"semmap_choose.tmpl":        semmapPrompt{},
	"semmap_plan.tmpl":          semmapPrompt{},
	"semmap_refine.tmpl":        semmapPrompt{},
	"semmap_reflect.tmpl":       semmapPrompt{},
})

// render fills a built-in prompt template: what the tests and goldens
// read. A workflow renders with renderIn.
func render(name string, data any) (string, error) { return prompts.Render(name, data) }

// renderIn fills a prompt template as the run of ctx has it: with the
// templates its --prompts replace (prompt.WithOverrides).
func renderIn(ctx context.Context, name string, data any) (string, error) {
	return prompts.In(ctx).Render(name, data)
}
