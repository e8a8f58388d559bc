package middleware_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/middleware"
)

// sleeper records the backoffs it is asked to wait and waits none.
type sleeper struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleeper) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

func TestRetryAttempts(t *testing.T) {
	zero := func() float64 { return 0 }
	top := func() float64 { return 0.999999 }
	tests := []struct {
		name         string
		why          string
		steps        []step
		opts         middleware.RetryOptions
		wantAttempts int
		wantKind     llm.ErrorKind // of the final error; ignored on success
		wantErr      string        // substring of the final error; "" means success
		checkWaits   func(t *testing.T, waits []time.Duration)
	}{
		{
			name:  "429 with Retry-After then success",
			why:   "a rate-limited call is retried once the server's Retry-After has passed",
			steps: []step{httpErr(429, 3*time.Second), ok()},
			opts:  middleware.RetryOptions{Rand: zero}, wantAttempts: 2,
			checkWaits: func(t *testing.T, w []time.Duration) {
				if len(w) != 1 || w[0] < 3*time.Second {
					t.Errorf("waits %v, want one of at least the Retry-After 3s", w)
				}
			},
		},
		{
			name:  "429 with Retry-After above Max",
			why:   "a Retry-After within MaxRetryAfter is waited for in full, even beyond the backoff cap Max",
			steps: []step{httpErr(429, 45*time.Second), ok()},
			opts:  middleware.RetryOptions{Rand: zero, Max: 10 * time.Second}, wantAttempts: 2,
			checkWaits: func(t *testing.T, w []time.Duration) {
				if !slices.Equal(w, []time.Duration{45 * time.Second}) {
					t.Errorf("waits %v, want [45s]", w)
				}
			},
		},
		{
			name:  "429 with Retry-After beyond MaxRetryAfter",
			why:   "a server that asks for longer than the longest wait honoured (a daily quota) ends the retries at once, saying why",
			steps: []step{httpErr(429, time.Hour), ok()}, wantAttempts: 1,
			wantKind: llm.KindRateLimited, wantErr: "the server asks to wait 1h0m0s, longer than the 1m0s honoured",
		},
		{
			name:  "MaxRetryAfter raised",
			why:   "MaxRetryAfter is the option a --max-retry-after flag sets",
			steps: []step{httpErr(429, time.Hour), ok()},
			opts:  middleware.RetryOptions{Rand: zero, MaxRetryAfter: 2 * time.Hour}, wantAttempts: 2,
			checkWaits: func(t *testing.T, w []time.Duration) {
				if !slices.Equal(w, []time.Duration{time.Hour}) {
					t.Errorf("waits %v, want [1h]", w)
				}
			},
		},
		{
			name:  "429 without Retry-After",
			why:   "a rate limit with no header backs off like any retryable failure",
			steps: []step{httpErr(429, 0), ok()}, wantAttempts: 2,
		},
		{
			name:  "500 three times then success",
			why:   "server errors are retried and the fourth attempt is still allowed by default",
			steps: []step{httpErr(500, 0), httpErr(500, 0), httpErr(500, 0), ok()}, wantAttempts: 4,
		},
		{
			name:  "503 forever",
			why:   "after MaxAttempts the last error comes back, saying how many attempts were made",
			steps: []step{httpErr(503, 0)}, wantAttempts: 4,
			wantKind: llm.KindServer, wantErr: "after 4 attempts: server error (HTTP 503)",
			checkWaits: func(t *testing.T, w []time.Duration) {
				if len(w) != 3 {
					t.Errorf("%d waits, want 3 (between 4 attempts)", len(w))
				}
			},
		},
		{
			name:  "503 forever with MaxAttempts 2",
			why:   "MaxAttempts bounds the attempts",
			steps: []step{httpErr(503, 0)}, opts: middleware.RetryOptions{MaxAttempts: 2}, wantAttempts: 2,
			wantKind: llm.KindServer, wantErr: "after 2 attempts",
		},
		{
			name:  "MaxAttempts 1",
			why:   "one attempt means no retry, and the error is not wrapped",
			steps: []step{httpErr(503, 0)}, opts: middleware.RetryOptions{MaxAttempts: 1}, wantAttempts: 1,
			wantKind: llm.KindServer, wantErr: "server error (HTTP 503)",
		},
		{
			name:  "timeout kind retried",
			why:   "a call that timed out may answer next time",
			steps: []step{kindErr(llm.KindTimeout), ok()}, wantAttempts: 2,
		},
		{
			name:  "inner deadline retried",
			why:   "a bare context.DeadlineExceeded from an inner deadline is a timeout, while the caller's context is alive",
			steps: []step{{err: fmt.Errorf("posting: %w", context.DeadlineExceeded)}, ok()}, wantAttempts: 2,
		},
		{
			name:  "malformed retried",
			why:   "an unreadable reply may be readable next time",
			steps: []step{kindErr(llm.KindMalformed), kindErr(llm.KindMalformed), ok()}, wantAttempts: 3,
		},
		{
			name:  "400 not retried",
			why:   "a bad request fails the same way every time",
			steps: []step{httpErr(400, 0), ok()}, wantAttempts: 1,
			wantKind: llm.KindBadRequest, wantErr: "bad request (HTTP 400)",
		},
		{
			name:  "401 not retried",
			why:   "a bad key stays bad",
			steps: []step{httpErr(401, 0), ok()}, wantAttempts: 1,
			wantKind: llm.KindAuth, wantErr: "auth (HTTP 401)",
		},
		{
			name:  "403 not retried",
			why:   "forbidden is an auth failure",
			steps: []step{httpErr(403, 0), ok()}, wantAttempts: 1, wantKind: llm.KindAuth, wantErr: "HTTP 403",
		},
		{
			name:  "unknown error not retried",
			why:   "an error of no known kind is not assumed transient",
			steps: []step{{err: errors.New("boom")}, ok()}, wantAttempts: 1,
			wantKind: llm.KindUnknown, wantErr: "boom",
		},
		{
			name:  "context.Canceled from the backend not retried",
			why:   "a cancellation is never retried",
			steps: []step{{err: fmt.Errorf("reading: %w", context.Canceled)}, ok()}, wantAttempts: 1,
			wantKind: llm.KindUnknown, wantErr: "context canceled",
		},
		{
			name:  "server error then bad request",
			why:   "a later non-retryable failure ends the retries and says how many attempts were made",
			steps: []step{httpErr(502, 0), httpErr(400, 0)}, wantAttempts: 2,
			wantKind: llm.KindBadRequest, wantErr: "after 2 attempts: bad request (HTTP 400)",
		},
		{
			name:         "backoff doubles up to Max",
			why:          "the ceilings are Base·2^(k-1) capped by Max; jitter near 1 shows them",
			steps:        []step{httpErr(500, 0)},
			opts:         middleware.RetryOptions{MaxAttempts: 6, Base: time.Second, Max: 5 * time.Second, Rand: top},
			wantAttempts: 6, wantKind: llm.KindServer, wantErr: "after 6 attempts",
			checkWaits: func(t *testing.T, w []time.Duration) {
				ceil := []time.Duration{1, 2, 4, 5, 5}
				if len(w) != len(ceil) {
					t.Fatalf("waits %v, want %d", w, len(ceil))
				}
				for i, c := range ceil {
					c *= time.Second
					if w[i] >= c || w[i] < c*99/100 {
						t.Errorf("wait %d = %v, want just under %v", i+1, w[i], c)
					}
				}
			},
		},
		{
			name:  "full jitter",
			why:   "with the jitter at 0 the backoff is 0",
			steps: []step{httpErr(500, 0), ok()}, opts: middleware.RetryOptions{Rand: zero}, wantAttempts: 2,
			checkWaits: func(t *testing.T, w []time.Duration) {
				if !slices.Equal(w, []time.Duration{0}) {
					t.Errorf("waits %v, want [0]", w)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := scripted(tt.steps...)
			var s sleeper
			opts := tt.opts
			opts.Sleep = s.sleep
			var retried []int
			opts.OnRetry = func(attempt int, err error) {
				if err == nil {
					t.Errorf("OnRetry(%d, nil)", attempt)
				}
				retried = append(retried, attempt)
			}
			m := middleware.Retry(f, opts)
			tally := &llm.Tally{}
			reply, err := m.Generate(llm.WithTally(context.Background(), tally), testReq)
			if got := int(f.calls.Load()); got != tt.wantAttempts {
				t.Errorf("%d attempts, want %d (%s)", got, tt.wantAttempts, tt.why)
			}
			// Retry reports the failed attempts; the successful one is
			// the accounting middleware's (absent here) to count.
			wantFailed := tt.wantAttempts
			if err == nil {
				wantFailed--
			}
			if got := tally.Usage().Attempts; got != wantFailed {
				t.Errorf("tally counts %d failed attempts, want %d", got, wantFailed)
			}
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("error %v, want success (%s)", err, tt.why)
				}
				if reply.Text != okReply.Text {
					t.Errorf("reply %+v, want the scripted one", reply)
				}
			} else {
				if err == nil {
					t.Fatalf("success, want error %q (%s)", tt.wantErr, tt.why)
				}
				if !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("error %q, want it to contain %q", err, tt.wantErr)
				}
				if k := llm.KindOf(err); k != tt.wantKind {
					t.Errorf("kind %v, want %v", k, tt.wantKind)
				}
			}
			if len(s.waits) != tt.wantAttempts-1 {
				t.Errorf("%d waits for %d attempts", len(s.waits), tt.wantAttempts)
			}
			if want := seq(tt.wantAttempts - 1); !slices.Equal(retried, want) {
				t.Errorf("OnRetry attempts %v, want %v", retried, want)
			}
			if tt.checkWaits != nil {
				tt.checkWaits(t, s.waits)
			}
		})
	}
}

func seq(n int) []int {
	var s []int
	for i := 1; i <= n; i++ {
		s = append(s, i)
	}
	return s
}

func TestRetryKeepsStatus(t *testing.T) {
	m := middleware.Retry(scripted(httpErr(503, 0)), middleware.RetryOptions{Sleep: (&sleeper{}).sleep})
	_, err := m.Generate(context.Background(), testReq)
	var e *llm.Error
	if !errors.As(err, &e) || e.Status != 503 {
		t.Fatalf("error %v does not unwrap to the HTTP 503 *llm.Error", err)
	}
}

func TestRetryCancelledDuringBackoff(t *testing.T) {
	t.Run("injected sleep", func(t *testing.T) {
		// The caller gives up while Retry waits: it must return at once,
		// with no further attempt.
		f := scripted(httpErr(503, 0))
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		sleeps := 0
		m := middleware.Retry(f, middleware.RetryOptions{Sleep: func(ctx context.Context, d time.Duration) error {
			sleeps++
			cancel()
			return ctx.Err()
		}})
		_, err := m.Generate(ctx, testReq)
		if f.calls.Load() != 1 || sleeps != 1 {
			t.Errorf("%d attempts and %d sleeps, want 1 and 1", f.calls.Load(), sleeps)
		}
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want it to wrap context.Canceled", err)
		}
		if !strings.Contains(err.Error(), "HTTP 503") {
			t.Errorf("error %v does not say what the last failure was", err)
		}
	})
	t.Run("default sleep", func(t *testing.T) {
		// A backoff of an hour ends as soon as the context is cancelled.
		f := scripted(httpErr(503, 0))
		ctx, cancel := context.WithCancel(context.Background())
		m := middleware.Retry(f, middleware.RetryOptions{Base: time.Hour, Max: time.Hour,
			Rand:    func() float64 { return 0.5 },
			OnRetry: func(int, error) { go cancel() }})
		done := make(chan error, 1)
		go func() {
			_, err := m.Generate(ctx, testReq)
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) || f.calls.Load() != 1 {
				t.Errorf("error %v after %d attempts, want context.Canceled after 1", err, f.calls.Load())
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Retry kept waiting after its context was cancelled")
		}
	})
	t.Run("context done before a retry", func(t *testing.T) {
		// The attempt failed because the caller's deadline passed: do not
		// retry, even though the failure looks like a timeout.
		ctx, cancel := context.WithCancel(context.Background())
		f := &fake{name: "fake", do: func(context.Context, int, llm.Request) (llm.Reply, error) {
			cancel()
			return llm.Reply{}, &llm.Error{Kind: llm.KindTimeout, Err: context.DeadlineExceeded}
		}}
		_, err := middleware.Retry(f, middleware.RetryOptions{Sleep: (&sleeper{}).sleep}).Generate(ctx, testReq)
		if err == nil || f.calls.Load() != 1 {
			t.Errorf("error %v after %d attempts, want a failure after 1", err, f.calls.Load())
		}
	})
}

func TestRetryDeterministicJitter(t *testing.T) {
	run := func(opts middleware.RetryOptions) []time.Duration {
		var s sleeper
		opts.Sleep = s.sleep
		opts.MaxAttempts = 8
		m := middleware.Retry(scripted(httpErr(503, 0)), opts)
		for range 3 {
			m.Generate(context.Background(), testReq)
		}
		return s.waits
	}
	a, b := run(middleware.RetryOptions{}), run(middleware.RetryOptions{})
	if !slices.Equal(a, b) {
		t.Errorf("default jitter differs between runs:\n%v\n%v", a, b)
	}
	if len(a) != 21 || slices.Min(a) == slices.Max(a) {
		t.Errorf("waits %v: want 21 jittered waits", a)
	}
	for i, d := range a {
		if d < 0 || d >= middleware.DefaultMax {
			t.Errorf("wait %d = %v, out of [0, %v)", i, d, middleware.DefaultMax)
		}
	}
}

func TestRetryConcurrent(t *testing.T) {
	// The default jitter source is shared by concurrent calls; -race
	// checks that it is guarded.
	f := &fake{name: "fake", do: func(_ context.Context, n int, _ llm.Request) (llm.Reply, error) {
		if n%2 == 0 {
			return llm.Reply{}, &llm.Error{Kind: llm.KindServer, Status: 500, Err: errors.New("flaky")}
		}
		return okReply, nil
	}}
	m := middleware.Retry(f, middleware.RetryOptions{MaxAttempts: 100, Sleep: (&sleeper{}).sleep})
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			if _, err := m.Generate(context.Background(), testReq); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}

// TestRetryAttemptsInTally: behind the accounting middleware, an episode's
// usage counts each call once and each attempt once, so that retries show
// in cost; a call that fails for good adds its attempts and no call.
func TestRetryAttemptsInTally(t *testing.T) {
	tests := []struct {
		name, why              string
		steps                  []step
		wantCalls, wantAttempt int
	}{
		{"no retry", "one attempt, one call", []step{ok()}, 1, 1},
		{"two retries", "two 500s then a reply: one call, three attempts", []step{httpErr(500, 0), httpErr(500, 0), ok()}, 1, 3},
		{"exhausted", "four 503s: no call, four attempts", []step{httpErr(503, 0)}, 0, 4},
		{"not retried", "a 400 is one failed attempt", []step{httpErr(400, 0)}, 0, 1},
	}
	for _, tc := range tests {
		m := middleware.Account(middleware.Retry(scripted(tc.steps...), middleware.RetryOptions{Sleep: (&sleeper{}).sleep}))
		tally := &llm.Tally{}
		m.Generate(llm.WithTally(context.Background(), tally), testReq)
		if u := tally.Usage(); u.Calls != tc.wantCalls || u.Attempts != tc.wantAttempt {
			t.Errorf("%s (%s): %d calls and %d attempts, want %d and %d", tc.name, tc.why, u.Calls, u.Attempts, tc.wantCalls, tc.wantAttempt)
		}
	}
}
