package middleware

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/time/rate"

	"github.com/ambibench/ambibench/agents/llm"
)

// RateLimit returns next held to requestsPerMinute calls and
// tokensPerMinute tokens per minute; a limit of zero or less is no limit.
//
// Requests are spaced evenly (a bucket of one request refilled at
// requestsPerMinute/60 per second), so no minute ever sees more than
// requestsPerMinute+1 calls start.
//
// Tokens are budgeted before the call by an estimate of its input, since
// the real count is known only afterwards: [EstimateTokens], one token per
// four bytes of the request's text, tool-call arguments, tool declarations
// and schemas. The token bucket holds a minute's budget (so one large
// request always fits; an estimate above the whole budget is clamped to
// it) and refills at tokensPerMinute/60 per second. When the reply reports
// its usage and input plus output tokens exceed the estimate, the
// difference is taken from the bucket too, putting it in debt so the calls
// that follow wait longer; an over-estimate is not refunded. A call that
// fails keeps its reservation, since the server may have counted it.
//
// A wait ends early when the context is done (or cannot be met before its
// deadline); the error then says which budget was being waited for.
func RateLimit(next llm.Model, requestsPerMinute, tokensPerMinute int) llm.Model {
	return RateLimitNotify(next, requestsPerMinute, tokensPerMinute, nil)
}

// RateLimitNotify is [RateLimit] that tells onWait (if not nil) of every
// wait of a millisecond or more, naming the budget waited for ("requests"
// or "tokens"): what a live run logs, so that a slow run says why.
func RateLimitNotify(next llm.Model, requestsPerMinute, tokensPerMinute int, onWait func(budget string, waited time.Duration)) llm.Model {
	rl := &rateLimit{wrapper: wrapper{next}, onWait: onWait}
	if requestsPerMinute > 0 {
		rl.requests = rate.NewLimiter(rate.Limit(float64(requestsPerMinute)/60), 1)
	}
	if tokensPerMinute > 0 {
		rl.tokens = rate.NewLimiter(rate.Limit(float64(tokensPerMinute)/60), tokensPerMinute)
	}
	return rl
}

type rateLimit struct {
	wrapper
	requests, tokens *rate.Limiter // nil: no limit
	onWait           func(budget string, waited time.Duration)
}

// waited reports a wait that began at start.
func (rl *rateLimit) waited(budget string, start time.Time) {
	if d := time.Since(start); rl.onWait != nil && d >= time.Millisecond {
		rl.onWait(budget, d)
	}
}

func (rl *rateLimit) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	if rl.requests != nil {
		start := time.Now()
		if err := rl.requests.Wait(ctx); err != nil {
			return llm.Reply{}, fmt.Errorf("rate limit: waiting for a request slot: %w", err)
		}
		rl.waited("requests", start)
	}
	var est int
	if rl.tokens != nil {
		est = min(EstimateTokens(req), rl.tokens.Burst())
		start := time.Now()
		if err := rl.tokens.WaitN(ctx, est); err != nil {
			return llm.Reply{}, fmt.Errorf("rate limit: waiting for %d tokens: %w", est, err)
		}
		rl.waited("tokens", start)
	}
	reply, err := rl.next.Generate(ctx, req)
	if err == nil && rl.tokens != nil {
		if extra := reply.InputTokens + reply.OutputTokens - est; extra > 0 {
			// Take the shortfall now without waiting: later calls pay it.
			rl.tokens.ReserveN(time.Now(), min(extra, rl.tokens.Burst()))
		}
	}
	return reply, err
}

// EstimateTokens estimates the input tokens of req as its length in bytes
// divided by four (at least one): the system text, every message's text,
// tool-call names and arguments, every tool's name, description and schema,
// and the response schema.
func EstimateTokens(req llm.Request) int {
	n := len(req.System) + len(req.ResponseSchema)
	for _, m := range req.Messages {
		n += len(m.Text)
		for _, c := range m.ToolCalls {
			n += len(c.Name) + len(c.Args)
		}
	}
	for _, t := range req.Tools {
		n += len(t.Name) + len(t.Description) + len(t.Schema)
	}
	return max(1, n/4)
}
