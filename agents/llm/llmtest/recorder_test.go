package llmtest_test

import (
	"context"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/llmtest"
	"github.com/ambibench/ambibench/agents/llm/simmodel"
)

// The recorder keeps the requests in order and passes the replies on
// unchanged.
func TestRecorderKeepsRequests(t *testing.T) {
	inner := simmodel.New(simmodel.Perfect, "sim:perfect")
	rec := &llmtest.Recorder{Model: inner}
	for _, text := range []string{"first", "second"} {
		req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: text}}}
		got, err := rec.Generate(context.Background(), req)
		want, werr := inner.Generate(context.Background(), req)
		if (err == nil) != (werr == nil) || got.Text != want.Text {
			t.Errorf("%s: reply %q (%v), want %q (%v)", text, got.Text, err, want.Text, werr)
		}
	}
	reqs := rec.Requests()
	if len(reqs) != 2 || reqs[0].Messages[0].Text != "first" || reqs[1].Messages[0].Text != "second" {
		t.Errorf("kept %+v, want the two requests in order", reqs)
	}
}
