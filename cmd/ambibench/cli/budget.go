package cli

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/ambibench/ambibench/agents/llm"
)

// errBudget is the cause of a run stopped by --max-tokens-total.
var errBudget = errors.New("token budget spent")

// tokenBudget stops a run once its models' replies have spent limit
// tokens, input and output together: it cancels the run's context, so
// that no episode starts another call, and the episodes not finished are
// left unrecorded for the next run.
type tokenBudget struct {
	limit  int64
	spent  atomic.Int64
	cancel context.CancelCauseFunc
}

func (b *tokenBudget) wrap(m llm.Model) llm.Model { return budgeted{m, b} }

type budgeted struct {
	llm.Model
	b *tokenBudget
}

func (m budgeted) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	r, err := m.Model.Generate(ctx, req)
	if err == nil && m.b.spent.Add(int64(r.InputTokens+r.OutputTokens)) >= m.b.limit {
		m.b.cancel(errBudget)
	}
	return r, err
}
