package middleware

import (
	"context"
	"fmt"

	"github.com/ambibench/ambibench/agents/llm"
)

// Limit returns next allowed at most n calls in flight; further calls wait
// for a slot, or until their context is done. n of zero or less is no
// limit: Limit returns next itself.
func Limit(next llm.Model, n int) llm.Model {
	if n <= 0 {
		return next
	}
	return &limit{wrapper{next}, make(chan struct{}, n)}
}

type limit struct {
	wrapper
	slots chan struct{}
}

func (l *limit) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	select {
	case l.slots <- struct{}{}:
	case <-ctx.Done():
		return llm.Reply{}, fmt.Errorf("waiting for one of %d call slots: %w", cap(l.slots), ctx.Err())
	}
	defer func() { <-l.slots }()
	return l.next.Generate(ctx, req)
}
