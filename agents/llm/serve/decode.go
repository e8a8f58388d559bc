package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ambibench/ambibench/agents/llm"
)

// FieldError is a request body that cannot be read, with the field at
// fault, such as "messages[2].role".
type FieldError struct {
	Field string
	Err   error
}

func (e *FieldError) Error() string {
	if e.Field == "" {
		return e.Err.Error()
	}
	return e.Field + ": " + e.Err.Error()
}

func (e *FieldError) Unwrap() error { return e.Err }

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Err: fmt.Errorf(format, args...)}
}

// chatRequest is the part of an OpenAI chat request that the model layer
// has a place for; messages and tools are decoded one by one so that an
// error can name the element.
type chatRequest struct {
	Model               string            `json:"model"`
	Messages            []json.RawMessage `json:"messages"`
	Tools               []json.RawMessage `json:"tools"`
	Temperature         *float64          `json:"temperature"`
	Seed                *int64            `json:"seed"`
	MaxTokens           *int              `json:"max_tokens"`
	MaxCompletionTokens *int              `json:"max_completion_tokens"`
	ResponseFormat      json.RawMessage   `json:"response_format"`
	Stream              *bool             `json:"stream"`
	N                   *int              `json:"n"`
	// Context is ambibench's extension field (llm.ContextField), which
	// its openai backend adds only when told to.
	Context json.RawMessage `json:"ambibench_context"`
}

type chatMessage struct {
	Role       string            `json:"role"`
	Content    json.RawMessage   `json:"content"`
	Name       string            `json:"name"`
	ToolCalls  []json.RawMessage `json:"tool_calls"`
	ToolCallID string            `json:"tool_call_id"`
}

type chatToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type contentPart struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	ImageURL *struct {
		URL string `json:"url"`
		// Detail (low, high, auto) has no place in the model layer.
		Detail string `json:"detail"`
	} `json:"image_url"`
}

// segment is a run of a message's content: its text, then the images
// shown after it.
type segment struct {
	text   string
	images []llm.Image
}

type chatTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

type responseFormat struct {
	Type       string `json:"type"`
	JSONSchema struct {
		Name   string          `json:"name"`
		Schema json.RawMessage `json:"schema"`
	} `json:"json_schema"`
}

// DecodeRequest reads an OpenAI chat completion request into an
// llm.Request (see the package comment). Its errors are *FieldError.
func DecodeRequest(data []byte) (llm.Request, error) {
	var cr chatRequest
	if err := decode(data, &cr, ""); err != nil {
		return llm.Request{}, err
	}
	if cr.Stream != nil && *cr.Stream {
		return llm.Request{}, fieldErr("stream", `streaming is not supported; send "stream": false or leave it out`)
	}
	if cr.N != nil && *cr.N != 1 {
		return llm.Request{}, fieldErr("n", "only one choice is supported, got %d", *cr.N)
	}
	req := llm.Request{Temperature: 1}
	if cr.Temperature != nil {
		req.Temperature = *cr.Temperature
	}
	if cr.Seed != nil {
		req.Seed = *cr.Seed
	}
	switch {
	case cr.MaxCompletionTokens != nil:
		if *cr.MaxCompletionTokens < 0 {
			return llm.Request{}, fieldErr("max_completion_tokens", "must not be negative, got %d", *cr.MaxCompletionTokens)
		}
		req.MaxOutputTokens = *cr.MaxCompletionTokens
	case cr.MaxTokens != nil:
		if *cr.MaxTokens < 0 {
			return llm.Request{}, fieldErr("max_tokens", "must not be negative, got %d", *cr.MaxTokens)
		}
		req.MaxOutputTokens = *cr.MaxTokens
	}
	if len(cr.Messages) == 0 {
		return llm.Request{}, fieldErr("messages", "required: at least one message")
	}
	var system []string
	for i, raw := range cr.Messages {
		path := fmt.Sprintf("messages[%d]", i)
		var cm chatMessage
		if err := decode(raw, &cm, path); err != nil {
			return llm.Request{}, err
		}
		segs, err := content(cm.Content, path+".content", cm.Role)
		if err != nil {
			return llm.Request{}, err
		}
		// Only a user message has images, and so more than one segment.
		text := segs[0].text
		if cm.Role != "assistant" && len(cm.ToolCalls) > 0 {
			return llm.Request{}, fieldErr(path+".tool_calls", "only assistant messages carry tool calls, this one has role %q", cm.Role)
		}
		switch cm.Role {
		case "system", "developer":
			system = append(system, text)
		case "user":
			for _, seg := range segs {
				req.Messages = append(req.Messages, llm.Message{Role: llm.RoleUser, Text: seg.text, Images: seg.images, Name: cm.Name})
			}
		case "assistant":
			msg := llm.Message{Role: llm.RoleAssistant, Text: text, Name: cm.Name}
			for j, rawCall := range cm.ToolCalls {
				cpath := fmt.Sprintf("%s.tool_calls[%d]", path, j)
				var tc chatToolCall
				if err := decode(rawCall, &tc, cpath); err != nil {
					return llm.Request{}, err
				}
				if tc.Type != "function" && tc.Type != "" {
					return llm.Request{}, fieldErr(cpath+".type", "only \"function\" tool calls are supported, got %q", tc.Type)
				}
				call := llm.ToolCall{ID: tc.ID, Name: tc.Function.Name}
				if tc.Function.Arguments != "" {
					call.Args = json.RawMessage(tc.Function.Arguments)
				}
				msg.ToolCalls = append(msg.ToolCalls, call)
			}
			req.Messages = append(req.Messages, msg)
		case "tool":
			req.Messages = append(req.Messages, llm.Message{Role: llm.RoleTool, Text: text, ToolCallID: cm.ToolCallID, Name: cm.Name})
		case "":
			return llm.Request{}, fieldErr(path+".role", "required")
		default:
			return llm.Request{}, fieldErr(path+".role", "unknown role %q (want system, developer, user, assistant or tool)", cm.Role)
		}
	}
	req.System = strings.Join(system, "\n\n")
	for i, raw := range cr.Tools {
		path := fmt.Sprintf("tools[%d]", i)
		var ct chatTool
		if err := decode(raw, &ct, path); err != nil {
			return llm.Request{}, err
		}
		if ct.Type != "function" && ct.Type != "" {
			return llm.Request{}, fieldErr(path+".type", "only \"function\" tools are supported, got %q", ct.Type)
		}
		if ct.Function.Name == "" {
			return llm.Request{}, fieldErr(path+".function.name", "required")
		}
		req.Tools = append(req.Tools, llm.ToolDecl{
			Name:        ct.Function.Name,
			Description: ct.Function.Description,
			Schema:      nonNull(ct.Function.Parameters),
		})
	}
	if raw := nonNull(cr.Context); raw != nil {
		cc, err := decodeContext(raw)
		if err != nil {
			return llm.Request{}, err
		}
		req.Context = cc
	}
	if rf := nonNull(cr.ResponseFormat); rf != nil {
		var f responseFormat
		if err := decode(rf, &f, "response_format"); err != nil {
			return llm.Request{}, err
		}
		switch f.Type {
		case "text":
		case "json_object":
			req.ResponseSchema = json.RawMessage(`{"type":"object"}`)
		case "json_schema":
			if req.ResponseSchema = nonNull(f.JSONSchema.Schema); req.ResponseSchema == nil {
				return llm.Request{}, fieldErr("response_format.json_schema.schema", "required")
			}
		case "":
			return llm.Request{}, fieldErr("response_format.type", "required")
		default:
			return llm.Request{}, fieldErr("response_format.type", "unknown type %q (want text, json_object or json_schema)", f.Type)
		}
	}
	return req, nil
}

// decodeContext reads the extension field into a call context. It is
// strict, unknown fields included, since a client that writes it is
// ambibench itself, and a mismatch means two builds of different ages.
func decodeContext(raw json.RawMessage) (*llm.CallContext, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var cc llm.CallContext
	if err := dec.Decode(&cc); err != nil {
		return nil, fieldErr(llm.ContextField, "not an ambibench call context (version %d): %v", llm.ContextVersion, err)
	}
	if dec.More() {
		return nil, fieldErr(llm.ContextField, "trailing data after the call context")
	}
	if cc.Version != llm.ContextVersion {
		return nil, fieldErr(llm.ContextField+".v", "version %d, this server reads version %d; run serve-sim and the client from the same build", cc.Version, llm.ContextVersion)
	}
	return &cc, nil
}

// content reads a message's content: absent or null, a string, or an
// array of parts. Text parts are joined; a user message's image_url parts,
// whose URLs must be base64 data URLs of PNG or JPEG images, are shown
// after the text before them. A text part after an image begins another
// segment, so that the order of text and images is kept: one segment per
// user message. Content without images is one segment.
func content(raw json.RawMessage, path, role string) ([]segment, error) {
	raw = nonNull(raw)
	if raw == nil {
		return []segment{{}}, nil
	}
	switch raw[0] {
	case '"':
		var s string
		if err := decode(raw, &s, path); err != nil {
			return nil, err
		}
		return []segment{{text: s}}, nil
	case '[':
		var parts []json.RawMessage
		if err := decode(raw, &parts, path); err != nil {
			return nil, err
		}
		segs := []segment{{}}
		var b strings.Builder
		for j, rawPart := range parts {
			ppath := fmt.Sprintf("%s[%d]", path, j)
			var p contentPart
			if err := decode(rawPart, &p, ppath); err != nil {
				return nil, err
			}
			last := &segs[len(segs)-1]
			switch p.Type {
			case "text":
				if len(last.images) > 0 {
					last.text = b.String()
					b.Reset()
					segs = append(segs, segment{})
				}
				b.WriteString(p.Text)
			case "image_url":
				if role != "user" {
					return nil, fieldErr(ppath, "only user messages carry images; this one has role %q", role)
				}
				if p.ImageURL == nil {
					return nil, fieldErr(ppath+".image_url", "required: an object with the image's data URL")
				}
				im, err := dataURLImage(p.ImageURL.URL, ppath+".image_url.url")
				if err != nil {
					return nil, err
				}
				last.images = append(last.images, im)
			default:
				return nil, fieldErr(ppath+".type", "only text and image_url parts are supported, got %q", p.Type)
			}
		}
		segs[len(segs)-1].text = b.String()
		return segs, nil
	}
	return nil, fieldErr(path, "expected a string or an array of text and image_url parts")
}

// nonNull returns raw, or nil if it is empty or JSON null.
func nonNull(raw json.RawMessage) json.RawMessage {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || string(t) == "null" {
		return nil
	}
	return t
}

// decode unmarshals data into v and names the field of any error, below
// path.
func decode(data []byte, v any, path string) error {
	err := json.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		field := path
		if typeErr.Field != "" {
			if field != "" {
				field += "."
			}
			field += typeErr.Field
		}
		msg := fmt.Errorf("expected %s, got JSON %s", jsonKind(typeErr.Type.Kind().String()), typeErr.Value)
		if field == "" {
			msg = fmt.Errorf("request body: %w", msg)
		}
		return &FieldError{Field: field, Err: msg}
	case errors.As(err, &syntaxErr):
		return &FieldError{Field: path, Err: fmt.Errorf("%s is not valid JSON: %v (at byte %d)", orBody(path), syntaxErr, syntaxErr.Offset)}
	}
	return &FieldError{Field: path, Err: fmt.Errorf("%s is not valid JSON: %v", orBody(path), err)}
}

func orBody(path string) string {
	if path == "" {
		return "request body"
	}
	return "value"
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice", "array":
		return "an array"
	case "struct", "map":
		return "an object"
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return "an integer"
	case "float32", "float64":
		return "a number"
	}
	return "a " + goKind
}
