package llm

import (
	"context"
	"sort"
	"sync"
	"time"
)

// Tally counts the calls of one episode. The accounting middleware adds to
// the Tally found in the call's context.
type Tally struct {
	mu             sync.Mutex
	calls          int
	failedAttempts int
	inputTokens    int
	outputTokens   int
	latencies      []time.Duration
	failures       []error // errors of the calls that failed, the first maxFailures
}

// maxFailures bounds the errors a Tally keeps: an episode that fails call
// after call needs only a few to tell what went wrong.
const maxFailures = 16

// Fail records a call that returned err instead of a reply. The harness
// reads it to tell an episode the provider failed from one the agent
// failed: a workflow may carry on after a failed call, and what it records
// of the failure is its own business.
func (t *Tally) Fail(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.failures) < maxFailures {
		t.failures = append(t.failures, err)
	}
}

// Failures returns the errors of the calls that failed, the first
// maxFailures of them, in order.
func (t *Tally) Failures() []error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]error(nil), t.failures...)
}

// Add records one call.
func (t *Tally) Add(r Reply) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.calls++
	t.inputTokens += r.InputTokens
	t.outputTokens += r.OutputTokens
	t.latencies = append(t.latencies, r.Latency)
}

// AddFailedAttempts records n attempts at a call that failed: the
// retries before a call succeeded, or every attempt of a call that failed
// for good. The retry middleware reports them; a successful attempt is
// counted by [Tally.Add].
// A nil Tally counts nothing.
func (t *Tally) AddFailedAttempts(n int) {
	if t == nil || n <= 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.failedAttempts += n
}

// Usage is a summary of a Tally.
type Usage struct {
	// Calls counts the calls that got a reply; Attempts counts those and
	// every failed attempt reported by the retry middleware, so that
	// Attempts - Calls is what retries and failures cost. A call that
	// went through no retry middleware counts one attempt if it succeeded
	// and none if it failed.
	Calls, Attempts, InputTokens, OutputTokens int
	LatencyP50, LatencyP95                     time.Duration
}

// Usage summarises the calls so far.
func (t *Tally) Usage() Usage {
	t.mu.Lock()
	defer t.mu.Unlock()
	u := Usage{Calls: t.calls, Attempts: t.calls + t.failedAttempts, InputTokens: t.inputTokens, OutputTokens: t.outputTokens}
	if n := len(t.latencies); n > 0 {
		l := append([]time.Duration(nil), t.latencies...)
		sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
		u.LatencyP50 = l[(n-1)*50/100]
		u.LatencyP95 = l[(n-1)*95/100]
	}
	return u
}

type tallyKey struct{}
type episodeKey struct{}

// WithTally returns a context whose calls are counted in t.
func WithTally(ctx context.Context, t *Tally) context.Context {
	return context.WithValue(ctx, tallyKey{}, t)
}

// TallyFrom returns the context's Tally, or nil.
func TallyFrom(ctx context.Context) *Tally {
	t, _ := ctx.Value(tallyKey{}).(*Tally)
	return t
}

// WithEpisode names the episode a call belongs to, for transcripts and for
// the errors of a cassette miss.
func WithEpisode(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, episodeKey{}, id)
}

// WithRepeat marks the calls of one repeat of an episode (ambibench run
// --repeats): a model that samples deterministically, as the simulated
// one does, mixes r into its draws when r > 0, so that each repeat draws
// independently; repeat 0 draws as a run without repeats.
func WithRepeat(ctx context.Context, r int) context.Context {
	return context.WithValue(ctx, repeatKey{}, r)
}

// RepeatFrom returns the repeat of a context, or 0.
func RepeatFrom(ctx context.Context) int {
	r, _ := ctx.Value(repeatKey{}).(int)
	return r
}

type repeatKey struct{}

// EpisodeFrom returns the episode name of a context, or "".
func EpisodeFrom(ctx context.Context) string {
	s, _ := ctx.Value(episodeKey{}).(string)
	return s
}
