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
// Any error it returns means the reply could not be read as one. refusal
// is not empty when the model declined: a blocked prompt, or a candidate
// stopped by a safety, recitation or content filter.
func decodeResponse(resp *genai.GenerateContentResponse) (r llm.Reply, refusal string, err error) {
	if resp == nil {
		return llm.Reply{}, "", errors.New("empty reply")
	}
	if u := resp.UsageMetadata; u != nil {
		r.InputTokens = int(u.PromptTokenCount)
		r.OutputTokens = int(u.CandidatesTokenCount) + int(u.ThoughtsTokenCount)
	}
	if len(resp.Candidates) == 0 || resp.Candidates[0] == nil {
		if pf := resp.PromptFeedback; pf != nil && pf.BlockReason != "" {
			// The prompt was refused: a reply, with nothing in it.
			r.FinishReason = llm.FinishOther
			r.ProviderFinish = "blocked: " + string(pf.BlockReason)
			refusal = "the prompt was blocked (" + string(pf.BlockReason) + ")"
			if pf.BlockReasonMessage != "" {
				refusal += ": " + pf.BlockReasonMessage
			}
			return r, refusal, nil
		}
		return llm.Reply{}, "", errors.New("reply has no candidates")
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
					return llm.Reply{}, "", fmt.Errorf("function call %q: %w", fc.Name, err)
				}
				// The signature goes back with the call when the
				// conversation goes on; a copy, so that nothing the SDK
				// keeps can change it.
				var sig []byte
				if len(p.ThoughtSignature) > 0 {
					sig = append([]byte(nil), p.ThoughtSignature...)
				}
				r.ToolCalls = append(r.ToolCalls, llm.ToolCall{ID: id, Name: fc.Name, Args: args, Signature: sig})
			}
		}
	}
	r.Text = text.String()
	r.ProviderFinish = string(c.FinishReason)
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
	if refusedFinish[c.FinishReason] {
		refusal = "finish reason " + string(c.FinishReason)
		if c.FinishMessage != "" {
			refusal += ": " + c.FinishMessage
		}
	}
	return r, refusal, nil
}

// refusedFinish are the finish reasons by which the model declines to
// answer: its filters, not its wording. MAX_TOKENS is a reply cut short and
// MALFORMED_FUNCTION_CALL a reply the agent botched; both stay replies.
var refusedFinish = map[genai.FinishReason]bool{
	genai.FinishReasonSafety: true, genai.FinishReasonRecitation: true, genai.FinishReasonBlocklist: true,
	genai.FinishReasonProhibitedContent: true, genai.FinishReasonSPII: true, genai.FinishReasonImageSafety: true,
	genai.FinishReasonImageProhibitedContent: true, genai.FinishReasonImageRecitation: true,
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
