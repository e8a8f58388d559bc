package semmap

import (
	"context"
	"fmt"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
)

func init() {
	agents.RegisterWorkflowOn([]string{agents.TrackSemmap}, "ensemble", "LLM workflow (semmap): the agentic-workflows paper's LLM ensemble; 6 answers sampled at temperature 0.8 (ambibench's choice; from the model, or in turn from --ensemble-models), each asked again while it cannot be read (10 attempts), then a chooser at the provider's default temperature that sees them anonymised picks one, which is answered unchanged",
		func(cfg agents.Config) (agents.Agent, error) {
			return NewEnsemble(cfg.Model, EnsembleOptions{N: 6, Temperature: 0.8, Examples: PaperExamples, Members: cfg.Members, Attempts: PaperAttempts}), nil
		})
	// The answers may come from several models (the agentic-workflows
	// paper's ensemble of specs); the harness hands them over as
	// Config.Members.
	agents.SetUsesMembers("ensemble")
}

// EnsembleOptions configure the ensemble.
type EnsembleOptions struct {
	// N is the number of sampled answers, at most 26 (they are lettered).
	N int
	// Temperature is the sampling temperature of the answers (0.8 by
	// default: ambibench's choice, so that the samples differ; the paper
	// states none and its authors' code sends none); the chooser runs at the
	// provider's default, as every other semmap call.
	Temperature float64
	// Examples are the in-context example counts; the answers' planning
	// prompts use Plan (the chooser's prompt has none, as in the paper).
	Examples ExampleCounts
	// Members, if any, write the answers in turn: answer k comes from
	// Members[k % len(Members)], at Temperature. The chooser is always
	// the ensemble's own model.
	Members []llm.Model
	// Attempts is how many times each answer's prompt is sent while its
	// JSON reply cannot be read; PaperAttempts when not positive. (The
	// chooser's letter is asked for once.)
	Attempts int
}

// ensemble is the agentic-workflows paper's LLM ensemble (eq. 10–11): the
// same p_plan at temperature > 0 N times, from one model or from its
// members in turn, each draw its own sample, then p_choose over the
// readable answers, labelled by letter only, so the chooser cannot favour a
// member by name. The chosen answer is answered exactly as it was written.
type ensemble struct {
	model  llm.Model
	opts   EnsembleOptions
	drafts [][]string
	// Chosen is the index (into the readable answers) of the last pick.
	chosen int
}

// NewEnsemble returns the ensemble with options.
func NewEnsemble(model llm.Model, opts EnsembleOptions) agents.Agent {
	opts.N = max(1, min(opts.N, 26))
	return &ensemble{model: model, opts: opts}
}

// Drafts are the readable sampled answers in order, then the chosen one.
func (a *ensemble) Drafts() [][]string { return a.drafts }

func (a *ensemble) Run(ctx context.Context, env agents.Env) error {
	a.drafts, a.chosen = nil, -1
	s, err := openSemmap(ctx, "ensemble", a.model, env)
	if err != nil {
		return err
	}
	var options []agents.AnswerArgs
	var unread []string
	for k := range a.opts.N {
		sampler := s
		if len(a.opts.Members) > 0 {
			ms := *s
			ms.model = a.opts.Members[k%len(a.opts.Members)]
			sampler = &ms
		}
		ans, perr, err := sampler.plan(ctx, "semmap_plan.tmpl", a.opts.Examples, &a.opts.Temperature, k+1, a.opts.Attempts)
		if err != nil {
			return err
		}
		if perr != nil {
			unread = append(unread, fmt.Sprintf("sample %d: %v", k+1, perr))
			continue
		}
		options = append(options, ans)
		a.drafts = append(a.drafts, ans.RelevantObjects)
	}
	if len(options) == 0 {
		return s.answer(ctx, agents.AnswerArgs{}, fmt.Errorf("no sampled answer could be read: %s", strings.Join(unread, "; ")))
	}
	k, perr, err := a.choose(ctx, s, options)
	if err != nil {
		return err
	}
	if perr != nil {
		return s.answer(ctx, agents.AnswerArgs{}, perr)
	}
	a.chosen = k
	a.drafts = append(a.drafts, options[k].RelevantObjects)
	return s.answer(ctx, options[k], nil)
}

// choose asks for one of the options by letter. One option needs no
// choice and costs no call.
func (a *ensemble) choose(ctx context.Context, s *semmapSession, options []agents.AnswerArgs) (int, error, error) {
	if len(options) == 1 {
		return 0, nil, nil
	}
	data := s.prompt(llm.CallChoose, ExampleCounts{})
	var texts []string
	for i, o := range options {
		t := FormatAnswer(o)
		texts = append(texts, t)
		data.Responses = append(data.Responses, semmapResponse{Letter: letterOf(i), Answer: t})
	}
	reply, err := s.generate(ctx, "choose", "semmap_choose.tmpl", data, s.context(llm.CallChoose, llm.FormatText, texts, nil), nil, 0)
	if err != nil {
		return 0, nil, err
	}
	k, perr := ParseChoice(reply.Text, len(options))
	if perr != nil {
		return 0, fmt.Errorf("choose reply: %w", perr), nil
	}
	return k, nil, nil
}
