package semmap

import (
	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
)

func init() {
	agents.RegisterWorkflowOn([]string{agents.TrackSemmap}, "self-reflect", "LLM workflow (semmap): the agentic-workflows paper's self-reflection; answer, then 2 rounds of reflect (correctness, relevance, clarity) and refine, with memory of earlier rounds",
		func(cfg agents.Config) (agents.Agent, error) {
			return NewSelfReflect(cfg.Model, ReflectOptions{Iterations: 2, Memory: true, Examples: PaperExamples}), nil
		})
	agents.RegisterWorkflowOn([]string{agents.TrackSemmap}, "self-reflect-no-memory", "self-reflect ablation: each reflect and refine prompt sees only the last answer and critique (eq. 3–4 instead of 5–6)",
		func(cfg agents.Config) (agents.Agent, error) {
			return NewSelfReflect(cfg.Model, ReflectOptions{Iterations: 2, Examples: PaperExamples}), nil
		})
}

// NewSelfReflect returns self-reflection with options.
func NewSelfReflect(model llm.Model, opts ReflectOptions) agents.Agent {
	return &semmapReflector{name: "self-reflect", model: model, opts: opts,
		tmpl: semmapTemplates{"semmap_plan.tmpl", "semmap_reflect.tmpl", "semmap_refine.tmpl"}}
}
