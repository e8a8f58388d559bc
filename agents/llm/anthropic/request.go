package anthropic

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/ambibench/ambibench/agents/llm"
)

// RawArgsKey holds tool-call arguments that are not a JSON object, when a
// call goes back to the API (whose tool_use input must be an object).
const RawArgsKey = "_raw"

// emptySchema is the input schema of a tool declared without one: the API
// requires a schema, and this one takes any object.
var emptySchema = json.RawMessage(`{"type":"object"}`)

// buildParams maps an llm.Request to the parameters of one Messages API
// call, as the package comment describes.
func buildParams(model string, req llm.Request, gen llm.GenParams) (sdk.MessageNewParams, error) {
	p := sdk.MessageNewParams{Model: sdk.Model(model), MaxTokens: DefaultMaxTokens}
	if n := gen.MaxTokensFor(req); n > 0 {
		p.MaxTokens = int64(n)
	}
	if req.System != "" {
		p.System = []sdk.TextBlockParam{{Text: req.System}}
	}
	prevTool := false // whether the last message sent holds tool results
	for i, m := range req.Messages {
		if m.Role != llm.RoleAssistant && len(m.ToolCalls) > 0 {
			return p, fmt.Errorf("message %d: role %q carries tool calls; only assistant turns may", i, m.Role)
		}
		if m.Role != llm.RoleUser && len(m.Images) > 0 {
			return p, fmt.Errorf("message %d: role %q carries %d image(s); only user turns may", i, m.Role, len(m.Images))
		}
		switch m.Role {
		case llm.RoleUser:
			blocks, err := userBlocks(m)
			if err != nil {
				return p, fmt.Errorf("message %d: %w", i, err)
			}
			p.Messages = append(p.Messages, sdk.MessageParam{OfUser: &sdk.UserMessageParam{Content: blocks}})
			prevTool = false
		case llm.RoleAssistant:
			blocks, err := assistantBlocks(m)
			if err != nil {
				return p, fmt.Errorf("message %d: %w", i, err)
			}
			p.Messages = append(p.Messages, sdk.MessageParam{OfAssistant: &sdk.AssistantMessageParam{Content: blocks}})
			prevTool = false
		case llm.RoleTool:
			if m.ToolCallID == "" {
				return p, fmt.Errorf("message %d: the tool result names no call (its tool_call_id is empty); the Messages API pairs each result with its tool_use by id", i)
			}
			block := toolResult(m)
			// The results of one turn's calls go back in one user turn, as
			// the API requires.
			if n := len(p.Messages); prevTool && n > 0 {
				u := p.Messages[n-1].OfUser
				u.Content = append(u.Content, block)
			} else {
				p.Messages = append(p.Messages, sdk.MessageParam{OfUser: &sdk.UserMessageParam{Content: []sdk.ContentBlockParamUnion{block}}})
			}
			prevTool = true
		default:
			return p, fmt.Errorf("message %d: unknown role %q (want %q, %q or %q)", i, m.Role, llm.RoleUser, llm.RoleAssistant, llm.RoleTool)
		}
	}
	for i, t := range req.Tools {
		tool, err := toolParam(t)
		if err != nil {
			return p, fmt.Errorf("tool %d (%q): %w", i, t.Name, err)
		}
		p.Tools = append(p.Tools, sdk.ToolUnionParam{OfTool: &tool})
	}
	// A schema that is not JSON is the caller's mistake, whether or not
	// this spec sends it.
	if len(req.ResponseSchema) > 0 && !json.Valid(req.ResponseSchema) {
		return p, errors.New("response schema: not valid JSON")
	}
	if rs := gen.SchemaFor(req); rs != nil {
		format, err := encode(formatJSON{Type: "json_schema", Schema: json.RawMessage(rs)})
		if err != nil {
			return p, fmt.Errorf("response schema: %w", err)
		}
		p.OutputConfig.Format = param.Override[sdk.JSONOutputFormatParam](format)
	}
	return p, nil
}

// userBlocks is the content of a user turn: its text, then its images in
// order.
func userBlocks(m llm.Message) ([]sdk.ContentBlockParamUnion, error) {
	blocks := make([]sdk.ContentBlockParamUnion, 0, 1+len(m.Images))
	if m.Text != "" {
		blocks = append(blocks, sdk.NewTextBlock(m.Text))
	}
	for j, im := range m.Images {
		b, err := imageBlock(im)
		if err != nil {
			return nil, fmt.Errorf("image %d: %w", j, err)
		}
		blocks = append(blocks, b)
	}
	if len(blocks) == 0 {
		return nil, errors.New("a user turn with neither text nor images; the Messages API refuses empty content")
	}
	return blocks, nil
}

// imageBlock is an image as a base64 image block; its bytes are made here,
// when the request is built.
func imageBlock(im llm.Image) (sdk.ContentBlockParamUnion, error) {
	b, err := im.SendBytes()
	if err != nil {
		return sdk.ContentBlockParamUnion{}, err
	}
	return sdk.NewImageBlockBase64(im.MIME, base64.StdEncoding.EncodeToString(b)), nil
}

// assistantBlocks is the content of an assistant turn: the thinking blocks
// its calls came with, its text, then one tool_use block per call.
func assistantBlocks(m llm.Message) ([]sdk.ContentBlockParamUnion, error) {
	var blocks []sdk.ContentBlockParamUnion
	if len(m.ToolCalls) > 0 {
		blocks = append(blocks, thinkingBlocks(m.ToolCalls[0].Signature)...)
	}
	if m.Text != "" {
		blocks = append(blocks, sdk.NewTextBlock(m.Text))
	}
	for j, c := range m.ToolCalls {
		switch {
		case c.ID == "":
			return nil, fmt.Errorf("tool call %d (%q) has no id; the Messages API pairs each tool_use with its result by id", j, c.Name)
		case c.Name == "":
			return nil, fmt.Errorf("tool call %d (id %q) names no tool", j, c.ID)
		}
		blocks = append(blocks, sdk.ContentBlockParamUnion{OfToolUse: &sdk.ToolUseBlockParam{
			ID: c.ID, Name: c.Name, Input: toolInput(c.Args),
		}})
	}
	if len(blocks) == 0 {
		return nil, errors.New("an assistant turn with neither text nor tool calls; the Messages API refuses empty content")
	}
	return blocks, nil
}

// toolInput is a call's arguments as the object a tool_use block holds:
// a JSON object as it is (compacted), none as {}, and anything else (a
// malformed call echoed back) as {"_raw": "<the text>"}.
func toolInput(args json.RawMessage) json.RawMessage {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return json.RawMessage(`{}`)
	}
	if trimmed[0] == '{' {
		if c, err := compact(trimmed); err == nil {
			return c
		}
	}
	raw, err := encode(map[string]string{RawArgsKey: string(args)})
	if err != nil {
		// A string always encodes; this is not reached.
		return json.RawMessage(`{}`)
	}
	return raw
}

// toolResult is a tool turn as a tool_result block: the call's id and the
// turn's text (no content when the text is empty, which the API refuses
// as a text block). Message.Name has no field here: the id names the call.
func toolResult(m llm.Message) sdk.ContentBlockParamUnion {
	r := &sdk.ToolResultBlockParam{ToolUseID: m.ToolCallID}
	if m.Text != "" {
		r.Content = []sdk.ToolResultBlockParamContentUnion{{OfText: &sdk.TextBlockParam{Text: m.Text}}}
	}
	return sdk.ContentBlockParamUnion{OfToolResult: r}
}

// toolJSON is a tool definition as the API takes it; it is encoded here so
// that the schema goes out as raw JSON, in its own key order.
type toolJSON struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// formatJSON is the structured output format, likewise encoded here.
type formatJSON struct {
	Type   string          `json:"type"`
	Schema json.RawMessage `json:"schema"`
}

func toolParam(t llm.ToolDecl) (sdk.ToolParam, error) {
	schema := emptySchema
	if len(t.Schema) > 0 {
		var err error
		if schema, err = compact(t.Schema); err != nil {
			return sdk.ToolParam{}, fmt.Errorf("input schema: %w", err)
		}
	}
	raw, err := encode(toolJSON{Name: t.Name, Description: t.Description, InputSchema: schema})
	if err != nil {
		return sdk.ToolParam{}, err
	}
	return param.Override[sdk.ToolParam](raw), nil
}

// thinkingBlocks are the thinking blocks a reply's tool calls came with,
// kept in the first call's Signature (see the package comment), to go back
// unchanged; a signature of any other form (another provider's) gives none.
func thinkingBlocks(sig []byte) []sdk.ContentBlockParamUnion {
	kept, ok := parseThinking(sig)
	if !ok {
		return nil
	}
	blocks := make([]sdk.ContentBlockParamUnion, 0, len(kept))
	for _, b := range kept {
		if b.Type == blockRedacted {
			blocks = append(blocks, sdk.NewRedactedThinkingBlock(b.Data))
		} else {
			blocks = append(blocks, sdk.NewThinkingBlock(b.Signature, b.Thinking))
		}
	}
	return blocks
}

// encode renders v as compact JSON without HTML escapes.
func encode(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimSpace(buf.Bytes())), nil
}

// compact returns raw without insignificant whitespace, or an error if raw
// is not JSON.
func compact(raw json.RawMessage) (json.RawMessage, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	return buf.Bytes(), nil
}
