package anthropic_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/anthropic"
)

// A Claude model reached over the Messages API; here the server is a
// stand-in on loopback that answers every call with one reply.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-5-5",
			"content":[{"type":"text","text":"The red block is in the blue bowl."}],
			"stop_reason":"end_turn","usage":{"input_tokens":12,"output_tokens":9}}`)
	}))
	defer srv.Close()

	m, err := anthropic.New("claude-sonnet-5-5", anthropic.Options{BaseURL: srv.URL})
	if err != nil {
		fmt.Println(err)
		return
	}
	reply, err := m.Generate(context.Background(), llm.Request{
		System:   "You control a robot arm.",
		Messages: []llm.Message{{Role: llm.RoleUser, Text: "Where is the red block?"}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Name())
	fmt.Println(reply.Text, reply.FinishReason, reply.ProviderFinish, reply.InputTokens, reply.OutputTokens)
	// Output:
	// anthropic:claude-sonnet-5-5
	// The red block is in the blue bowl. stop end_turn 12 9
}
