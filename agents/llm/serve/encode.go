package serve

import (
	"time"

	"github.com/ambibench/ambibench/agents/llm"
)

// The chat.completion object, as far as the model layer fills it.
type completion struct {
	ID      string   `json:"id"`
	Object  string   `json:"object"`
	Created int64    `json:"created"`
	Model   string   `json:"model"`
	Choices []choice `json:"choices"`
	Usage   usage    `json:"usage"`
}

type choice struct {
	Index        int             `json:"index"`
	Message      responseMessage `json:"message"`
	FinishReason string          `json:"finish_reason"`
	Logprobs     *struct{}       `json:"logprobs"`
}

type responseMessage struct {
	Role      string         `json:"role"`
	Content   *string        `json:"content"`
	Refusal   *string        `json:"refusal"`
	ToolCalls []responseCall `json:"tool_calls,omitempty"`
}

type responseCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// encodeReply renders a reply as a chat.completion. Tool-call arguments go
// out byte for byte, JSON or not. The id is derived from the request, so the
// same request gets the same id.
func encodeReply(model string, req llm.Request, r llm.Reply, now time.Time) completion {
	msg := responseMessage{Role: "assistant"}
	if r.Text != "" || len(r.ToolCalls) == 0 {
		text := r.Text
		msg.Content = &text
	}
	for _, c := range r.ToolCalls {
		rc := responseCall{ID: c.ID, Type: "function"}
		rc.Function.Name = c.Name
		rc.Function.Arguments = string(c.Args)
		msg.ToolCalls = append(msg.ToolCalls, rc)
	}
	return completion{
		ID:      "chatcmpl-" + llm.Hash(model, req),
		Object:  "chat.completion",
		Created: now.Unix(),
		Model:   model,
		Choices: []choice{{Message: msg, FinishReason: finishReason(r)}},
		Usage: usage{
			PromptTokens:     r.InputTokens,
			CompletionTokens: r.OutputTokens,
			TotalTokens:      r.InputTokens + r.OutputTokens,
		},
	}
}

// finishReason maps an llm finish reason to one that OpenAI clients know.
// FinishOther has no OpenAI twin; "content_filter" is the one reason that
// says the model stopped for a cause of its own.
func finishReason(r llm.Reply) string {
	switch r.FinishReason {
	case llm.FinishStop:
		return "stop"
	case llm.FinishToolCalls:
		return "tool_calls"
	case llm.FinishLength:
		return "length"
	case "":
		if len(r.ToolCalls) > 0 {
			return "tool_calls"
		}
		return "stop"
	}
	return "content_filter"
}
