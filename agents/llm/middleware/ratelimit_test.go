package middleware_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/middleware"
)

func TestEstimateTokens(t *testing.T) {
	for _, tt := range []struct {
		name string
		why  string
		req  llm.Request
		want int
	}{
		{"empty", "an empty request still costs a token", llm.Request{}, 1},
		{"system", "the system text counts", llm.Request{System: strings.Repeat("a", 40)}, 10},
		{"messages", "every message's text counts", llm.Request{Messages: []llm.Message{
			{Role: llm.RoleUser, Text: strings.Repeat("a", 20)}, {Role: llm.RoleAssistant, Text: strings.Repeat("b", 20)},
		}}, 10},
		{"tool calls", "echoed tool calls count by name and arguments", llm.Request{Messages: []llm.Message{
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "1", Name: "ask", Args: []byte(`{"q":"which one?"}`)}}},
		}}, (3 + 18) / 4},
		{"tools", "declarations count by name, description and schema", llm.Request{Tools: []llm.ToolDecl{
			{Name: "act", Description: "does it", Schema: []byte(`{"type":"object"}`)},
		}}, (3 + 7 + 17) / 4},
		{"response schema", "the structured-output schema counts", llm.Request{ResponseSchema: []byte(`{"type":"array"}`)}, 4},
	} {
		if got := middleware.EstimateTokens(tt.req); got != tt.want {
			t.Errorf("%s: EstimateTokens = %d, want %d (%s)", tt.name, got, tt.want, tt.why)
		}
	}
}

// deadline is a context that a limiter can see it could not wait for:
// rate.Limiter refuses at once a wait that would pass the deadline, so
// these tests take no real time.
func deadline(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestRateLimit(t *testing.T) {
	big := llm.Reply{Text: "long", InputTokens: 900, OutputTokens: 900}
	small := llm.Reply{Text: "short"}
	tests := []struct {
		name       string
		why        string
		rpm, tpm   int
		reply      llm.Reply
		req        llm.Request
		secondErr  string // "" when the second call must pass at once
		wantCalls2 int64
	}{
		{
			name: "no limits", why: "zero limits pass everything",
			rpm: 0, tpm: 0, reply: big, req: testReq, wantCalls2: 2,
		},
		{
			name: "requests per minute", why: "at 1 rpm a second call must wait a minute",
			rpm: 1, reply: small, req: testReq, secondErr: "request slot", wantCalls2: 1,
		},
		{
			name: "usage beyond the estimate", why: "the real usage is charged, so the budget is in debt after a big reply",
			tpm: 600, reply: big, req: testReq, secondErr: "waiting for", wantCalls2: 1,
		},
		{
			name: "usage within the estimate", why: "a reply reporting no usage leaves the estimate charged and the budget ample",
			tpm: 600, reply: small, req: testReq, wantCalls2: 2,
		},
		{
			name: "estimate above the budget", why: "a request larger than a minute's budget is clamped to it, not refused",
			tpm: 10, reply: small, req: llm.Request{System: strings.Repeat("x", 4000)},
			secondErr: "waiting for 10 tokens", wantCalls2: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := scripted(step{reply: tt.reply})
			m := middleware.RateLimit(f, tt.rpm, tt.tpm)
			if m.Name() != f.Name() {
				t.Errorf("Name %q, want %q", m.Name(), f.Name())
			}
			if _, err := m.Generate(deadline(t), tt.req); err != nil {
				t.Fatalf("first call: %v (%s)", err, tt.why)
			}
			_, err := m.Generate(deadline(t), tt.req)
			if tt.secondErr == "" && err != nil {
				t.Errorf("second call: %v, want it to pass (%s)", err, tt.why)
			}
			if tt.secondErr != "" && (err == nil || !strings.Contains(err.Error(), tt.secondErr)) {
				t.Errorf("second call: error %v, want one containing %q (%s)", err, tt.secondErr, tt.why)
			}
			if c := f.calls.Load(); c != tt.wantCalls2 {
				t.Errorf("%d calls reached the model, want %d", c, tt.wantCalls2)
			}
		})
	}
}

func TestRateLimitCancelled(t *testing.T) {
	m := middleware.RateLimit(instant(), 1, 0)
	m.Generate(context.Background(), testReq)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(10*time.Millisecond, cancel)
	start := time.Now()
	_, err := m.Generate(ctx, testReq)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if time.Since(start) > 10*time.Second {
		t.Error("the wait did not end with its context")
	}
}
