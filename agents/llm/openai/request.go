package openai

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"

	oa "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"

	"github.com/ambibench/ambibench/agents/llm"
)

// ResponseFormatName is the name the response schema is sent under.
const ResponseFormatName = "response"

// buildParams maps an llm.Request to chat completion parameters, as the
// package comment describes; ctx gives the call context's play, when the
// context is sent, and detail is the image detail sent with each image
// ("" for none).
func buildParams(ctx context.Context, model string, req llm.Request, gen llm.GenParams, legacyMaxTokens, sendContext bool, detail string) (oa.ChatCompletionNewParams, error) {
	p := oa.ChatCompletionNewParams{Model: shared.ChatModel(model)}
	if t, ok := gen.TemperatureFor(req); ok {
		p.Temperature = param.NewOpt(t)
	}
	if seed, ok := gen.SeedFor(req); ok {
		p.Seed = param.NewOpt(seed)
	}
	if n := gen.MaxTokensFor(req); n > 0 {
		if legacyMaxTokens {
			p.MaxTokens = param.NewOpt(int64(n))
		} else {
			p.MaxCompletionTokens = param.NewOpt(int64(n))
		}
	}
	if req.System != "" {
		p.Messages = append(p.Messages, oa.SystemMessage(req.System))
	}
	for i, m := range req.Messages {
		msg, err := message(m, detail)
		if err != nil {
			return p, fmt.Errorf("message %d: %w", i, err)
		}
		p.Messages = append(p.Messages, msg)
	}
	for i, t := range req.Tools {
		tool, err := toolParam(t)
		if err != nil {
			return p, fmt.Errorf("tool %d (%q): %w", i, t.Name, err)
		}
		p.Tools = append(p.Tools, tool)
	}
	// A schema that is not JSON is the caller's mistake, whether or not
	// this spec sends it.
	if len(req.ResponseSchema) > 0 && !json.Valid(req.ResponseSchema) {
		return p, fmt.Errorf("response schema: not valid JSON")
	}
	if rs := gen.SchemaFor(req); rs != nil {
		schema, err := compact(rs)
		if err != nil {
			return p, fmt.Errorf("response schema: %w", err)
		}
		p.ResponseFormat = oa.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
				JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
					Name:   ResponseFormatName,
					Schema: schema,
				},
			},
		}
	}
	if sendContext && req.Context != nil {
		cc := *req.Context
		cc.Version = llm.ContextVersion
		cc.Play = llm.PlayFrom(ctx)
		cc.Images = nil // a context read back from the wire may list some already
		for _, m := range req.Messages {
			for _, im := range m.Images {
				cc.Images = append(cc.Images, im.Digest)
			}
		}
		p.SetExtraFields(map[string]any{llm.ContextField: cc})
	}
	return p, nil
}

func message(m llm.Message, detail string) (oa.ChatCompletionMessageParamUnion, error) {
	if m.Role != llm.RoleAssistant && len(m.ToolCalls) > 0 {
		return oa.ChatCompletionMessageParamUnion{}, fmt.Errorf("role %q carries tool calls; only assistant turns may", m.Role)
	}
	if m.Role != llm.RoleUser && len(m.Images) > 0 {
		return oa.ChatCompletionMessageParamUnion{}, fmt.Errorf("role %q carries %d image(s); only user turns may", m.Role, len(m.Images))
	}
	switch m.Role {
	case llm.RoleUser:
		var u oa.ChatCompletionUserMessageParam
		if len(m.Images) == 0 {
			u.Content.OfString = param.NewOpt(m.Text)
		} else {
			parts, err := userParts(m, detail)
			if err != nil {
				return oa.ChatCompletionMessageParamUnion{}, err
			}
			u.Content.OfArrayOfContentParts = parts
		}
		if m.Name != "" {
			u.Name = param.NewOpt(m.Name)
		}
		return oa.ChatCompletionMessageParamUnion{OfUser: &u}, nil
	case llm.RoleAssistant:
		var a oa.ChatCompletionAssistantMessageParam
		// An assistant turn that only calls tools has no content.
		if m.Text != "" || len(m.ToolCalls) == 0 {
			a.Content.OfString = param.NewOpt(m.Text)
		}
		if m.Name != "" {
			a.Name = param.NewOpt(m.Name)
		}
		for _, c := range m.ToolCalls {
			a.ToolCalls = append(a.ToolCalls, oa.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &oa.ChatCompletionMessageFunctionToolCallParam{
					ID: c.ID,
					Function: oa.ChatCompletionMessageFunctionToolCallFunctionParam{
						Name:      c.Name,
						Arguments: string(c.Args),
					},
				},
			})
		}
		return oa.ChatCompletionMessageParamUnion{OfAssistant: &a}, nil
	case llm.RoleTool:
		msg := oa.ToolMessage(m.Text, m.ToolCallID)
		if m.Name != "" {
			msg.OfTool.SetExtraFields(map[string]any{"name": m.Name})
		}
		return msg, nil
	}
	return oa.ChatCompletionMessageParamUnion{}, fmt.Errorf("unknown role %q (want %q, %q or %q)", m.Role, llm.RoleUser, llm.RoleAssistant, llm.RoleTool)
}

// userParts is the content of a user turn that shows images: a text part
// when the turn has text, then one image_url part per image, in order,
// each a data URL of the image's bytes.
func userParts(m llm.Message, detail string) ([]oa.ChatCompletionContentPartUnionParam, error) {
	parts := make([]oa.ChatCompletionContentPartUnionParam, 0, 1+len(m.Images))
	if m.Text != "" {
		parts = append(parts, oa.TextContentPart(m.Text))
	}
	for j, im := range m.Images {
		u, err := dataURL(im)
		if err != nil {
			return nil, fmt.Errorf("image %d: %w", j, err)
		}
		parts = append(parts, oa.ImageContentPart(oa.ChatCompletionContentPartImageImageURLParam{URL: u, Detail: detail}))
	}
	return parts, nil
}

// dataURL is the image as a data URL, data:<MIME>;base64,<bytes>, the
// form that OpenAI and the compatible servers (vLLM, llama.cpp's server,
// Ollama) all take. Its bytes are made here, when the request is built.
func dataURL(im llm.Image) (string, error) {
	b, err := im.SendBytes()
	if err != nil {
		return "", err
	}
	return "data:" + im.MIME + ";base64," + base64.StdEncoding.EncodeToString(b), nil
}

// functionJSON is a function definition as the API takes it; it is encoded
// here so that the schema goes out as raw JSON, in its own key order.
type functionJSON struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

func toolParam(t llm.ToolDecl) (oa.ChatCompletionToolUnionParam, error) {
	f := functionJSON{Name: t.Name, Description: t.Description}
	if len(t.Schema) > 0 {
		schema, err := compact(t.Schema)
		if err != nil {
			return oa.ChatCompletionToolUnionParam{}, fmt.Errorf("parameters schema: %w", err)
		}
		f.Parameters = schema
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(f); err != nil {
		return oa.ChatCompletionToolUnionParam{}, err
	}
	def := param.Override[shared.FunctionDefinitionParam](json.RawMessage(bytes.TrimSpace(buf.Bytes())))
	return oa.ChatCompletionFunctionTool(def), nil
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
