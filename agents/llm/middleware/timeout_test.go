package middleware_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/middleware"
)

func TestTimeout(t *testing.T) {
	hang := make(chan struct{})
	t.Cleanup(func() { close(hang) })
	tests := []struct {
		name      string
		why       string
		do        func(ctx context.Context, n int, req llm.Request) (llm.Reply, error)
		ctx       func() (context.Context, context.CancelFunc)
		wantKind  llm.ErrorKind
		wantIs    error
		wantReply bool
	}{
		{
			name: "hung model ignoring its context",
			why:  "the deadline holds even when the backend never looks at ctx",
			do: func(context.Context, int, llm.Request) (llm.Reply, error) {
				<-hang
				return okReply, nil
			},
			wantKind: llm.KindTimeout, wantIs: context.DeadlineExceeded,
		},
		{
			name: "hung model honouring its context",
			why:  "a backend returning ctx.Err() at our deadline is a timeout",
			do: func(ctx context.Context, _ int, _ llm.Request) (llm.Reply, error) {
				<-ctx.Done()
				return llm.Reply{}, ctx.Err()
			},
			wantKind: llm.KindTimeout, wantIs: context.DeadlineExceeded,
		},
		{
			name: "fast model",
			why:  "a reply in time passes through unchanged",
			do: func(context.Context, int, llm.Request) (llm.Reply, error) {
				return okReply, nil
			},
			wantReply: true,
		},
		{
			name: "fast failure",
			why:  "an error in time passes through unchanged",
			do: func(context.Context, int, llm.Request) (llm.Reply, error) {
				return llm.Reply{}, &llm.Error{Kind: llm.KindAuth, Status: 401, Err: errors.New("no")}
			},
			wantKind: llm.KindAuth,
		},
		{
			name: "caller cancels first",
			why:  "the caller's own cancellation is not a timeout",
			do: func(ctx context.Context, _ int, _ llm.Request) (llm.Reply, error) {
				<-hang
				return okReply, nil
			},
			ctx: func() (context.Context, context.CancelFunc) {
				ctx, cancel := context.WithCancel(context.Background())
				time.AfterFunc(time.Millisecond, cancel)
				return ctx, cancel
			},
			wantKind: llm.KindUnknown, wantIs: context.Canceled,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.Background(), context.CancelFunc(func() {})
			if tt.ctx != nil {
				ctx, cancel = tt.ctx()
			}
			defer cancel()
			d := 30 * time.Millisecond
			if tt.ctx != nil {
				d = time.Hour
			}
			m := middleware.Timeout(&fake{name: "fake", do: tt.do}, d)
			done := make(chan struct{})
			var (
				reply llm.Reply
				err   error
			)
			go func() {
				reply, err = m.Generate(ctx, testReq)
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("Timeout(%v) did not return (%s)", d, tt.why)
			}
			if tt.wantReply {
				if err != nil || reply.Text != okReply.Text {
					t.Fatalf("got %+v, %v; want the reply (%s)", reply, err, tt.why)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error (%s)", tt.why)
			}
			if k := llm.KindOf(err); k != tt.wantKind {
				t.Errorf("kind %v of %v, want %v (%s)", k, err, tt.wantKind, tt.why)
			}
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Errorf("error %v does not wrap %v", err, tt.wantIs)
			}
			if tt.wantKind == llm.KindTimeout {
				var e *llm.Error
				if !errors.As(err, &e) || e.Kind != llm.KindTimeout {
					t.Errorf("error %v is not an *llm.Error of KindTimeout", err)
				}
			}
		})
	}
}

func TestTimeoutIsRetried(t *testing.T) {
	// Timeout inside Retry: the first attempt hangs, the second answers.
	f := &fake{name: "fake", do: func(ctx context.Context, n int, _ llm.Request) (llm.Reply, error) {
		if n == 0 {
			<-ctx.Done()
			return llm.Reply{}, ctx.Err()
		}
		return okReply, nil
	}}
	m := middleware.Chain(f,
		func(m llm.Model) llm.Model { return middleware.Timeout(m, 10*time.Millisecond) },
		func(m llm.Model) llm.Model {
			return middleware.Retry(m, middleware.RetryOptions{Sleep: (&sleeper{}).sleep})
		})
	if _, err := m.Generate(context.Background(), testReq); err != nil || f.calls.Load() != 2 {
		t.Errorf("error %v after %d attempts, want success after 2", err, f.calls.Load())
	}
}

func TestTimeoutZeroIsNoDeadline(t *testing.T) {
	f := instant()
	if m := middleware.Timeout(f, 0); m != llm.Model(f) {
		t.Errorf("Timeout(m, 0) = %T, want m itself", m)
	}
}
