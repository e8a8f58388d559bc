package serve_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/serve"
)

// Any OpenAI client can call a model served by Handler.
func ExampleHandler() {
	m := &fake{reply: llm.Reply{Text: "Which bowl?", FinishReason: llm.FinishStop, InputTokens: 7, OutputTokens: 3}}
	srv := httptest.NewServer(serve.Handler(m))
	defer srv.Close()

	resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(
		`{"model":"anything","messages":[{"role":"user","content":"Put the block in the bowl."}],"temperature":0}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var c struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage struct {
			TotalTokens int `json:"total_tokens"`
		} `json:"usage"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.StatusCode, c.Choices[0].Message.Content, c.Choices[0].FinishReason, c.Usage.TotalTokens)
	fmt.Printf("%q\n", m.got[0].Messages[0].Text)
	// Output:
	// 200 Which bowl? stop 10
	// "Put the block in the bowl."
}
