package gemini

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"google.golang.org/genai"

	"github.com/ambibench/ambibench/agents/llm"
)

// decodeResponse reads a generateContent reply (see the package comment).
// Any error it returns means the reply could not be read as one.
func decodeResponse(resp *genai.GenerateContentResponse) (llm.Reply, error) {
	if resp == nil {
		return llm.Reply{}, errors.New("empty reply")
	}
	var r llm.Reply
	if u := resp.UsageMetadata; u != nil {
		r.InputTokens = int(u.PromptTokenCount)
		r.OutputTokens = int(u.CandidatesTokenCount) + int(u.ThoughtsTokenCount)
	}
	if len(resp.Candidates) == 0 || resp.Candidates[0] == nil {
		if pf := resp.PromptFeedback; pf != nil && pf.BlockReason != "" {
			// The prompt was refused: a reply, with nothing in it.
			r.FinishReason = llm.FinishOther
			return r, nil
		}
		return llm.Reply{}, errors.New("reply has no candidates")
	}
	c := resp.Candidates[0]
	var text strings.Builder
	if c.Content != nil {
		for _, p := range c.Content.Parts {
			if p == nil || p.Thought {
				continue
			}
			text.WriteString(p.Text)
			if fc := p.FunctionCall; fc != nil {
				id := fc.ID
				if id == "" {
					id = fmt.Sprintf("call_%d", len(r.ToolCalls))
				}
				args, err := encodeArgs(fc.Args)
				if err != nil {
					return llm.Reply{}, fmt.Errorf("function call %q: %w", fc.Name, err)
				}
				r.ToolCalls = append(r.ToolCalls, llm.ToolCall{ID: id, Name: fc.Name, Args: args})
			}
		}
	}
	r.Text = text.String()
	switch c.FinishReason {
	case genai.FinishReasonStop, genai.FinishReasonUnspecified, "":
		r.FinishReason = llm.FinishStop
		if len(r.ToolCalls) > 0 {
			r.FinishReason = llm.FinishToolCalls
		}
	case genai.FinishReasonMaxTokens:
		r.FinishReason = llm.FinishLength
	default:
		r.FinishReason = llm.FinishOther
	}
	return r, nil
}

// encodeArgs renders function-call arguments as JSON; none is {}.
func encodeArgs(args map[string]any) (json.RawMessage, error) {
	if args == nil {
		return json.RawMessage(`{}`), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(args); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimSpace(buf.Bytes())), nil
}
