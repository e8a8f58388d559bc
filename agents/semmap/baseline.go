package semmap

import (
	"context"
	"fmt"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
)

func init() {
	agents.RegisterWorkflowOn([]string{agents.TrackSemmap}, "baseline", "LLM workflow (semmap): the agentic-workflows paper's baseline; one call with the map as JSON, the query and three worked examples, at the provider's default temperature, asked again while the reply cannot be read (10 attempts); the reply is the JSON answer",
		func(cfg agents.Config) (agents.Agent, error) {
			return NewSemmapBaselineWith(cfg.Model, BaselineOptions{Examples: PaperExamples.Plan, Attempts: PaperAttempts}), nil
		})
}

// BaselineOptions configure the baseline.
type BaselineOptions struct {
	// Examples is the number of in-context examples (0 to
	// len(planExampleData)).
	Examples int
	// Attempts is how many times the prompt is sent while the reply
	// cannot be read; PaperAttempts when not positive.
	Attempts int
}

// semmapBaseline is p_plan alone (eq. 2): one prompt with the map and
// the query, one reply, and that reply is the answer.
type semmapBaseline struct {
	model  llm.Model
	opts   BaselineOptions
	drafts [][]string
}

// NewSemmapBaseline returns the baseline with examples in-context
// examples (0 to len(planExampleData)) and PaperAttempts.
func NewSemmapBaseline(model llm.Model, examples int) agents.Agent {
	return NewSemmapBaselineWith(model, BaselineOptions{Examples: examples})
}

// NewSemmapBaselineWith returns the baseline with options.
func NewSemmapBaselineWith(model llm.Model, opts BaselineOptions) agents.Agent {
	return &semmapBaseline{model: model, opts: opts}
}

func (a *semmapBaseline) Drafts() [][]string { return a.drafts }

func (a *semmapBaseline) Run(ctx context.Context, env agents.Env) error {
	a.drafts = nil
	s, err := openSemmap(ctx, "baseline", a.model, env)
	if err != nil {
		return err
	}
	ans, perr, err := s.plan(ctx, "semmap_plan.tmpl", ExampleCounts{Plan: a.opts.Examples}, nil, 0, a.opts.Attempts)
	if err != nil {
		return err
	}
	a.drafts = append(a.drafts, ans.RelevantObjects)
	return s.answer(ctx, ans, perr)
}

// plan runs a planning prompt (p_plan or the planner agent's) and reads
// the reply, asking again while it cannot be read (attempts in all, the
// run's when it sets them: see semmapSession.attempts). temperature nil
// is the provider's default. perr is the reason no reply could be read;
// err a failed call.
func (s *semmapSession) plan(ctx context.Context, tmpl string, examples ExampleCounts, temperature *float64, sample, attempts int) (ans agents.AnswerArgs, perr, err error) {
	ans, _, perr, err = s.askJSON(ctx, "plan", tmpl, s.prompt(llm.CallPlan, examples), s.context(llm.CallPlan, llm.FormatJSON, nil, nil), temperature, sample, s.attempts(attempts))
	if perr != nil {
		perr = fmt.Errorf("plan reply: %w", perr)
	}
	return ans, perr, err
}
