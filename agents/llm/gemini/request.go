package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"google.golang.org/genai"

	"github.com/ambibench/ambibench/agents/llm"
)

// SkipSignature is the thought signature sent with the function calls of a
// history turn that carries none of its own (see the package comment).
const SkipSignature = "skip_thought_signature_validator"

// RawArgsKey holds tool-call arguments that are not a JSON object.
const RawArgsKey = "_raw"

// buildRequest maps an llm.Request to the contents and config of a
// generateContent call, with the generation settings gen and the media
// resolution media ("" for none). With noIDs the function calls and
// responses go without their ids, for the Vertex AI models that refuse
// them.
func buildRequest(req llm.Request, gen llm.GenParams, media genai.MediaResolution, noIDs bool) ([]*genai.Content, *genai.GenerateContentConfig, error) {
	cfg := &genai.GenerateContentConfig{
		// One request per call: no follow-up requests for long replies.
		AutomaticContinuation: genai.Ptr(false),
		MediaResolution:       media,
	}
	if t, ok := gen.TemperatureFor(req); ok {
		cfg.Temperature = genai.Ptr(float32(t))
	}
	if req.System != "" {
		cfg.SystemInstruction = &genai.Content{Role: genai.RoleUser, Parts: []*genai.Part{{Text: req.System}}}
	}
	if seed, ok := gen.SeedFor(req); ok {
		cfg.Seed = genai.Ptr(seed32(seed))
	}
	if n := gen.MaxTokensFor(req); n > 0 {
		cfg.MaxOutputTokens = int32(min(n, math.MaxInt32))
	}
	// A schema that is not JSON is the caller's mistake, whether or not
	// this spec sends it.
	if len(req.ResponseSchema) > 0 && !json.Valid(req.ResponseSchema) {
		return nil, nil, fmt.Errorf("response schema is not valid JSON")
	}
	if rs := gen.SchemaFor(req); rs != nil {
		cfg.ResponseMIMEType = "application/json"
		cfg.ResponseJsonSchema = json.RawMessage(rs)
	}
	if len(req.Tools) > 0 {
		tool := &genai.Tool{}
		for i, t := range req.Tools {
			decl := &genai.FunctionDeclaration{Name: t.Name, Description: t.Description}
			if len(t.Schema) > 0 {
				if !json.Valid(t.Schema) {
					return nil, nil, fmt.Errorf("tool %d (%q): parameters schema is not valid JSON", i, t.Name)
				}
				decl.ParametersJsonSchema = t.Schema
			}
			tool.FunctionDeclarations = append(tool.FunctionDeclarations, decl)
		}
		cfg.Tools = []*genai.Tool{tool}
	}

	var contents []*genai.Content
	callNames := map[string]string{} // tool-call id → function name, from earlier turns
	for i, m := range req.Messages {
		if m.Role != llm.RoleAssistant && len(m.ToolCalls) > 0 {
			return nil, nil, fmt.Errorf("message %d: role %q carries tool calls; only assistant turns may", i, m.Role)
		}
		if m.Role != llm.RoleUser && len(m.Images) > 0 {
			return nil, nil, fmt.Errorf("message %d: role %q carries %d image(s); only user turns may", i, m.Role, len(m.Images))
		}
		switch m.Role {
		case llm.RoleUser:
			c := &genai.Content{Role: genai.RoleUser}
			// A turn of images alone has no empty text part before them.
			if m.Text != "" || len(m.Images) == 0 {
				c.Parts = append(c.Parts, &genai.Part{Text: m.Text})
			}
			for j, im := range m.Images {
				part, err := imagePart(im)
				if err != nil {
					return nil, nil, fmt.Errorf("message %d: image %d: %w", i, j, err)
				}
				c.Parts = append(c.Parts, part)
			}
			contents = append(contents, c)
		case llm.RoleAssistant:
			c := &genai.Content{Role: genai.RoleModel}
			if m.Text != "" || len(m.ToolCalls) == 0 {
				c.Parts = append(c.Parts, &genai.Part{Text: m.Text})
			}
			signed := false
			for _, call := range m.ToolCalls {
				signed = signed || len(call.Signature) > 0
			}
			for j, call := range m.ToolCalls {
				part := &genai.Part{FunctionCall: &genai.FunctionCall{ID: call.ID, Name: call.Name, Args: argsObject(call.Args)}}
				if noIDs {
					part.FunctionCall.ID = ""
				}
				switch {
				case signed:
					// Exactly as received: on the calls that had one.
					part.ThoughtSignature = call.Signature
				case j == 0:
					part.ThoughtSignature = []byte(SkipSignature)
				}
				c.Parts = append(c.Parts, part)
				if call.ID != "" {
					callNames[call.ID] = call.Name
				}
			}
			contents = append(contents, c)
		case llm.RoleTool:
			name := m.Name
			if name == "" {
				name = callNames[m.ToolCallID]
			}
			if name == "" {
				return nil, nil, fmt.Errorf("message %d: the tool result for call %q names no function, and no earlier call has that id", i, m.ToolCallID)
			}
			part := &genai.Part{FunctionResponse: &genai.FunctionResponse{
				ID:       m.ToolCallID,
				Name:     name,
				Response: map[string]any{"output": m.Text},
			}}
			if noIDs {
				part.FunctionResponse.ID = ""
			}
			// Results of one turn's calls go back together.
			if n := len(contents); n > 0 && isToolResults(contents[n-1]) {
				contents[n-1].Parts = append(contents[n-1].Parts, part)
			} else {
				contents = append(contents, &genai.Content{Role: genai.RoleUser, Parts: []*genai.Part{part}})
			}
		default:
			return nil, nil, fmt.Errorf("message %d: unknown role %q (want %q, %q or %q)", i, m.Role, llm.RoleUser, llm.RoleAssistant, llm.RoleTool)
		}
	}
	return contents, cfg, nil
}

// imagePart is an image as an inline data part of its type; its bytes
// are made here, when the request is built.
func imagePart(im llm.Image) (*genai.Part, error) {
	b, err := im.SendBytes()
	if err != nil {
		return nil, err
	}
	return &genai.Part{InlineData: &genai.Blob{MIMEType: im.MIME, Data: b}}, nil
}

func isToolResults(c *genai.Content) bool {
	return c.Role == genai.RoleUser && len(c.Parts) > 0 && c.Parts[0].FunctionResponse != nil
}

// argsObject returns tool-call arguments as the object the API takes.
func argsObject(raw json.RawMessage) map[string]any {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	var obj map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&obj); err != nil || obj == nil || dec.More() {
		return map[string]any{RawArgsKey: string(raw)}
	}
	return obj
}

// seed32 fits a seed into the API's 32 bits: unchanged if it fits, else
// folded (the low half XOR the high half).
func seed32(s int64) int32 {
	if s >= math.MinInt32 && s <= math.MaxInt32 {
		return int32(s)
	}
	return int32(uint32(s) ^ uint32(uint64(s)>>32))
}

// hasIDs reports whether contents carry any function-call or -response id,
// the field some Vertex AI models refuse.
func hasIDs(contents []*genai.Content) bool {
	for _, c := range contents {
		for _, p := range c.Parts {
			if (p.FunctionCall != nil && p.FunctionCall.ID != "") || (p.FunctionResponse != nil && p.FunctionResponse.ID != "") {
				return true
			}
		}
	}
	return false
}
