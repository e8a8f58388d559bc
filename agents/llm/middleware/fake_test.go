package middleware_test

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
)

// fake is a model whose calls follow a script and are counted.
type fake struct {
	name  string
	calls atomic.Int64
	// do answers call number n (0 for the first).
	do func(ctx context.Context, n int, req llm.Request) (llm.Reply, error)
}

func (f *fake) Name() string { return f.name }

func (f *fake) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	n := int(f.calls.Add(1)) - 1
	return f.do(ctx, n, req)
}

// step is one scripted outcome: a reply when err is nil.
type step struct {
	reply llm.Reply
	err   error
}

// scripted answers call n with steps[n], repeating the last step forever.
func scripted(steps ...step) *fake {
	return &fake{name: "fake:scripted", do: func(_ context.Context, n int, _ llm.Request) (llm.Reply, error) {
		s := steps[min(n, len(steps)-1)]
		return s.reply, s.err
	}}
}

var okReply = llm.Reply{Text: "ok", FinishReason: llm.FinishStop, InputTokens: 10, OutputTokens: 2, Latency: 3 * time.Millisecond}

func ok() step { return step{reply: okReply} }

// httpErr is a backend failure with an HTTP status, kinded as backends do.
func httpErr(status int, retryAfter time.Duration) step {
	return step{err: &llm.Error{
		Kind: llm.KindForStatus(status), Status: status, RetryAfter: retryAfter,
		Err: errors.New(http.StatusText(status)),
	}}
}

func kindErr(k llm.ErrorKind) step {
	return step{err: &llm.Error{Kind: k, Err: errors.New("scripted " + k.String())}}
}

func instant() *fake {
	return &fake{name: "fake:instant", do: func(context.Context, int, llm.Request) (llm.Reply, error) {
		return okReply, nil
	}}
}

var testReq = llm.Request{
	System:   "You plan.",
	Messages: []llm.Message{{Role: llm.RoleUser, Text: "put the red block in the bowl"}},
	Tools:    []llm.ToolDecl{{Name: "pick_and_place", Description: "move an object", Schema: []byte(`{"type":"object"}`)}},
	Seed:     7,
}
