package middleware

import (
	"context"
	"fmt"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
)

// Timeout returns next with a deadline of d on each call. A call that has
// no reply by then returns an *llm.Error of KindTimeout (which [Retry]
// retries), even if next ignores its context: the call runs on its own
// goroutine, and a reply that comes too late is dropped. When the caller's
// own context ends first, its error is returned instead. d of zero or less
// is no deadline: Timeout returns next itself.
func Timeout(next llm.Model, d time.Duration) llm.Model {
	if d <= 0 {
		return next
	}
	return &timeout{wrapper{next}, d}
}

type timeout struct {
	wrapper
	d time.Duration
}

type result struct {
	reply llm.Reply
	err   error
}

func (t *timeout) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	cctx, cancel := context.WithTimeout(ctx, t.d)
	defer cancel()
	done := make(chan result, 1)
	go func() {
		reply, err := t.next.Generate(cctx, req)
		done <- result{reply, err}
	}()
	select {
	case r := <-done:
		return t.finish(ctx, cctx, r)
	case <-cctx.Done():
		select {
		case r := <-done: // came in at the same moment
			return t.finish(ctx, cctx, r)
		default:
		}
		if err := ctx.Err(); err != nil {
			return llm.Reply{}, err
		}
		return llm.Reply{}, t.timedOut(context.DeadlineExceeded)
	}
}

func (t *timeout) finish(ctx, cctx context.Context, r result) (llm.Reply, error) {
	if r.err != nil && ctx.Err() == nil && cctx.Err() != nil {
		// The backend noticed our deadline before we did.
		return r.reply, t.timedOut(r.err)
	}
	return r.reply, r.err
}

func (t *timeout) timedOut(err error) error {
	return &llm.Error{Kind: llm.KindTimeout, Err: fmt.Errorf("no reply within %v: %w", t.d, err)}
}
