package llm_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
)

func TestIsInfra(t *testing.T) {
	kind := func(k llm.ErrorKind) error { return &llm.Error{Kind: k, Err: errors.New("x")} }
	tests := []struct {
		name, why string
		err       error
		want      bool
	}{
		{"nil", "no failure is nobody's", nil, false},
		{"transport", "a refused or dropped connection maps to a server error", &llm.Error{Kind: llm.KindServer, Err: errors.New("connection refused")}, true},
		{"retries exhausted on 429", "the provider's quota, not the agent", fmt.Errorf("after 4 attempts: %w", &llm.Error{Kind: llm.KindRateLimited, Status: 429, Err: errors.New("slow down")}), true},
		{"retries exhausted on 500", "the provider failed", fmt.Errorf("after 4 attempts: %w", &llm.Error{Kind: llm.KindServer, Status: 500, Err: errors.New("boom")}), true},
		{"timeout", "no answer in time", kind(llm.KindTimeout), true},
		{"bare deadline", "a deadline that no backend mapped is still a timeout", fmt.Errorf("posting: %w", context.DeadlineExceeded), true},
		{"cancelled", "a run stopped with Ctrl-C leaves the episode to re-run", fmt.Errorf("model: %w", context.Canceled), true},
		{"bad request", "a request the provider rejects as malformed, or a model setting it refuses", &llm.Error{Kind: llm.KindBadRequest, Status: 400, Err: errors.New("temperature unsupported")}, true},
		{"auth", "a missing or refused key", &llm.Error{Kind: llm.KindAuth, Status: 401, Err: errors.New("who")}, true},
		{"malformed body", "an HTTP reply cut short is the transport's failure", kind(llm.KindMalformed), true},
		{"cassette", "a corrupt cassette file or a replay miss", kind(llm.KindCassette), true},
		{"unknown kind", "an *Error of no known kind came from the model layer, not from the agent", kind(llm.KindUnknown), true},
		{"context length", "the model's own limit is the agent's failure", &llm.Error{Kind: llm.KindRefused, Status: 400, Err: errors.New("context length exceeded")}, false},
		{"safety", "a safety block is the agent's failure", kind(llm.KindRefused), false},
		{"too large", "a reply past the size limit is the agent's failure", kind(llm.KindTooLarge), false},
		{"wrapped refusal", "a workflow's wrapping keeps the kind", fmt.Errorf("direct: plan: %w", kind(llm.KindRefused)), false},
		{"agent's own", "an error with no *Error in it is the workflow's (an unusable reply)", errors.New("semmap reply: no JSON object"), false},
		{"joined", "the first *Error in the chain decides", errors.Join(errors.New("parse"), kind(llm.KindServer)), true},
	}
	for _, tc := range tests {
		if got := llm.IsInfra(tc.err); got != tc.want {
			t.Errorf("%s (%s): IsInfra(%v) = %v, want %v", tc.name, tc.why, tc.err, got, tc.want)
		}
	}
}

func TestKindRetryable(t *testing.T) {
	tests := []struct {
		kind llm.ErrorKind
		why  string
		want bool
	}{
		{llm.KindRateLimited, "a quota refills", true},
		{llm.KindServer, "a server recovers", true},
		{llm.KindTimeout, "the next attempt may be quicker", true},
		{llm.KindMalformed, "a body cut short may come whole next time", true},
		{llm.KindBadRequest, "the same request fails the same way", false},
		{llm.KindRefused, "the model's limit does not move", false},
		{llm.KindTooLarge, "the same prompt makes the same enormous reply", false},
		{llm.KindCassette, "a file does not mend itself", false},
	}
	for _, tc := range tests {
		if got := tc.kind.Retryable(); got != tc.want {
			t.Errorf("%v (%s): Retryable() = %v, want %v", tc.kind, tc.why, got, tc.want)
		}
	}
	if s := llm.ErrorKind(99).String(); s != "kind 99" {
		t.Errorf("unnamed kind prints %q", s)
	}
}
