package semmap

import (
	"context"
	"fmt"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
)

func init() {
	agents.RegisterWorkflowOn([]string{agents.TrackSemmap}, "baseline", "LLM workflow (semmap): the agentic-workflows paper's baseline; one call with the map as JSON, the query and three worked examples; the reply is the JSON answer",
		func(cfg agents.Config) (agents.Agent, error) {
			return NewSemmapBaseline(cfg.Model, PaperExamples.Plan), nil
		})
}

// semmapBaseline is p_plan alone (eq. 2): one prompt with the map and
// the query, one reply, and that reply is the answer.
type semmapBaseline struct {
	model    llm.Model
	examples int
	drafts   [][]string
}

// NewSemmapBaseline returns the baseline with examples in-context
// examples (0 to len(planExampleData)).
func NewSemmapBaseline(model llm.Model, examples int) agents.Agent {
	return &semmapBaseline{model: model, examples: examples}
}

func (a *semmapBaseline) Drafts() [][]string { return a.drafts }

func (a *semmapBaseline) Run(ctx context.Context, env agents.Env) error {
	a.drafts = nil
	s, err := openSemmap(ctx, "baseline", a.model, env)
	if err != nil {
		return err
	}
	ans, perr, err := s.plan(ctx, "semmap_plan.tmpl", ExampleCounts{Plan: a.examples}, 0, 0)
	if err != nil {
		return err
	}
	a.drafts = append(a.drafts, ans.RelevantObjects)
	return s.answer(ctx, ans, perr)
}

// plan runs a planning prompt (p_plan or the planner agent's) and reads
// the reply. perr is the reason a reply could not be read; err a failed
// call.
func (s *semmapSession) plan(ctx context.Context, tmpl string, examples ExampleCounts, temperature float64, sample int) (ans agents.AnswerArgs, perr, err error) {
	reply, err := s.generate(ctx, "plan", tmpl, s.prompt(llm.CallPlan, examples), s.context(llm.CallPlan, llm.FormatJSON, nil, nil), temperature, sample)
	if err != nil {
		return agents.AnswerArgs{}, nil, err
	}
	ans, perr = ParseSemmapReply(reply.Text)
	if perr != nil {
		perr = fmt.Errorf("plan reply: %w", perr)
	}
	return ans, perr, nil
}
