package semmap

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/internal/agenttest"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/middleware"
	"github.com/ambibench/ambibench/agents/llm/simmodel"
)

// flakyModel answers the first k attempts at every JSON answer (a plan or
// a refinement) with text that is no JSON, and everything else as next
// does. An attempt is told from a new prompt by its sample: the attempts
// at one answer share their sample modulo retryStride.
type flakyModel struct {
	next llm.Model
	k    int

	mu   sync.Mutex
	seen map[string]int
	reqs []llm.Request
}

func (m *flakyModel) Name() string { return "flaky" }

func (m *flakyModel) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	m.mu.Lock()
	m.reqs = append(m.reqs, req)
	cc := req.Context
	key := fmt.Sprintf("%s/%d/%d/%d", cc.Role, len(cc.Answers), len(cc.Feedback), req.Sample%retryStride)
	if m.seen == nil {
		m.seen = map[string]int{}
	}
	m.seen[key]++
	n := m.seen[key]
	m.mu.Unlock()
	if cc.Format == llm.FormatJSON && n <= m.k {
		return llm.Reply{Text: "I think obj1 would do, or maybe not.", FinishReason: llm.FinishStop, InputTokens: 100, OutputTokens: 7}, nil
	}
	return m.next.Generate(ctx, req)
}

// attemptsEnv is an episode of a run that sets the attempts (the track's
// --attempts).
type attemptsEnv struct {
	*agenttest.SemmapEnv
	n int
}

func (e attemptsEnv) SemmapAttempts() (int, bool) { return e.n, true }

// An unreadable JSON answer is asked for again, with the same prompt as
// a new sample, up to the attempts (PaperAttempts by default, the
// workflow's option or the run's otherwise); every attempt is a model
// call, which the tally counts with its tokens. Past the attempts the
// answer is lost as before: a miss.
func TestSemmapAskAgain(t *testing.T) {
	q := semmapTestQueries[1]
	for _, tc := range []struct {
		why      string
		agent    func(llm.Model) agents.Agent
		attempts int // the run's, 0 for none
		k        int
		calls    int
		answered bool
	}{
		{"readable at once: one call", baseline(0), 0, 0, 1, true},
		{"3 unreadable replies, then one read", baseline(0), 0, 3, 4, true},
		{"9 unreadable replies: the tenth attempt is read", baseline(0), 0, 9, 10, true},
		{"10 unreadable replies: no answer after 10 calls", baseline(0), 0, 10, 10, false},
		{"the option: 1 attempt, the answer lost at once", baseline(1), 0, 1, 1, false},
		{"the option: 4 attempts", baseline(4), 0, 3, 4, true},
		{"the run's attempts over the workflow's", baseline(0), 3, 5, 3, false},
		{"self-reflect: the plan and both refinements asked 3 times each, a critique once",
			func(m llm.Model) agents.Agent {
				return NewSelfReflect(m, ReflectOptions{Iterations: 2, Memory: true, Examples: PaperExamples})
			}, 0, 2, 3 + 2*(1+3), true},
		{"ensemble: every sample asked twice, the chooser once",
			func(m llm.Model) agents.Agent {
				return NewEnsemble(m, EnsembleOptions{N: 6, Temperature: 0.8, Examples: PaperExamples})
			}, 0, 1, 6*2 + 1, true},
	} {
		model := &flakyModel{next: simmodel.New(simmodel.Perfect, "sim:perfect"), k: tc.k}
		var tally llm.Tally
		ctx := llm.WithTally(context.Background(), &tally)
		env := agenttest.NewSemmapEnv(q, agenttest.SemmapMap(), agents.ModeUncertainty)
		var e agents.Env = env
		if tc.attempts > 0 {
			e = attemptsEnv{env, tc.attempts}
		}
		err := tc.agent(middleware.Account(model)).Run(ctx, e)
		if len(model.reqs) != tc.calls {
			t.Errorf("%s: %d calls, want %d", tc.why, len(model.reqs), tc.calls)
		}
		if u := tally.Usage(); u.Calls != len(model.reqs) {
			t.Errorf("%s: the tally counts %d calls of %d", tc.why, u.Calls, len(model.reqs))
		} else if tc.k > 0 && u.InputTokens < 100*min(tc.k, tc.calls) {
			t.Errorf("%s: the tally counts %d input tokens; the unreadable attempts alone had %d", tc.why, u.InputTokens, 100*min(tc.k, tc.calls))
		}
		switch {
		case tc.answered && (err != nil || len(env.Answered()) != 1):
			t.Errorf("%s: error %v, answers %v; want an answer", tc.why, err, env.Answered())
		case !tc.answered && (err == nil || !strings.Contains(err.Error(), "no readable answer") || len(env.Answered()) != 0):
			t.Errorf("%s: error %v, answers %v; want no answer", tc.why, err, env.Answered())
		}
		// The attempts at one answer are samples of it, each its own.
		samples := map[string]bool{}
		for _, r := range model.reqs {
			k := fmt.Sprintf("%s/%d/%d/%d", r.Context.Role, len(r.Context.Answers), len(r.Context.Feedback), r.Sample)
			if samples[k] {
				t.Errorf("%s: two attempts send the same request (%s)", tc.why, k)
			}
			samples[k] = true
		}
	}
}

func baseline(attempts int) func(llm.Model) agents.Agent {
	return func(m llm.Model) agents.Agent {
		return NewSemmapBaselineWith(m, BaselineOptions{Examples: PaperExamples.Plan, Attempts: attempts})
	}
}

// Every semmap call leaves the temperature to the provider, as the
// agentic-workflows code does, but the ensemble's samples, at its
// temperature (0.8 as registered).
func TestSemmapTemperatures(t *testing.T) {
	for _, w := range semmapWorkflows {
		model := &flakyModel{next: simmodel.New(simmodel.Perfect, "sim:perfect")}
		if err := runSemmap(t, w.name, model, agenttest.NewSemmapEnv(semmapTestQueries[0], agenttest.SemmapMap(), "")); err != nil {
			t.Fatal(err)
		}
		for i, r := range model.reqs {
			sampled := w.name == "ensemble" && r.Context.Role == llm.CallPlan
			switch {
			case sampled && (r.OmitTemperature || r.Temperature != 0.8):
				t.Errorf("%s: call %d (a sample) at temperature %v (left to the provider: %v); want 0.8", w.name, i+1, r.Temperature, r.OmitTemperature)
			case !sampled && !r.OmitTemperature:
				t.Errorf("%s: call %d (%s) sets temperature %v; want the provider's default", w.name, i+1, r.Context.Role, r.Temperature)
			}
		}
		if w.name == "ensemble" && !slices.ContainsFunc(model.reqs, func(r llm.Request) bool { return r.Context.Role == llm.CallChoose }) {
			t.Errorf("ensemble made no choose call")
		}
	}
}
