package cassette

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
)

// file is the content of a cassette file.
type file struct {
	Model string `json:"model"`
	Hash  string `json:"hash"`
	// Repeat is the repeat of the call (llm.RepeatFrom), absent at 0, so
	// that a file of repeat 0 is what it was before repeats had keys of
	// their own; Hash is then [Key] of Model, Request and Repeat.
	Repeat  int         `json:"repeat,omitempty"`
	Request llm.Request `json:"request"`
	Reply   *fileReply  `json:"reply"`
}

// fileReply is an llm.Reply whose tool-call arguments survive the trip
// exactly.
type fileReply struct {
	Text         string         `json:"text,omitempty"`
	ToolCalls    []fileToolCall `json:"tool_calls,omitempty"`
	FinishReason string         `json:"finish_reason"`
	// ProviderFinish is llm.Reply.ProviderFinish; absent in files written
	// before it existed.
	ProviderFinish string        `json:"provider_finish,omitempty"`
	InputTokens    int           `json:"input_tokens"`
	OutputTokens   int           `json:"output_tokens"`
	Latency        time.Duration `json:"latency_ns"`
}

// fileToolCall holds Args as JSON when it is compact valid JSON, and as
// the verbatim text otherwise; neither when Args is nil.
type fileToolCall struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Args     json.RawMessage `json:"args,omitempty"`
	ArgsText *string         `json:"args_text,omitempty"`
	// Signature is llm.ToolCall.Signature (base64 in the file).
	Signature []byte `json:"signature,omitempty"`
}

// encode returns the file recording req and reply for model at repeat
// under key.
func encode(model, key string, repeat int, req llm.Request, reply llm.Reply) ([]byte, error) {
	f := file{Model: model, Hash: key, Repeat: repeat, Request: validRequest(req), Reply: &fileReply{
		Text: reply.Text, FinishReason: reply.FinishReason, ProviderFinish: reply.ProviderFinish,
		InputTokens: reply.InputTokens, OutputTokens: reply.OutputTokens, Latency: reply.Latency,
	}}
	for _, c := range reply.ToolCalls {
		fc := fileToolCall{ID: c.ID, Name: c.Name, Signature: c.Signature}
		if c.Args != nil {
			if isCompact(c.Args) {
				fc.Args = c.Args
			} else {
				s := string(c.Args)
				fc.ArgsText = &s
			}
		}
		f.Reply.ToolCalls = append(f.Reply.ToolCalls, fc)
	}
	data, err := marshalFile(f)
	if err != nil {
		return nil, fmt.Errorf("encoding the cassette of request %s: %w", key, err)
	}
	return data, nil
}

// marshalFile writes f as a cassette file holds it.
func marshalFile(f file) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// isCompact reports whether raw is valid JSON that compacting leaves
// unchanged, which is what decode gives back from an indented file.
func isCompact(raw json.RawMessage) bool {
	if !json.Valid(raw) {
		return false
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return false
	}
	return bytes.Equal(buf.Bytes(), raw)
}

// decode reads the cassette file at name (its path, for errors), which
// must record a reply of model to the request hashing to key. An empty
// model or key is not checked. Every error names the file.
func decode(name string, data []byte, model, key string) (llm.Reply, error) {
	fail := func(format string, args ...any) (llm.Reply, error) {
		return llm.Reply{}, fmt.Errorf("cassette file %s: "+format, append([]any{name}, args...)...)
	}
	if err := emptyFile(name, data); err != nil {
		return llm.Reply{}, err
	}
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fail("not valid JSON at byte %d (not a recording: binary, or cut short?): %v", se.Offset, err)
		}
		return fail("not a cassette (model, hash, request, reply): %v", err)
	}
	switch {
	case f.Model == "":
		return fail(`no "model"`)
	case f.Hash == "":
		return fail(`no "hash"`)
	case f.Reply == nil:
		return fail(`no "reply"`)
	case f.Repeat < 0:
		return fail(`"repeat" is %d, below 0`, f.Repeat)
	case key != "" && f.Hash != key:
		return fail("holds request %s, want %s", f.Hash, key)
	case model != "" && f.Model != model:
		return fail("was recorded from model %q, want %q", f.Model, model)
	}
	if err := badImages(f.Request); err != nil {
		return fail("request: %v", err)
	}
	if h := Key(f.Model, f.Request, f.Repeat); h != f.Hash {
		if f.Repeat > 0 {
			return fail("its request at repeat %d hashes to %s, not to its hash %s (edited by hand?)", f.Repeat, h, f.Hash)
		}
		return fail("its request hashes to %s, not to its hash %s (edited by hand?)", h, f.Hash)
	}
	r := f.Reply
	reply := llm.Reply{
		Text: r.Text, FinishReason: r.FinishReason, ProviderFinish: r.ProviderFinish,
		InputTokens: r.InputTokens, OutputTokens: r.OutputTokens, Latency: r.Latency,
	}
	if r.InputTokens < 0 || r.OutputTokens < 0 || r.Latency < 0 {
		return fail("reply has negative tokens or latency")
	}
	for i, c := range r.ToolCalls {
		call := llm.ToolCall{ID: c.ID, Name: c.Name, Signature: c.Signature}
		switch {
		case c.Args != nil && c.ArgsText != nil:
			return fail(`reply tool call %d has both "args" and "args_text"`, i)
		case c.ArgsText != nil:
			call.Args = json.RawMessage(*c.ArgsText)
		case c.Args != nil:
			var buf bytes.Buffer
			if err := json.Compact(&buf, c.Args); err != nil {
				return fail("reply tool call %d: args: %v", i, err)
			}
			call.Args = buf.Bytes()
		}
		reply.ToolCalls = append(reply.ToolCalls, call)
	}
	return reply, nil
}

// emptyFile refuses a cassette file that holds nothing but white space,
// naming it: a recording cut short, or a file made by hand.
func emptyFile(name string, data []byte) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return fmt.Errorf("cassette file %s: empty (%d bytes), not a recording; record it again, or delete it to have its request missed", name, len(data))
	}
	return nil
}

// load reads the recording of key. ok is false when there is none.
func (s *store) load(model, key string) (reply llm.Reply, ok bool, err error) {
	name, data, ok, err := s.read(key)
	if err != nil || !ok {
		return llm.Reply{}, false, err
	}
	reply, err = decode(name, data, model, key)
	return reply, err == nil, err
}

// recordingKey returns the key of the recording file called name, or ""
// when name is no recording's (a temporary file, a dictionary, a file
// of another kind). Keys are what [Key] gives, 32 lowercase hex digits,
// so that the files of a run recorded into its own store (run.json)
// are not taken for recordings.
func recordingKey(name string) string {
	for _, ext := range [...]string{extZstd, extJSON} {
		if k, ok := strings.CutSuffix(name, ext); ok && isKey(k) {
			return k
		}
	}
	return ""
}

// keyLen is the length of a key: llm.Hash's 16 bytes in hex.
const keyLen = 32

func isKey(k string) bool {
	if len(k) != keyLen {
		return false
	}
	for _, c := range []byte(k) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// validRequest returns req with raw JSON that is not valid quoted as a
// JSON string, as llm.Hash reads it, so that it can be written and hashes
// the same when read back.
func validRequest(req llm.Request) llm.Request {
	req.ResponseSchema = validRaw(req.ResponseSchema)
	msgs := make([]llm.Message, len(req.Messages))
	for i, m := range req.Messages {
		if len(m.ToolCalls) > 0 {
			calls := make([]llm.ToolCall, len(m.ToolCalls))
			for j, c := range m.ToolCalls {
				c.Args = validRaw(c.Args)
				calls[j] = c
			}
			m.ToolCalls = calls
		}
		msgs[i] = m
	}
	req.Messages = msgs
	if req.Tools != nil {
		tools := make([]llm.ToolDecl, len(req.Tools))
		for i, t := range req.Tools {
			t.Schema = validRaw(t.Schema)
			tools[i] = t
		}
		req.Tools = tools
	}
	return req
}

func validRaw(raw json.RawMessage) json.RawMessage {
	if raw == nil || json.Valid(raw) {
		return raw
	}
	q, _ := json.Marshal(string(raw))
	return q
}
