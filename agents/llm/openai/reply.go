package openai

import (
	"encoding/json"
	"errors"
	"fmt"

	oa "github.com/openai/openai-go/v3"

	"github.com/ambibench/ambibench/agents/llm"
)

// decodeReply reads the body of a successful chat completion. Any error it
// returns means the body could not be read as one. refusal is not empty
// when the model declined: a content filter stopped it, or it sent a
// refusal message (then the reply's text).
func decodeReply(body []byte) (r llm.Reply, refusal string, err error) {
	if !json.Valid(body) {
		return llm.Reply{}, "", fmt.Errorf("reply body is not valid JSON (%d bytes; cut short or not JSON)", len(body))
	}
	var c oa.ChatCompletion
	if err := json.Unmarshal(body, &c); err != nil {
		return llm.Reply{}, "", fmt.Errorf("reading reply: %w", err)
	}
	if len(c.Choices) == 0 {
		return llm.Reply{}, "", errors.New("reply has no choices")
	}
	ch := c.Choices[0]
	r = llm.Reply{
		Text:           ch.Message.Content,
		ProviderFinish: ch.FinishReason,
		InputTokens:    int(c.Usage.PromptTokens),
		OutputTokens:   int(c.Usage.CompletionTokens),
	}
	for i, tc := range ch.Message.ToolCalls {
		if tc.Type != "function" && tc.Type != "" {
			return llm.Reply{}, "", fmt.Errorf("tool call %d has type %q; only function calls are declared", i, tc.Type)
		}
		var args json.RawMessage
		if tc.Function.Arguments != "" {
			// Kept as sent, even if it is not JSON: the caller decides.
			args = json.RawMessage(tc.Function.Arguments)
		}
		r.ToolCalls = append(r.ToolCalls, llm.ToolCall{ID: tc.ID, Name: tc.Function.Name, Args: args})
	}
	r.FinishReason = finishReason(ch.FinishReason, len(r.ToolCalls) > 0)
	switch {
	case r.Text == "" && ch.Message.Refusal != "":
		r.Text = ch.Message.Refusal
		r.FinishReason = llm.FinishOther
		refusal = fmt.Sprintf("%.200q", ch.Message.Refusal)
	case ch.FinishReason == "content_filter":
		refusal = "finish reason content_filter"
	}
	return r, refusal, nil
}

// finishReason maps an OpenAI finish reason to an llm one. A server that
// gives none is taken to have stopped normally.
func finishReason(s string, calls bool) string {
	switch s {
	case "stop":
		return llm.FinishStop
	case "tool_calls", "function_call":
		return llm.FinishToolCalls
	case "length":
		return llm.FinishLength
	case "":
		if calls {
			return llm.FinishToolCalls
		}
		return llm.FinishStop
	}
	return llm.FinishOther
}
