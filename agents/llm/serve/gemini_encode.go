package serve

import (
	"bytes"
	"encoding/json"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/gemini"
)

// The GenerateContentResponse object, as far as the model layer fills it.
type generateContentResponse struct {
	Candidates    []candidate   `json:"candidates"`
	UsageMetadata usageMetadata `json:"usageMetadata"`
	ModelVersion  string        `json:"modelVersion"`
	ResponseID    string        `json:"responseId"`
}

type candidate struct {
	Content      replyContent `json:"content"`
	FinishReason string       `json:"finishReason"`
	Index        int          `json:"index"`
}

type replyContent struct {
	Role  string      `json:"role"`
	Parts []replyPart `json:"parts,omitempty"`
}

type replyPart struct {
	Text         string     `json:"text,omitempty"`
	FunctionCall *replyCall `json:"functionCall,omitempty"`
}

type replyCall struct {
	ID   string          `json:"id,omitempty"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

type usageMetadata struct {
	PromptTokenCount     int `json:"promptTokenCount"`
	CandidatesTokenCount int `json:"candidatesTokenCount"`
	TotalTokenCount      int `json:"totalTokenCount"`
}

// encodeGeminiReply renders a reply as a GenerateContentResponse with one
// candidate: a text part if there is text, then a functionCall part per
// tool call. The response id is derived from the request, so the same
// request gets the same id.
func encodeGeminiReply(model string, req llm.Request, r llm.Reply) generateContentResponse {
	content := replyContent{Role: "model"}
	if r.Text != "" {
		content.Parts = append(content.Parts, replyPart{Text: r.Text})
	}
	for _, c := range r.ToolCalls {
		content.Parts = append(content.Parts, replyPart{FunctionCall: &replyCall{ID: c.ID, Name: c.Name, Args: argsForReply(c.Args)}})
	}
	return generateContentResponse{
		Candidates: []candidate{{Content: content, FinishReason: geminiFinishReason(r.FinishReason)}},
		UsageMetadata: usageMetadata{
			PromptTokenCount:     r.InputTokens,
			CandidatesTokenCount: r.OutputTokens,
			TotalTokenCount:      r.InputTokens + r.OutputTokens,
		},
		ModelVersion: model,
		ResponseID:   llm.Hash(model, req),
	}
}

// argsForReply returns tool-call arguments as the object a functionCall
// holds: the arguments themselves if they are one JSON object, {} if there
// are none, and otherwise {"_raw": "<the text>"}, as package gemini sends
// such arguments.
func argsForReply(args json.RawMessage) json.RawMessage {
	t := bytes.TrimSpace(args)
	switch {
	case len(t) == 0:
		return json.RawMessage(`{}`)
	case t[0] == '{' && json.Valid(t):
		return t
	}
	wrapped, err := json.Marshal(map[string]string{gemini.RawArgsKey: string(args)})
	if err != nil {
		// A map of strings always encodes.
		return json.RawMessage(`{}`)
	}
	return wrapped
}

// geminiFinishReason maps an llm finish reason to Gemini's. Gemini says
// STOP whether or not the reply calls tools.
func geminiFinishReason(reason string) string {
	switch reason {
	case llm.FinishStop, llm.FinishToolCalls, "":
		return "STOP"
	case llm.FinishLength:
		return "MAX_TOKENS"
	}
	return "OTHER"
}
