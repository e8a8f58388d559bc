package middleware

import (
	"context"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
)

// Account returns next with every successful reply added to the
// [llm.Tally] of the call's context ([llm.TallyFrom]), if it has one.
// A reply whose Latency is zero gets the time the call took through
// Account, both in the tally and in the reply returned. A failed call is
// not counted as a call; its error is noted with [llm.Tally.Fail].
func Account(next llm.Model) llm.Model { return &account{wrapper{next}} }

type account struct{ wrapper }

func (a *account) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	start := time.Now()
	reply, err := a.next.Generate(ctx, req)
	if err != nil {
		if t := llm.TallyFrom(ctx); t != nil && ctx.Err() == nil {
			t.Fail(err)
		}
		return reply, err
	}
	if reply.Latency == 0 {
		reply.Latency = time.Since(start)
	}
	if t := llm.TallyFrom(ctx); t != nil {
		t.Add(reply)
	}
	return reply, nil
}
