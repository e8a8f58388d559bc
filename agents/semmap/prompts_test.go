package semmap

import (
	"flag"
	"github.com/ambibench/ambibench/agents/internal/agenttest"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
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
		{"semmap_plan_certainty.txt", "semmap_plan.tmpl", semmapGolden(llm.CallPlan, agents.ModeCertainty, PaperExamples, false)},
		{"semmap_plan_uncertainty_3_examples.txt", "semmap_plan.tmpl", semmapGolden(llm.CallPlan, agents.ModeUncertainty, PaperExamples, false)},
		{"semmap_reflect_memory.txt", "semmap_reflect.tmpl", semmapGolden(llm.CallReflect, agents.ModeCertainty, PaperExamples, true)},
		{"semmap_reflect.txt", "semmap_reflect.tmpl", semmapGolden(llm.CallReflect, agents.ModeCertainty, PaperExamples, false)},
		{"semmap_refine_memory.txt", "semmap_refine.tmpl", semmapGolden(llm.CallRefine, agents.ModeCertainty, PaperExamples, true)},
		{"semmap_refine.txt", "semmap_refine.tmpl", semmapGolden(llm.CallRefine, agents.ModeCertainty, PaperExamples, false)},
		{"semmap_agent_plan.txt", "semmap_agent_plan.tmpl", semmapGolden(llm.CallPlan, agents.ModeCertainty, PaperExamples, false)},
		{"semmap_agent_reflect.txt", "semmap_agent_reflect.tmpl", semmapGolden(llm.CallReflect, agents.ModeUncertainty, PaperExamples, true)},
		{"semmap_agent_refine.txt", "semmap_agent_refine.tmpl", semmapGolden(llm.CallRefine, agents.ModeCertainty, PaperExamples, true)},
		{"semmap_choose.txt", "semmap_choose.tmpl", semmapGolden(llm.CallChoose, agents.ModeCertainty, PaperExamples, false)},
		// A dataset that does not say what near means (a --data dataset
		// without a near rule in its dataset.yaml): no prompt says it.
		{"semmap_plan_certainty_no_near.txt", "semmap_plan.tmpl", withoutNear(semmapGolden(llm.CallPlan, agents.ModeCertainty, PaperExamples, false))},
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

func withoutNear(p semmapPrompt) semmapPrompt {
	p.Near = ""
	return p
}
