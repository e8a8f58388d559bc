package semmap

import (
	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
)

func init() {
	agents.RegisterWorkflowOn([]string{agents.TrackSemmap}, "self-reflect", "LLM workflow (semmap): the agentic-workflows paper's self-reflection; answer, then 2 rounds of reflect (correctness, relevance, clarity) and refine, with memory of earlier rounds; every call at the provider's default temperature, a JSON reply asked again while it cannot be read (10 attempts)",
		func(cfg agents.Config) (agents.Agent, error) {
			return NewSelfReflect(cfg.Model, ReflectOptions{Iterations: 2, Memory: true, Examples: PaperExamples, Attempts: PaperAttempts}), nil
		})
	agents.RegisterWorkflowOn([]string{agents.TrackSemmap}, "self-reflect-no-memory", "self-reflect ablation: each reflect and refine prompt sees only the last answer and critique (eq. 3–4 instead of 5–6)",
		func(cfg agents.Config) (agents.Agent, error) {
			return NewSelfReflect(cfg.Model, ReflectOptions{Iterations: 2, Examples: PaperExamples, Attempts: PaperAttempts}), nil
		})
}

// NewSelfReflect returns self-reflection with options.
func NewSelfReflect(model llm.Model, opts ReflectOptions) agents.Agent {
	return &semmapReflector{name: "self-reflect", model: model, opts: opts,
		tmpl: semmapTemplates{"semmap_plan.tmpl", "semmap_reflect.tmpl", "semmap_refine.tmpl"}}
}
