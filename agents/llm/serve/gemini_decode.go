package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/gemini"
)

// geminiRequest is the part of a generateContent request that the model
// layer has a place for. Contents and tools are decoded one by one so that
// an error can name the element.
type geminiRequest struct {
	Contents          []json.RawMessage `json:"contents"`
	SystemInstruction json.RawMessage   `json:"systemInstruction"`
	Tools             []json.RawMessage `json:"tools"`
	GenerationConfig  *generationConfig `json:"generationConfig"`
}

type generationConfig struct {
	Temperature        *float64        `json:"temperature"`
	Seed               *int64          `json:"seed"`
	MaxOutputTokens    *int64          `json:"maxOutputTokens"`
	CandidateCount     *int64          `json:"candidateCount"`
	ResponseMIMEType   string          `json:"responseMimeType"`
	ResponseJSONSchema json.RawMessage `json:"responseJsonSchema"`
	ResponseSchema     json.RawMessage `json:"responseSchema"`
}

type geminiContent struct {
	Role  string            `json:"role"`
	Parts []json.RawMessage `json:"parts"`
}

// geminiPart is one part of a content. Text is a pointer so that a part
// holding "text": "" is told from one holding no text.
type geminiPart struct {
	Text             *string         `json:"text"`
	Thought          bool            `json:"thought"`
	FunctionCall     json.RawMessage `json:"functionCall"`
	FunctionResponse json.RawMessage `json:"functionResponse"`
	// InlineData is an image of a user turn.
	InlineData json.RawMessage `json:"inlineData"`
	// Kinds of part the model layer has no place for.
	FileData            json.RawMessage `json:"fileData"`
	ExecutableCode      json.RawMessage `json:"executableCode"`
	CodeExecutionResult json.RawMessage `json:"codeExecutionResult"`
}

// geminiBlob is an inline data part's data. Data is a pointer so that a
// part without data is told from one whose data is empty.
type geminiBlob struct {
	MIMEType string  `json:"mimeType"`
	Data     *string `json:"data"`
}

type geminiFunctionCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

type geminiFunctionResponse struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response"`
}

type functionDeclaration struct {
	Name                 string          `json:"name"`
	Description          string          `json:"description"`
	Parameters           json.RawMessage `json:"parameters"`
	ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema"`
}

// DecodeGeminiRequest reads the JSON body of a Gemini generateContent
// request into an llm.Request, as the inverse of what agents/llm/gemini
// sends (see GeminiHandler). Its errors are *FieldError, naming fields as
// the JSON does, such as "contents[2].role".
func DecodeGeminiRequest(data []byte) (llm.Request, error) {
	var gr geminiRequest
	if err := decode(data, &gr, ""); err != nil {
		return llm.Request{}, err
	}
	req := llm.Request{Temperature: 1}
	if err := decodeGenerationConfig(gr.GenerationConfig, &req); err != nil {
		return llm.Request{}, err
	}
	if raw := nonNull(gr.SystemInstruction); raw != nil {
		system, err := decodeSystem(raw)
		if err != nil {
			return llm.Request{}, err
		}
		req.System = system
	}
	if len(gr.Contents) == 0 {
		return llm.Request{}, fieldErr("contents", "required: at least one content")
	}
	for i, raw := range gr.Contents {
		msgs, err := decodeContent(raw, fmt.Sprintf("contents[%d]", i))
		if err != nil {
			return llm.Request{}, err
		}
		req.Messages = append(req.Messages, msgs...)
	}
	for i, raw := range gr.Tools {
		decls, err := decodeTool(raw, fmt.Sprintf("tools[%d]", i))
		if err != nil {
			return llm.Request{}, err
		}
		req.Tools = append(req.Tools, decls...)
	}
	return req, nil
}

func decodeGenerationConfig(gc *generationConfig, req *llm.Request) error {
	if gc == nil {
		return nil
	}
	const path = "generationConfig"
	if gc.Temperature != nil {
		req.Temperature = *gc.Temperature
	}
	if gc.Seed != nil {
		if *gc.Seed < math.MinInt32 || *gc.Seed > math.MaxInt32 {
			return fieldErr(path+".seed", "must fit in 32 bits, got %d", *gc.Seed)
		}
		req.Seed = *gc.Seed
	}
	if gc.MaxOutputTokens != nil {
		if n := *gc.MaxOutputTokens; n < 0 || n > math.MaxInt32 {
			return fieldErr(path+".maxOutputTokens", "must be between 0 and %d, got %d", math.MaxInt32, n)
		}
		req.MaxOutputTokens = int(*gc.MaxOutputTokens)
	}
	if gc.CandidateCount != nil && *gc.CandidateCount != 1 {
		return fieldErr(path+".candidateCount", "only one candidate is supported, got %d", *gc.CandidateCount)
	}
	jsonSchema, schema := nonNull(gc.ResponseJSONSchema), nonNull(gc.ResponseSchema)
	if jsonSchema != nil && schema != nil {
		return fieldErr(path+".responseSchema", "give responseJsonSchema or responseSchema, not both")
	}
	if schema == nil {
		schema = jsonSchema
	}
	switch mime := gc.ResponseMIMEType; mime {
	case "application/json":
		if schema == nil {
			// JSON mode without a schema: any JSON value.
			schema = json.RawMessage(`{}`)
		}
	case "", "text/plain":
		if schema != nil && mime != "" {
			return fieldErr(path+".responseMimeType", "a response schema needs \"application/json\", got %q", mime)
		}
	default:
		return fieldErr(path+".responseMimeType", "unsupported MIME type %q (want \"text/plain\" or \"application/json\")", mime)
	}
	if schema != nil {
		req.ResponseSchema = tidyJSON(schema)
	}
	return nil
}

// decodeSystem reads the system instruction: a content of text parts,
// joined. Its role is not checked.
func decodeSystem(raw json.RawMessage) (string, error) {
	const path = "systemInstruction"
	var c geminiContent
	if err := decode(raw, &c, path); err != nil {
		return "", err
	}
	var b strings.Builder
	for j, rawPart := range c.Parts {
		ppath := fmt.Sprintf("%s.parts[%d]", path, j)
		p, err := decodePart(rawPart, ppath)
		if err != nil {
			return "", err
		}
		if p.FunctionCall != nil || p.FunctionResponse != nil || p.InlineData != nil {
			return "", fieldErr(ppath, "the system instruction holds text parts only")
		}
		if p.Text != nil && !p.Thought {
			b.WriteString(*p.Text)
		}
	}
	return b.String(), nil
}

// decodeContent reads one content: a model turn is one assistant message;
// a user turn is a user message for each run of text parts and the
// inlineData images after them (a text part after an image begins another
// message, so that the order is kept), and a tool message for each
// functionResponse part.
func decodeContent(raw json.RawMessage, path string) ([]llm.Message, error) {
	if nonNull(raw) == nil {
		return nil, fieldErr(path, "expected an object, got null")
	}
	var c geminiContent
	if err := decode(raw, &c, path); err != nil {
		return nil, err
	}
	model := false
	switch c.Role {
	case "model":
		model = true
	case "user", "", "function":
		// An unset role is the user's, as in the API; "function" is the
		// role older clients give function responses.
	default:
		return nil, fieldErr(path+".role", "unknown role %q (want \"user\" or \"model\")", c.Role)
	}
	if len(c.Parts) == 0 {
		return nil, fieldErr(path+".parts", "required: at least one part")
	}
	var msgs []llm.Message
	var text strings.Builder
	inText := false // the last message of msgs is a user message being written
	// endText ends the user message being written, giving it its text.
	endText := func() {
		if inText {
			msgs[len(msgs)-1].Text = text.String()
			text.Reset()
			inText = false
		}
	}
	for j, rawPart := range c.Parts {
		ppath := fmt.Sprintf("%s.parts[%d]", path, j)
		p, err := decodePart(rawPart, ppath)
		if err != nil {
			return nil, err
		}
		switch {
		case p.Thought:
			// The model's thoughts have no place in an llm.Message.
		case p.FunctionCall != nil:
			if !model {
				return nil, fieldErr(ppath+".functionCall", "only model turns carry function calls; this one has role %q", c.Role)
			}
			call, err := decodeFunctionCall(p.FunctionCall, ppath+".functionCall")
			if err != nil {
				return nil, err
			}
			if len(msgs) == 0 {
				msgs = append(msgs, llm.Message{Role: llm.RoleAssistant})
			}
			msgs[0].ToolCalls = append(msgs[0].ToolCalls, call)
		case p.FunctionResponse != nil:
			if model {
				return nil, fieldErr(ppath+".functionResponse", "only user turns carry function responses; this one has role \"model\"")
			}
			endText()
			msg, err := decodeFunctionResponse(p.FunctionResponse, ppath+".functionResponse")
			if err != nil {
				return nil, err
			}
			msgs = append(msgs, msg)
		case p.InlineData != nil:
			if model {
				return nil, fieldErr(ppath+".inlineData", "only user turns carry images; this one has role \"model\"")
			}
			im, err := decodeInlineImage(p.InlineData, ppath+".inlineData")
			if err != nil {
				return nil, err
			}
			if !inText {
				msgs = append(msgs, llm.Message{Role: llm.RoleUser})
				inText = true
			}
			msgs[len(msgs)-1].Images = append(msgs[len(msgs)-1].Images, im)
		default:
			// A text part; a part with nothing in it is empty text.
			if !model && inText && len(msgs[len(msgs)-1].Images) > 0 {
				// Text after an image: a message of its own.
				endText()
			}
			if p.Text != nil {
				text.WriteString(*p.Text)
			}
			if model {
				if len(msgs) == 0 {
					msgs = append(msgs, llm.Message{Role: llm.RoleAssistant})
				}
			} else if !inText {
				msgs = append(msgs, llm.Message{Role: llm.RoleUser})
				inText = true
			}
		}
	}
	switch {
	case model && len(msgs) == 0:
		// Only thoughts: an empty turn.
		msgs = append(msgs, llm.Message{Role: llm.RoleAssistant})
		fallthrough
	case model:
		msgs[0].Text = text.String()
	case inText:
		msgs[len(msgs)-1].Text = text.String()
	case len(msgs) == 0:
		msgs = append(msgs, llm.Message{Role: llm.RoleUser})
	}
	return msgs, nil
}

// decodePart reads one part and checks that it holds at most one thing the
// model layer can take.
func decodePart(raw json.RawMessage, path string) (geminiPart, error) {
	if nonNull(raw) == nil {
		return geminiPart{}, fieldErr(path, "expected an object, got null")
	}
	var p geminiPart
	if err := decode(raw, &p, path); err != nil {
		return geminiPart{}, err
	}
	p.FunctionCall, p.FunctionResponse, p.InlineData = nonNull(p.FunctionCall), nonNull(p.FunctionResponse), nonNull(p.InlineData)
	for _, other := range []struct {
		name string
		raw  json.RawMessage
	}{
		{"fileData", p.FileData},
		{"executableCode", p.ExecutableCode}, {"codeExecutionResult", p.CodeExecutionResult},
	} {
		if nonNull(other.raw) != nil {
			hint := ""
			if other.name == "fileData" {
				hint = "; this server never fetches files: send an image as inlineData"
			}
			return geminiPart{}, fieldErr(path+"."+other.name, "only text, inlineData, functionCall and functionResponse parts are supported%s", hint)
		}
	}
	n := 0
	for _, held := range []bool{p.Text != nil, p.FunctionCall != nil, p.FunctionResponse != nil, p.InlineData != nil} {
		if held {
			n++
		}
	}
	if n > 1 {
		return geminiPart{}, fieldErr(path, "a part holds one of text, inlineData, functionCall or functionResponse, not several")
	}
	return p, nil
}

// decodeInlineImage reads an inline data part into an image: its
// mimeType must be image/png or image/jpeg, and its data the image's
// bytes in base64 (see geminiBytes).
func decodeInlineImage(raw json.RawMessage, path string) (llm.Image, error) {
	var b geminiBlob
	if err := decode(raw, &b, path); err != nil {
		return llm.Image{}, err
	}
	mime := strings.ToLower(b.MIMEType)
	if mime == "" {
		return llm.Image{}, fieldErr(path+".mimeType", "required: %s or %s", llm.ImagePNG, llm.ImageJPEG)
	}
	if _, ok := imageFormats[mime]; !ok {
		return llm.Image{}, fieldErr(path+".mimeType", "unsupported image type %q (want %s or %s)", b.MIMEType, llm.ImagePNG, llm.ImageJPEG)
	}
	if b.Data == nil {
		return llm.Image{}, fieldErr(path+".data", "required: the image's bytes in base64")
	}
	data, err := geminiBytes(*b.Data)
	if err != nil {
		return llm.Image{}, fieldErr(path+".data", "not base64: %v", err)
	}
	return decodeImage(mime, data, path+".data")
}

// decodeFunctionCall reads a function call of the history. Arguments that
// package gemini wrapped as {"_raw": text} are unwrapped; none are {}.
func decodeFunctionCall(raw json.RawMessage, path string) (llm.ToolCall, error) {
	var fc geminiFunctionCall
	if err := decode(raw, &fc, path); err != nil {
		return llm.ToolCall{}, err
	}
	if fc.Name == "" {
		return llm.ToolCall{}, fieldErr(path+".name", "required")
	}
	call := llm.ToolCall{ID: fc.ID, Name: fc.Name, Args: json.RawMessage(`{}`)}
	args := nonNull(fc.Args)
	if args == nil {
		return call, nil
	}
	if args[0] != '{' {
		return llm.ToolCall{}, fieldErr(path+".args", "expected an object")
	}
	if text, ok := rawArgs(args); ok {
		call.Args = json.RawMessage(text)
	} else {
		call.Args = tidyJSON(args)
	}
	return call, nil
}

// rawArgs reports whether args is package gemini's wrapping of arguments
// that are not a JSON object: {"_raw": text}, and only that, where text is
// something that package gemini would not have sent as an object.
func rawArgs(args json.RawMessage) (string, bool) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(args, &obj) != nil || len(obj) != 1 {
		return "", false
	}
	var text string
	if json.Unmarshal(obj[gemini.RawArgsKey], &text) != nil {
		return "", false
	}
	if strings.TrimSpace(text) == "" || sentAsObject(text) {
		return "", false
	}
	return text, true
}

// sentAsObject reports whether package gemini sends the arguments text as
// an object rather than wrapping it (its argsObject).
func sentAsObject(text string) bool {
	var obj map[string]any
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	return dec.Decode(&obj) == nil && obj != nil && !dec.More()
}

// decodeFunctionResponse reads a function response: {"output": text}, as
// package gemini sends tool results, is the text; any other response is
// its JSON.
func decodeFunctionResponse(raw json.RawMessage, path string) (llm.Message, error) {
	var fr geminiFunctionResponse
	if err := decode(raw, &fr, path); err != nil {
		return llm.Message{}, err
	}
	if fr.Name == "" {
		return llm.Message{}, fieldErr(path+".name", "required")
	}
	msg := llm.Message{Role: llm.RoleTool, ToolCallID: fr.ID, Name: fr.Name}
	resp := nonNull(fr.Response)
	if resp == nil {
		return msg, nil
	}
	if resp[0] != '{' {
		return llm.Message{}, fieldErr(path+".response", "expected an object")
	}
	var out struct {
		Output *string `json:"output"`
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(resp, &members) == nil && len(members) == 1 && json.Unmarshal(resp, &out) == nil && out.Output != nil {
		msg.Text = *out.Output
	} else {
		msg.Text = string(tidyJSON(resp))
	}
	return msg, nil
}

// decodeTool reads one tool: its function declarations. Tools of other
// kinds (Google Search, code execution, …) are refused.
func decodeTool(raw json.RawMessage, path string) ([]llm.ToolDecl, error) {
	if nonNull(raw) == nil {
		return nil, fieldErr(path, "expected an object, got null")
	}
	var members map[string]json.RawMessage
	if err := decode(raw, &members, path); err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(members))
	for k := range members {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if k != "functionDeclarations" && nonNull(members[k]) != nil {
			return nil, fieldErr(path+"."+k, "only functionDeclarations tools are supported")
		}
	}
	var fns []json.RawMessage
	if err := decode(nonNullOr(members["functionDeclarations"]), &fns, path+".functionDeclarations"); err != nil {
		return nil, err
	}
	var decls []llm.ToolDecl
	for j, rawFn := range fns {
		fpath := fmt.Sprintf("%s.functionDeclarations[%d]", path, j)
		if nonNull(rawFn) == nil {
			return nil, fieldErr(fpath, "expected an object, got null")
		}
		var fd functionDeclaration
		if err := decode(rawFn, &fd, fpath); err != nil {
			return nil, err
		}
		if fd.Name == "" {
			return nil, fieldErr(fpath+".name", "required")
		}
		jsonSchema, schema := nonNull(fd.ParametersJSONSchema), nonNull(fd.Parameters)
		if jsonSchema != nil && schema != nil {
			return nil, fieldErr(fpath+".parameters", "give parametersJsonSchema or parameters, not both")
		}
		if schema == nil {
			schema = jsonSchema
		}
		decl := llm.ToolDecl{Name: fd.Name, Description: fd.Description}
		if schema != nil {
			decl.Schema = tidyJSON(schema)
		}
		decls = append(decls, decl)
	}
	return decls, nil
}

// nonNullOr returns raw, or JSON null if it is empty, for decoding an
// optional member.
func nonNullOr(raw json.RawMessage) json.RawMessage {
	if raw = nonNull(raw); raw == nil {
		return json.RawMessage("null")
	}
	return raw
}

// tidyJSON returns valid JSON compacted, with the escapes \u003c, \u003e
// and \u0026 that Go's encoder (and so the genai SDK) writes for <, > and &
// turned back into those characters. Member order and number text are
// kept.
func tidyJSON(raw json.RawMessage) json.RawMessage {
	var c bytes.Buffer
	if json.Compact(&c, raw) != nil {
		return raw
	}
	b := c.Bytes()
	if !bytes.Contains(b, []byte(`\u00`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' {
			out = append(out, b[i])
			continue
		}
		// In valid JSON a backslash always starts an escape in a string.
		if i+5 < len(b) && b[i+1] == 'u' {
			switch strings.ToLower(string(b[i+2 : i+6])) {
			case "003c":
				out = append(out, '<')
				i += 5
				continue
			case "003e":
				out = append(out, '>')
				i += 5
				continue
			case "0026":
				out = append(out, '&')
				i += 5
				continue
			}
		}
		out = append(out, b[i], b[i+1])
		i++
	}
	return out
}
