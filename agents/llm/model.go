package llm

import (
	"context"
	"encoding/json"
	"time"
)

// Role of a message in a conversation.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	// RoleTool carries the result of a tool call back to the model.
	RoleTool Role = "tool"
)

// Message is one turn of a conversation.
type Message struct {
	Role Role   `json:"role"`
	Text string `json:"text,omitempty"`
	// ToolCalls are the calls an assistant turn made.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID and Name identify the call a tool turn answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
	Name       string `json:"name,omitempty"`
	// Images are shown after Text, in order (a user turn's, as every
	// provider takes them).
	Images []Image `json:"images,omitempty"`
}

// ToolCall is a call the model asks for.
type ToolCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
	// Signature is an opaque token the provider attached to the call
	// (Gemini's thought signature; on the first call of an Anthropic
	// reply, the thinking blocks the calls came with), sent back with the
	// call, byte for byte, when the conversation goes on: Gemini 3
	// refuses a history whose calls lack theirs, and Claude one whose
	// tool results come without the turn's thinking. It is never part of any prompt text, and
	// counts in [Hash] only when set.
	Signature []byte `json:"signature,omitempty"`
}

// ToolDecl declares a tool to the model: its name, what it does, and the
// JSON schema of its arguments.
type ToolDecl struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"parameters"`
}

// Request is one call to a model.
type Request struct {
	System   string     `json:"system,omitempty"`
	Messages []Message  `json:"messages"`
	Tools    []ToolDecl `json:"tools,omitempty"`
	// Temperature 0 asks for the most likely reply.
	Temperature float64 `json:"temperature"`
	// OmitTemperature leaves the temperature to the provider: none is
	// sent (Temperature is then ignored), unless the model spec sets one
	// (GenParams.TemperatureFor). It is for workflows whose authors never
	// set one. Hash counts it only when set, so a request that sets a
	// temperature hashes as it always has.
	OmitTemperature bool  `json:"omit_temperature,omitempty"`
	Seed            int64 `json:"seed,omitempty"`
	// Sample numbers the draws of one request at temperature > 0; the
	// same request and sample give the same reply from the simulated model
	// and from a cassette.
	Sample          int `json:"sample,omitempty"`
	MaxOutputTokens int `json:"max_output_tokens,omitempty"`
	// ResponseSchema, if set, is the schema of the JSON the prompt asks
	// for. A backend sends it as structured output only when its model
	// spec says so (llm.GenParams.ResponseSchema, "?schema=1"); by default
	// the prompt alone asks for the JSON, as in the papers.
	ResponseSchema json.RawMessage `json:"response_schema,omitempty"`
	// Context states the call's context for the simulated model (see
	// CallContext). It is not part of what a model is sent: no backend
	// sends it (but openai's, to serve-sim, when told to), Hash ignores it,
	// and it is never encoded with the request.
	Context *CallContext `json:"-"`
}

// Finish reasons.
const (
	FinishStop      = "stop"
	FinishToolCalls = "tool_calls"
	FinishLength    = "length"
	FinishOther     = "other"
)

// Reply is what a model returned.
type Reply struct {
	Text      string     `json:"text,omitempty"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// FinishReason is one of the Finish constants; ProviderFinish is the
	// reason as the provider gave it ("MAX_TOKENS", "SAFETY",
	// "MALFORMED_FUNCTION_CALL", "length", "content_filter", or
	// "blocked: SAFETY" for a prompt Gemini refused), "" when it gave
	// none or the model is not a provider's.
	FinishReason   string        `json:"finish_reason"`
	ProviderFinish string        `json:"provider_finish,omitempty"`
	InputTokens    int           `json:"input_tokens"`
	OutputTokens   int           `json:"output_tokens"`
	Latency        time.Duration `json:"latency_ns"`
}

// Model is a language model. Generate must be safe for concurrent use.
type Model interface {
	// Name is the spec the model was opened with, for records.
	Name() string
	Generate(ctx context.Context, req Request) (Reply, error)
}
