package semmap

import (
	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
)

func init() {
	agents.RegisterWorkflowOn([]string{agents.TrackSemmap}, "multi-agent-reflect", "LLM workflow (semmap): the agentic-workflows paper's multi-agent reflection; planner, feedback and refinement agents with role prompts, 2 rounds, with memory of earlier rounds; every call at the provider's default temperature, a JSON reply asked again while it cannot be read (10 attempts)",
		func(cfg agents.Config) (agents.Agent, error) {
			return NewMultiAgentReflect(cfg.Model, ReflectOptions{Iterations: 2, Memory: true, Examples: PaperExamples, Attempts: PaperAttempts}), nil
		})
}

// NewMultiAgentReflect returns multi-agent reflection (eq. 7–9): the
// steps of self-reflection, each prompt casting the model as one agent
// of a team (planner, feedback, refinement) instead of giving it a task.
// The three agents are one model here, as in the paper's runs.
func NewMultiAgentReflect(model llm.Model, opts ReflectOptions) agents.Agent {
	return &semmapReflector{name: "multi-agent-reflect", model: model, opts: opts,
		tmpl: semmapTemplates{"semmap_agent_plan.tmpl", "semmap_agent_reflect.tmpl", "semmap_agent_refine.tmpl"}}
}
