package anthropic

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ambibench/ambibench/agents/llm"
)

// Content block types a reply may hold that the backend reads.
const (
	blockText     = "text"
	blockToolUse  = "tool_use"
	blockThinking = "thinking"
	blockRedacted = "redacted_thinking"
)

// maxCount bounds a plausible token count in a reply's usage, far above
// any context, so that a sum of counts cannot overflow.
const maxCount = 1 << 40

// wireReply is the part of a Messages API reply the backend reads.
type wireReply struct {
	Type        string       `json:"type"`
	Content     *[]wireBlock `json:"content"`
	StopReason  string       `json:"stop_reason"`
	StopDetails *struct {
		Category    string `json:"category"`
		Explanation string `json:"explanation"`
	} `json:"stop_details"`
	Usage struct {
		InputTokens              int64 `json:"input_tokens"`
		OutputTokens             int64 `json:"output_tokens"`
		CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	} `json:"usage"`
}

// wireBlock is one content block of a reply, of any type: the fields of
// the types the backend reads.
type wireBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	Thinking  string          `json:"thinking"`
	Signature string          `json:"signature"`
	Data      string          `json:"data"`
}

// keptThinking is a thinking or redacted thinking block as the first tool
// call of a reply keeps it in its Signature: a JSON array of these.
type keptThinking struct {
	Type      string `json:"type"`
	Thinking  string `json:"thinking,omitempty"`
	Signature string `json:"signature,omitempty"`
	Data      string `json:"data,omitempty"`
}

// decodeReply reads the body of a successful Messages API call (see the
// package comment). Any error it returns means the body could not be read
// as a reply. refusal is not empty when the model declined: the stop
// reason "refusal".
func decodeReply(body []byte) (r llm.Reply, refusal string, err error) {
	if !json.Valid(body) {
		return llm.Reply{}, "", fmt.Errorf("reply body is not valid JSON (%d bytes; cut short or not JSON)", len(body))
	}
	if b := bytes.TrimSpace(body); len(b) == 0 || b[0] != '{' {
		return llm.Reply{}, "", errors.New("reply body is not a JSON object")
	}
	var w wireReply
	if err := json.Unmarshal(body, &w); err != nil {
		return llm.Reply{}, "", fmt.Errorf("reading reply: %w", err)
	}
	if w.Type != "" && w.Type != "message" {
		return llm.Reply{}, "", fmt.Errorf("reply has type %q, want \"message\"", w.Type)
	}
	if w.Content == nil {
		return llm.Reply{}, "", errors.New("reply has no content")
	}
	u := w.Usage
	for _, n := range []int64{u.InputTokens, u.OutputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens} {
		if n < 0 || n > maxCount {
			return llm.Reply{}, "", fmt.Errorf("reply's usage has a token count of %d, which no call can have", n)
		}
	}
	r = llm.Reply{
		ProviderFinish: w.StopReason,
		// Every input token is billed, those written to the prompt cache
		// and read from it too.
		InputTokens:  int(u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens),
		OutputTokens: int(u.OutputTokens),
	}
	var (
		text     strings.Builder
		thinking []keptThinking
	)
	for i, b := range *w.Content {
		switch b.Type {
		case blockText:
			text.WriteString(b.Text)
		case blockToolUse:
			if b.ID == "" || b.Name == "" {
				return llm.Reply{}, "", fmt.Errorf("content block %d: a tool_use block without its id or name (id %q, name %q)", i, b.ID, b.Name)
			}
			args := json.RawMessage(`{}`)
			if t := bytes.TrimSpace(b.Input); len(t) > 0 && !bytes.Equal(t, []byte("null")) {
				// Kept as sent; the caller decides what to do with it.
				args = append(json.RawMessage(nil), t...)
			}
			r.ToolCalls = append(r.ToolCalls, llm.ToolCall{ID: b.ID, Name: b.Name, Args: args})
		// Thinking goes back only with what the API checks it by: a block
		// without it could not be sent back, and is not kept.
		case blockThinking:
			if b.Signature != "" {
				thinking = append(thinking, keptThinking{Type: blockThinking, Thinking: b.Thinking, Signature: b.Signature})
			}
		case blockRedacted:
			if b.Data != "" {
				thinking = append(thinking, keptThinking{Type: blockRedacted, Data: b.Data})
			}
		}
		// Blocks of any other type (server tools', which no request here
		// declares) are skipped.
	}
	r.Text = text.String()
	if len(thinking) > 0 && len(r.ToolCalls) > 0 {
		sig, err := encode(thinking)
		if err != nil {
			return llm.Reply{}, "", fmt.Errorf("keeping the thinking blocks: %w", err)
		}
		r.ToolCalls[0].Signature = sig
	}
	r.FinishReason = finishReason(w.StopReason, len(r.ToolCalls) > 0)
	if w.StopReason == "refusal" {
		refusal = "stop reason refusal"
		if d := w.StopDetails; d != nil && d.Category != "" {
			refusal += " (" + d.Category + ")"
		}
		if d := w.StopDetails; d != nil && d.Explanation != "" {
			refusal += fmt.Sprintf(": %.200q", d.Explanation)
		}
	}
	return r, refusal, nil
}

// finishReason maps a stop reason to an llm finish reason. A server that
// gives none is taken to have stopped normally.
func finishReason(s string, calls bool) string {
	switch s {
	case "end_turn", "stop_sequence":
		return llm.FinishStop
	case "tool_use":
		return llm.FinishToolCalls
	case "max_tokens":
		return llm.FinishLength
	case "":
		if calls {
			return llm.FinishToolCalls
		}
		return llm.FinishStop
	}
	return llm.FinishOther
}

// parseThinking reads the thinking blocks kept in a tool call's
// Signature; ok is false when sig is not such a list (another provider's
// signature, or none).
func parseThinking(sig []byte) (kept []keptThinking, ok bool) {
	t := bytes.TrimSpace(sig)
	if len(t) == 0 || t[0] != '[' {
		return nil, false
	}
	if err := json.Unmarshal(t, &kept); err != nil || len(kept) == 0 {
		return nil, false
	}
	for _, b := range kept {
		switch {
		case b.Type == blockThinking && b.Signature != "" && b.Data == "":
		case b.Type == blockRedacted && b.Data != "" && b.Thinking == "" && b.Signature == "":
		default:
			return nil, false
		}
	}
	return kept, true
}
