package anthropic

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
)

func TestDecodeReply(t *testing.T) {
	tests := []struct {
		name, why string
		body      string
		want      llm.Reply
		refused   bool
		wantErr   bool
	}{
		{name: "text", why: "plain answer with usage",
			body: `{"type":"message","content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn","usage":{"input_tokens":5,"output_tokens":2}}`,
			want: llm.Reply{Text: "hi", FinishReason: llm.FinishStop, ProviderFinish: "end_turn", InputTokens: 5, OutputTokens: 2}},
		{name: "stop sequence", why: "a stop sequence is a normal stop",
			body: `{"content":[{"type":"text","text":"hi"}],"stop_reason":"stop_sequence"}`,
			want: llm.Reply{Text: "hi", FinishReason: llm.FinishStop, ProviderFinish: "stop_sequence"}},
		{name: "tool calls", why: "inputs kept byte for byte; a missing input is {}",
			body: `{"content":[{"type":"tool_use","id":"a","name":"f","input":{"x": 1}},{"type":"tool_use","id":"b","name":"g"}],"stop_reason":"tool_use"}`,
			want: llm.Reply{ToolCalls: []llm.ToolCall{{ID: "a", Name: "f", Args: json.RawMessage(`{"x": 1}`)}, {ID: "b", Name: "g", Args: json.RawMessage(`{}`)}},
				FinishReason: llm.FinishToolCalls, ProviderFinish: "tool_use"}},
		{name: "no stop reason", why: "a server that gives none: tool calls imply tool_calls",
			body: `{"content":[{"type":"tool_use","id":"a","name":"f","input":{}}],"stop_reason":null}`,
			want: llm.Reply{ToolCalls: []llm.ToolCall{{ID: "a", Name: "f", Args: json.RawMessage(`{}`)}}, FinishReason: llm.FinishToolCalls}},
		{name: "thinking without calls", why: "thinking is skipped, and kept nowhere when no call needs it",
			body: `{"content":[{"type":"thinking","thinking":"hm","signature":"s"},{"type":"text","text":"yes"}],"stop_reason":"end_turn"}`,
			want: llm.Reply{Text: "yes", FinishReason: llm.FinishStop, ProviderFinish: "end_turn"}},
		{name: "thinking with calls", why: "kept in the first call's signature, to go back",
			body: `{"content":[{"type":"thinking","thinking":"hm","signature":"s"},{"type":"tool_use","id":"a","name":"f","input":{}},{"type":"tool_use","id":"b","name":"f","input":{}}],"stop_reason":"tool_use"}`,
			want: llm.Reply{ToolCalls: []llm.ToolCall{
				{ID: "a", Name: "f", Args: json.RawMessage(`{}`), Signature: []byte(`[{"type":"thinking","thinking":"hm","signature":"s"}]`)},
				{ID: "b", Name: "f", Args: json.RawMessage(`{}`)}},
				FinishReason: llm.FinishToolCalls, ProviderFinish: "tool_use"}},
		{name: "server tool blocks", why: "blocks of types no request declares are skipped",
			body: `{"content":[{"type":"server_tool_use","id":"s","name":"web_search","input":{}},{"type":"text","text":"x"}],"stop_reason":"end_turn"}`,
			want: llm.Reply{Text: "x", FinishReason: llm.FinishStop, ProviderFinish: "end_turn"}},
		{name: "max tokens", why: "cut off by the token limit",
			body: `{"content":[{"type":"text","text":"abc"}],"stop_reason":"max_tokens"}`,
			want: llm.Reply{Text: "abc", FinishReason: llm.FinishLength, ProviderFinish: "max_tokens"}},
		{name: "refusal", why: "the refusal stop reason is the model's refusal",
			body: `{"content":[],"stop_reason":"refusal","stop_details":null}`,
			want: llm.Reply{FinishReason: llm.FinishOther, ProviderFinish: "refusal"}, refused: true},
		{name: "pause", why: "a reason the backend does not map is kept raw, and is not a refusal",
			body: `{"content":[{"type":"text","text":"x"}],"stop_reason":"pause_turn"}`,
			want: llm.Reply{Text: "x", FinishReason: llm.FinishOther, ProviderFinish: "pause_turn"}},
		{name: "empty content", why: "a model may say nothing at all",
			body: `{"type":"message","content":[],"stop_reason":"end_turn"}`,
			want: llm.Reply{FinishReason: llm.FinishStop, ProviderFinish: "end_turn"}},
		{name: "error body", why: "an error under a 200 is not a reply", body: `{"type":"error","error":{"type":"api_error","message":"x"}}`, wantErr: true},
		{name: "no content", why: "a reply without its content", body: `{"type":"message","stop_reason":"end_turn"}`, wantErr: true},
		{name: "call without id", why: "a call cannot be answered without its id", body: `{"content":[{"type":"tool_use","name":"f","input":{}}]}`, wantErr: true},
		{name: "negative usage", why: "a token count below zero is no count", body: `{"content":[],"usage":{"input_tokens":-1}}`, wantErr: true},
		{name: "wrong types", why: "text that is not a string", body: `{"content":[{"type":"text","text":5}]}`, wantErr: true},
		{name: "empty", why: "no body", body: ``, wantErr: true},
		{name: "cut", why: "truncated JSON", body: `{"content":[{"type":"text","text":"hi"`, wantErr: true},
		{name: "null", why: "JSON but not an object", body: `null`, wantErr: true},
		{name: "array", why: "JSON but not an object", body: `[1,2]`, wantErr: true},
	}
	for _, tc := range tests {
		got, refusal, err := decodeReply([]byte(tc.body))
		if (err != nil) != tc.wantErr {
			t.Errorf("%s (%s): error %v, want error %v", tc.name, tc.why, err, tc.wantErr)
			continue
		}
		if (refusal != "") != tc.refused {
			t.Errorf("%s (%s): refusal %q, want one: %v", tc.name, tc.why, refusal, tc.refused)
		}
		if !tc.wantErr && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s (%s): got %+v, want %+v", tc.name, tc.why, got, tc.want)
		}
	}
}

// FuzzDecodeReply: any body either fails to decode or gives a reply with a
// known finish reason, tool calls that carry an id, a name and JSON
// arguments, and counts that are not negative; and the thinking kept in a
// signature always reads back.
func FuzzDecodeReply(f *testing.F) {
	for _, s := range []string{
		`{"type":"message","content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn","usage":{"input_tokens":5,"output_tokens":2}}`,
		`{"content":[{"type":"tool_use","id":"a","name":"f","input":{"x":1}}],"stop_reason":"tool_use"}`,
		`{"content":[{"type":"thinking","thinking":"t","signature":"s"},{"type":"redacted_thinking","data":"d"},{"type":"tool_use","id":"a","name":"f"}]}`,
		`{"content":[],"stop_reason":"refusal","stop_details":{"category":"bio","explanation":"no"}}`,
		`{"content":[{"type":"thinking"},{"type":"tool_use","id":"a","name":"f"}]}`,
		`{"content":[{}]}`, `{"content":[null]}`, `{"content":{"a":1}}`, `{"usage":"x","content":[]}`,
		`{"content":[],"usage":{"input_tokens":9223372036854775807,"cache_read_input_tokens":1}}`,
		`null`, `[]`, `"x"`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, _, err := decodeReply(body)
		if err != nil {
			return
		}
		if !json.Valid(body) {
			t.Errorf("accepted a body that is not JSON: %q", body)
		}
		switch r.FinishReason {
		case llm.FinishStop, llm.FinishToolCalls, llm.FinishLength, llm.FinishOther:
		default:
			t.Errorf("finish reason %q", r.FinishReason)
		}
		if r.InputTokens < 0 || r.OutputTokens < 0 {
			t.Errorf("token counts %d, %d", r.InputTokens, r.OutputTokens)
		}
		for i, c := range r.ToolCalls {
			if c.ID == "" || c.Name == "" || !json.Valid(c.Args) {
				t.Errorf("call %d: %+v", i, c)
			}
			if len(c.Signature) > 0 {
				if _, ok := parseThinking(c.Signature); !ok || i != 0 {
					t.Errorf("call %d: signature %q does not read back", i, c.Signature)
				}
			}
		}
	})
}

// FuzzToolInput: whatever a call's arguments are, the input sent is one
// JSON object; an object is sent as it is, and anything else keeps its
// text under RawArgsKey.
func FuzzToolInput(f *testing.F) {
	for _, s := range []string{`{"a": 1}`, ``, `null`, ` { } `, `{oops`, `[1]`, `"s"`, `{"a":1} {"b":2}`, "{\"a\":\"\xff\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		in := toolInput(args)
		var obj map[string]any
		if err := json.Unmarshal(in, &obj); err != nil || obj == nil {
			t.Fatalf("input %q for %q is not a JSON object: %v", in, args, err)
		}
		trimmed := bytes.TrimSpace(args)
		switch {
		case len(trimmed) == 0 || string(trimmed) == "null":
			if len(obj) != 0 {
				t.Errorf("no arguments sent as %s", in)
			}
		case json.Valid(trimmed) && trimmed[0] == '{':
			var want bytes.Buffer
			json.Compact(&want, trimmed)
			if !bytes.Equal(in, want.Bytes()) {
				t.Errorf("object %q sent as %s", args, in)
			}
		default:
			if len(obj) != 1 || obj[RawArgsKey] == nil {
				t.Errorf("arguments %q sent as %s, want them under %s", args, in, RawArgsKey)
			}
		}
	})
}

// FuzzParseThinking: a signature either is the thinking this backend
// keeps, whose blocks go back as the API takes them, or gives none.
func FuzzParseThinking(f *testing.F) {
	for _, s := range []string{
		`[{"type":"thinking","thinking":"t","signature":"s"},{"type":"redacted_thinking","data":"d"}]`,
		`[{"type":"thinking","thinking":"t"}]`, `[]`, `[null]`, `[{"type":"text","text":"x"}]`,
		`skip_thought_signature_validator`, "\x00\x01", ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, sig []byte) {
		kept, ok := parseThinking(sig)
		blocks := thinkingBlocks(sig)
		if !ok {
			if len(blocks) != 0 {
				t.Fatalf("signature %q is not ours, yet gives %d blocks", sig, len(blocks))
			}
			return
		}
		if len(blocks) != len(kept) || len(kept) == 0 {
			t.Fatalf("%d blocks kept, %d sent", len(kept), len(blocks))
		}
		for i, b := range blocks {
			raw, err := json.Marshal(b)
			if err != nil {
				t.Fatalf("block %d: %v", i, err)
			}
			var back keptThinking
			if err := json.Unmarshal(raw, &back); err != nil || back != kept[i] {
				t.Errorf("block %d sent as %s, kept as %+v", i, raw, kept[i])
			}
		}
	})
}
