package middleware_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/middleware"
)

func TestAccount(t *testing.T) {
	tests := []struct {
		name      string
		why       string
		steps     []step
		calls     int
		want      llm.Usage
		zeroLat   bool // the reply reports no latency
		wantError bool
	}{
		{
			name: "two replies", why: "every successful reply is counted with its tokens",
			steps: []step{ok()}, calls: 2,
			want: llm.Usage{Calls: 2, Attempts: 2, InputTokens: 20, OutputTokens: 4, LatencyP50: 3 * time.Millisecond, LatencyP95: 3 * time.Millisecond},
		},
		{
			name: "failure", why: "a failed call costs no recorded tokens and is not counted",
			steps: []step{httpErr(500, 0)}, calls: 1, wantError: true,
		},
		{
			name: "failure then success", why: "only the success is counted",
			steps: []step{httpErr(500, 0), ok()}, calls: 2,
			want: llm.Usage{Calls: 1, Attempts: 1, InputTokens: 10, OutputTokens: 2, LatencyP50: 3 * time.Millisecond, LatencyP95: 3 * time.Millisecond},
		},
		{
			name: "no latency reported", why: "Account measures the call when the backend does not",
			steps: []step{{reply: llm.Reply{Text: "x", InputTokens: 1}}}, calls: 1, zeroLat: true,
			want: llm.Usage{Calls: 1, Attempts: 1, InputTokens: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tally llm.Tally
			ctx := llm.WithTally(context.Background(), &tally)
			m := middleware.Account(scripted(tt.steps...))
			var last llm.Reply
			var err error
			for range tt.calls {
				last, err = m.Generate(ctx, testReq)
			}
			if (err != nil) != tt.wantError {
				t.Fatalf("error %v, want error %v", err, tt.wantError)
			}
			got := tally.Usage()
			if tt.zeroLat {
				if last.Latency <= 0 || got.LatencyP50 != last.Latency {
					t.Errorf("latency %v in reply, %v in tally; want the measured one in both (%s)", last.Latency, got.LatencyP50, tt.why)
				}
				got.LatencyP50, got.LatencyP95 = 0, 0
			}
			if got != tt.want {
				t.Errorf("usage %+v, want %+v (%s)", got, tt.want, tt.why)
			}
		})
	}
}

func TestAccountWithoutTally(t *testing.T) {
	// No tally in the context: the call simply passes.
	reply, err := middleware.Account(instant()).Generate(context.Background(), testReq)
	if err != nil || reply.Text != okReply.Text {
		t.Errorf("got %+v, %v", reply, err)
	}
	_, err = middleware.Account(scripted(step{err: errors.New("x")})).Generate(context.Background(), testReq)
	if err == nil {
		t.Error("error dropped")
	}
}
