package middleware_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/middleware"
)

func TestLimitCapsCallsInFlight(t *testing.T) {
	for _, tt := range []struct {
		name string
		why  string
		n    int
		cap  int64
	}{
		{"n=1", "one slot serialises the calls", 1, 1},
		{"n=2", "two slots: never a third call in flight", 2, 2},
		{"n=5", "a wider cap is met exactly", 5, 5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var inFlight, peak atomic.Int64
			f := &fake{name: "fake", do: func(context.Context, int, llm.Request) (llm.Reply, error) {
				cur := inFlight.Add(1)
				for p := peak.Load(); cur > p && !peak.CompareAndSwap(p, cur); p = peak.Load() {
				}
				time.Sleep(200 * time.Microsecond)
				inFlight.Add(-1)
				return okReply, nil
			}}
			m := middleware.Limit(f, tt.n)
			var wg sync.WaitGroup
			for range 40 {
				wg.Go(func() {
					if _, err := m.Generate(context.Background(), testReq); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			if p := peak.Load(); p > tt.cap {
				t.Errorf("%d calls in flight, want at most %d (%s)", p, tt.cap, tt.why)
			}
			if c := f.calls.Load(); c != 40 {
				t.Errorf("%d calls made, want 40", c)
			}
		})
	}
}

func TestLimitWaitHonoursContext(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 2)
	f := &fake{name: "fake", do: func(context.Context, int, llm.Request) (llm.Reply, error) {
		started <- struct{}{}
		<-release
		return okReply, nil
	}}
	m := middleware.Limit(f, 2)
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() { m.Generate(context.Background(), testReq) })
	}
	<-started
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := m.Generate(ctx, testReq)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want the context's deadline while both slots are busy", err)
	}
	if c := f.calls.Load(); c != 2 {
		t.Errorf("%d calls reached the model, want 2", c)
	}
	close(release)
	wg.Wait()
}

func TestLimitZeroIsNoLimit(t *testing.T) {
	f := instant()
	if m := middleware.Limit(f, 0); m != llm.Model(f) {
		t.Errorf("Limit(m, 0) = %T, want m itself", m)
	}
}
