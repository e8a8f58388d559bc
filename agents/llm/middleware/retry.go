package middleware

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
)

// Defaults of [RetryOptions].
const (
	DefaultMaxAttempts = 4
	DefaultBase        = 500 * time.Millisecond
	DefaultMax         = 30 * time.Second
	// DefaultMaxRetryAfter is the longest Retry-After waited for: long
	// enough for the per-minute quotas of Gemini and OpenAI, short of a
	// daily quota's "come back tomorrow".
	DefaultMaxRetryAfter = time.Minute
)

// The default jitter source is seeded with these, so that a run's
// sequence of backoffs is the same every time.
const jitterSeed1, jitterSeed2 = 0x616d6269, 0x62656e63

// RetryOptions configure [Retry]. The zero value gives the defaults.
type RetryOptions struct {
	// MaxAttempts is the most calls made for one request, the first
	// included (default 4; 1 disables retries).
	MaxAttempts int
	// Base is the backoff ceiling after the first failure; it doubles
	// with each further failure up to Max (defaults 500ms and 30s).
	Base, Max time.Duration
	// MaxRetryAfter is the longest wait a server may ask for (a 429's
	// Retry-After) and be obeyed (default DefaultMaxRetryAfter). A longer
	// request ends the retries at once: waiting less than the server
	// asks would only spend attempts on more refusals.
	MaxRetryAfter time.Duration
	// Sleep waits d or until ctx is done, returning ctx.Err() then.
	// Tests inject it; the default uses a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Rand returns a number in [0, 1) that scales the backoff ceiling
	// (full jitter). It must be safe for concurrent use. The default is
	// a math/rand/v2 PCG source with a fixed seed, private to this
	// wrapper and guarded by a mutex: deterministic, but the draws are
	// shared by concurrent calls in the order they fail.
	Rand func() float64
	// OnRetry, if set, is called before each backoff with the number of
	// the attempt that just failed (1 for the first) and its error.
	OnRetry func(attempt int, err error)
}

// Retry returns next retried on failures that may pass: those whose
// llm.KindOf is Retryable (rate limited, server error, timeout, malformed
// reply). Before attempt k+1 it waits a random duration in
// [0, min(Max, Base·2^(k-1))) ("full jitter"); when the error is an
// *llm.Error with RetryAfter set (a 429's Retry-After, usually) it waits at
// least RetryAfter, if that is no more than MaxRetryAfter, and gives up at
// once, saying so, if it is more.
//
// Every failed attempt is added to the [llm.Tally] of the call's context
// ([llm.Tally.AddFailedAttempts]), so that retries show in an episode's
// cost; the successful one is counted where the reply is.
//
// It never retries bad requests, auth failures, errors of unknown kind, or
// a call whose own context is done (cancelled or past its deadline); the
// error is returned as it is when it came from the first attempt. When the
// attempts are used up, or a later attempt fails for good, the last error
// is returned wrapped as "after N attempts: …". When the context ends
// during a backoff, Retry returns at once with an error wrapping both the
// context's error and the last failure.
func Retry(next llm.Model, opts RetryOptions) llm.Model {
	if opts.MaxAttempts <= 0 {
		opts.MaxAttempts = DefaultMaxAttempts
	}
	if opts.Base <= 0 {
		opts.Base = DefaultBase
	}
	if opts.Max <= 0 {
		opts.Max = DefaultMax
	}
	if opts.Max < opts.Base {
		opts.Max = opts.Base
	}
	if opts.MaxRetryAfter <= 0 {
		opts.MaxRetryAfter = DefaultMaxRetryAfter
	}
	if opts.Sleep == nil {
		opts.Sleep = sleep
	}
	if opts.Rand == nil {
		opts.Rand = seededRand(jitterSeed1, jitterSeed2)
	}
	return &retry{wrapper{next}, opts}
}

type retry struct {
	wrapper
	opts RetryOptions
}

func (r *retry) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	tally := llm.TallyFrom(ctx)
	for attempt := 1; ; attempt++ {
		reply, err := r.next.Generate(ctx, req)
		if err == nil {
			tally.AddFailedAttempts(attempt - 1)
			return reply, nil
		}
		if ctx.Err() != nil || errors.Is(err, context.Canceled) ||
			!llm.KindOf(err).Retryable() || attempt >= r.opts.MaxAttempts {
			tally.AddFailedAttempts(attempt)
			return reply, afterAttempts(attempt, err)
		}
		var e *llm.Error
		if errors.As(err, &e) && e.RetryAfter > r.opts.MaxRetryAfter {
			tally.AddFailedAttempts(attempt)
			return reply, fmt.Errorf("after %d attempts, not retrying: the server asks to wait %v, longer than the %v honoured: %w",
				attempt, e.RetryAfter, r.opts.MaxRetryAfter, err)
		}
		d := r.backoff(attempt, err)
		if r.opts.OnRetry != nil {
			r.opts.OnRetry(attempt, err)
		}
		if serr := r.opts.Sleep(ctx, d); serr != nil {
			tally.AddFailedAttempts(attempt)
			return llm.Reply{}, fmt.Errorf("after %d attempts, stopped waiting %v to retry: %w (last error: %w)",
				attempt, d, serr, err)
		}
	}
}

func afterAttempts(n int, err error) error {
	if n == 1 {
		return err
	}
	return fmt.Errorf("after %d attempts: %w", n, err)
}

// backoff is the wait after the failed attempt number attempt.
func (r *retry) backoff(attempt int, err error) time.Duration {
	ceiling := r.opts.Base
	for i := 1; i < attempt && ceiling < r.opts.Max; i++ {
		ceiling *= 2
	}
	ceiling = min(ceiling, r.opts.Max)
	f := r.opts.Rand()
	if f < 0 || f >= 1 {
		f = 0
	}
	d := time.Duration(f * float64(ceiling))
	var e *llm.Error
	if errors.As(err, &e) && e.RetryAfter > 0 {
		// Generate has checked it against MaxRetryAfter.
		d = max(d, e.RetryAfter)
	}
	return d
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// seededRand returns a concurrency-safe Float64 of a PCG source seeded
// with s1 and s2.
func seededRand(s1, s2 uint64) func() float64 {
	var mu sync.Mutex
	rng := rand.New(rand.NewPCG(s1, s2))
	return func() float64 {
		mu.Lock()
		defer mu.Unlock()
		return rng.Float64()
	}
}
