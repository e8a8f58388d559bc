package tabletop

import (
	"testing"

	"github.com/ambibench/ambibench/agents/internal/prompttest"
)

// TestPromptsTyped: every template of the tabletop prompts is checked
// against the data it is rendered with, which prompts.go registers: a
// template with no registered type fails here, and so does a built-in
// template that names a field its data does not have. That is what lets
// run --prompts check a replaced template before the run.
func TestPromptsTyped(t *testing.T) { prompttest.Typed(t, "tabletop", prompts) }

// TestWorkflowsRenderWithTheRunsPrompts: the workflows render with
// renderIn(ctx, …), which reads the templates run --prompts replaced;
// render(…) is the built-in text, for tests only.
func TestWorkflowsRenderWithTheRunsPrompts(t *testing.T) { prompttest.RenderInOnly(t) }
