package openai_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/openai"
	"github.com/ambibench/ambibench/agents/llm/serve"
)

// A model reached over the OpenAI API; here the server is this project's
// own serve.Handler on loopback, in front of a stand-in model.
func Example() {
	srv := httptest.NewServer(serve.Handler(&recorder{reply: llm.Reply{
		Text:         "The red block is in the blue bowl.",
		FinishReason: llm.FinishStop,
		InputTokens:  12,
		OutputTokens: 9,
	}}))
	defer srv.Close()

	m, err := openai.New("local-model", openai.Options{BaseURL: srv.URL + "/v1"})
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
	fmt.Println(reply.Text, reply.FinishReason, reply.InputTokens, reply.OutputTokens)
	// Output:
	// openai:local-model
	// The red block is in the blue bowl. stop 12 9
}
