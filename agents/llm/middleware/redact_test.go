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

// Redact takes the keys out of what the model returns, keeps its name,
// and a retry outside it sees the error's kind and wait unchanged: a
// rate-limited call whose message quotes the key is retried, and the
// retry's log never shows the key.
func TestRedact(t *testing.T) {
	const key = "sk-test-REDACT-9090"
	secrets := llm.NewSecrets(key)
	if m := scripted(ok()); middleware.Redact(m, llm.NewSecrets()) != llm.Model(m) {
		t.Error("with no secret the model is not returned as it is")
	}
	m := scripted(
		step{err: &llm.Error{Kind: llm.KindRateLimited, Status: 429, RetryAfter: time.Millisecond, Err: errors.New("slow down, " + key)}},
		step{reply: llm.Reply{Text: "your key is " + key, FinishReason: llm.FinishStop}},
	)
	var logged []string
	r := middleware.Retry(middleware.Redact(m, secrets), middleware.RetryOptions{MaxAttempts: 2,
		OnRetry: func(_ int, err error) { logged = append(logged, err.Error()) }})
	reply, err := r.Generate(context.Background(), llm.Request{})
	if err != nil || reply.Text != "your key is [redacted]" {
		t.Fatalf("reply %+v, %v", reply, err)
	}
	if len(logged) != 1 || strings.Contains(logged[0], key) || !strings.Contains(logged[0], "rate limited (HTTP 429)") {
		t.Errorf("the retry saw %q", logged)
	}
	if r.Name() != "fake:scripted" {
		t.Errorf("name %q", r.Name())
	}
}
