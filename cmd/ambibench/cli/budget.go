package cli

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/bench"
)

// tokenBudget stops a run once its models' replies have spent limit
// tokens, input and output together. Once spent, it refuses every new
// call with an error that wraps bench.ErrStopped: the runner starts no
// more episodes, the episodes that meet the refusal are left unrecorded
// for the next run, and the calls already under way, and the episodes
// that need no further call, finish and are recorded.
type tokenBudget struct {
	limit int64
	spent atomic.Int64
}

func (b *tokenBudget) wrap(m llm.Model) llm.Model { return budgeted{m, b} }

// exhausted reports whether the budget is spent.
func (b *tokenBudget) exhausted() bool { return b.spent.Load() >= b.limit }

type budgeted struct {
	llm.Model
	b *tokenBudget
}

func (m budgeted) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	if m.b.exhausted() {
		err := fmt.Errorf("--max-tokens-total: %d of %d tokens spent: %w", m.b.spent.Load(), m.b.limit, bench.ErrStopped)
		// The call never reaches the accounting inside; note it in the
		// episode's tally, so that a workflow that carries on after a
		// failed call cannot have its episode recorded.
		if t := llm.TallyFrom(ctx); t != nil {
			t.Fail(err)
		}
		return llm.Reply{}, err
	}
	r, err := m.Model.Generate(ctx, req)
	if err == nil {
		m.b.spent.Add(int64(r.InputTokens + r.OutputTokens))
	}
	return r, err
}
