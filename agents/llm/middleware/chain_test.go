package middleware_test

import (
	"context"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/middleware"
)

type tracer struct {
	next llm.Model
	tag  string
	log  *[]string
}

func (t tracer) Name() string { return t.next.Name() }
func (t tracer) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	*t.log = append(*t.log, t.tag)
	return t.next.Generate(ctx, req)
}

func TestChainOrder(t *testing.T) {
	var log []string
	trace := func(tag string) func(llm.Model) llm.Model {
		return func(m llm.Model) llm.Model { return tracer{m, tag, &log} }
	}
	m := middleware.Chain(instant(), trace("a"), trace("b"), trace("c"))
	m.Generate(context.Background(), testReq)
	if want := []string{"c", "b", "a"}; !slices.Equal(log, want) {
		t.Errorf("call order %v, want %v: the last wrapper is outermost", log, want)
	}
	if m := middleware.Chain(instant()); m.Name() != "fake:instant" {
		t.Errorf("empty chain: %q", m.Name())
	}
}

// stack is the chain of the benchmark: every middleware of the package.
func stack(m llm.Model) llm.Model {
	return middleware.Chain(m,
		middleware.Account,
		func(m llm.Model) llm.Model { return middleware.Limit(m, 4) },
		func(m llm.Model) llm.Model { return middleware.Timeout(m, time.Minute) },
		func(m llm.Model) llm.Model { return middleware.Retry(m, middleware.RetryOptions{}) },
		func(m llm.Model) llm.Model { return middleware.Transcript(m, io.Discard) },
		func(m llm.Model) llm.Model { return middleware.RateLimit(m, 0, 0) },
	)
}

func TestEveryWrapperKeepsName(t *testing.T) {
	f := instant()
	for _, m := range []llm.Model{
		middleware.Retry(f, middleware.RetryOptions{}), middleware.RateLimit(f, 60, 1000),
		middleware.Limit(f, 1), middleware.Timeout(f, time.Second), middleware.Account(f),
		middleware.Transcript(f, io.Discard), stack(f),
	} {
		if m.Name() != f.Name() {
			t.Errorf("%T: Name %q, want %q", m, m.Name(), f.Name())
		}
	}
}

// BenchmarkChainOverhead measures what the middleware costs a call: the
// model answers at once, so ns/op and allocs/op are the stack's own.
func BenchmarkChainOverhead(b *testing.B) {
	m := middleware.Chain(instant(),
		middleware.Account,
		func(m llm.Model) llm.Model { return middleware.Limit(m, 4) },
		func(m llm.Model) llm.Model { return middleware.Timeout(m, time.Minute) },
		func(m llm.Model) llm.Model { return middleware.Retry(m, middleware.RetryOptions{}) },
		func(m llm.Model) llm.Model { return middleware.Transcript(m, io.Discard) },
	)
	var tally llm.Tally
	ctx := llm.WithEpisode(llm.WithTally(context.Background(), &tally), "bench/0")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Generate(ctx, testReq); err != nil {
			b.Fatal(err)
		}
	}
}
