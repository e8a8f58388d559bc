package tabletop

import (
	"context"
	"embed"

	"github.com/ambibench/ambibench/agents/prompt"
)

// The prompts are the project's own templates, embedded in the binary,
// registered as the "tabletop" set: "ambibench prompts export" writes
// them and "run --prompts DIR" replaces them, each checked against the
// type of the data it is rendered with, given here. A new template
// needs its entry (TestPromptsTyped fails without one).
//
//go:embed prompts/*.tmpl
var promptFS embed.FS

var prompts = prompt.Register("tabletop", promptFS, "prompts/*.tmpl", map[string]any{
	"answer_user.tmpl":            promptData{},
	"clara_act.tmpl":              claraPrompt{},
	"clara_classify.tmpl":         claraPrompt{},
	"clara_sample.tmpl":           claraPrompt{},
	"detect_image.tmpl":           struct{ Robot string }{},
	"direct_system.tmpl":          promptData{},
	"direct_user.tmpl":            promptData{},
	"forced_decision.tmpl":        sgcotPrompt{},
	"graph_withdrawn.tmpl":        sgcotPrompt{},
	"inner_monologue_system.tmpl": listData{},
	"inner_monologue_user.tmpl":   listData{},
	"list_answer_user.tmpl":       listData{},
	"perceive.tmpl":               perceivePrompt{},
	"perceive_image.tmpl":         perceivePrompt{},
	"perceive_retry.tmpl":         struct{ Problem string }{},
	"progprompt_answer.tmpl":      progPromptData{},
	"progprompt_fix.tmpl":         progPromptData{},
	"progprompt_system.tmpl":      progPromptData{},
	"progprompt_user.tmpl":        progPromptData{},
	"sgcot_answer.tmpl":           sgcotAnswerPrompt{},
	"sgcot_system.tmpl":           sgcotPrompt{},
	"sgcot_text_answer.tmpl":      sgcotAnswerPrompt{},
	"sgcot_text_forced.tmpl":      sgcotTextPrompt{},
	"sgcot_text_system.tmpl":      sgcotTextPrompt{},
	"sgcot_user.tmpl":             sgcotPrompt{},
})

// render fills a built-in prompt template: what the tests and goldens
// read. A workflow renders with renderIn.
func render(name string, data any) (string, error) { return prompts.Render(name, data) }

// renderIn fills a prompt template as the run of ctx has it: with the
// templates its --prompts replace (prompt.WithOverrides).
func renderIn(ctx context.Context, name string, data any) (string, error) {
	return prompts.In(ctx).Render(name, data)
}
