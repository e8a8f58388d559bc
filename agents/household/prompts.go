package household

import (
	"context"
	"embed"

	"github.com/ambibench/ambibench/agents/prompt"
)

// The prompts are the project's own templates, embedded in the binary,
// registered as the "household" set: "ambibench prompts export" writes
// them and "run --prompts DIR" replaces them, each checked against the
// type of the data it is rendered with, given here. A new template
// needs its entry (TestPromptsTyped fails without one).
//
//go:embed prompts/*.tmpl
var promptFS embed.FS

var prompts = prompt.Register("household", promptFS, "prompts/*.tmpl", map[string]any{
	"dyref_ambiguity.tmpl":   toolPrompt{},
	"dyref_experience.tmpl":  toolPrompt{},
	"dyref_key_rules.tmpl":   toolPrompt{},
	"dyref_lesson.tmpl":      toolPrompt{},
	"dyref_plan.tmpl":        toolPrompt{},
	"react_system.tmpl":      reactPrompt{},
	"react_text_system.tmpl": reactPrompt{},
	"react_user.tmpl":        reactPrompt{},
	"react_user_head":        reactPrompt{},
	"react_step":             stepView{},
	"react_user_tail":        reactPrompt{},
	"reflexion_reflect.tmpl": reflectPrompt{},
	"reflexion_worked":       nil,
})

// render fills a built-in prompt template: what the tests and goldens
// read. A workflow renders with renderIn.
func render(name string, data any) (string, error) { return prompts.Render(name, data) }

// renderIn fills a prompt template as the run of ctx has it: with the
// templates its --prompts replace (prompt.WithOverrides).
func renderIn(ctx context.Context, name string, data any) (string, error) {
	return prompts.In(ctx).Render(name, data)
}
