package openai

import (
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
			body: `{"choices":[{"message":{"content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":2}}`,
			want: llm.Reply{Text: "hi", FinishReason: llm.FinishStop, ProviderFinish: "stop", InputTokens: 5, OutputTokens: 2}},
		{name: "tool calls", why: "arguments kept raw, even when not JSON",
			body: `{"choices":[{"message":{"content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{\"x\": 1}"}},{"id":"b","type":"function","function":{"name":"g","arguments":"{oops"}}]},"finish_reason":"tool_calls"}]}`,
			want: llm.Reply{ToolCalls: []llm.ToolCall{{ID: "a", Name: "f", Args: json.RawMessage(`{"x": 1}`)}, {ID: "b", Name: "g", Args: json.RawMessage(`{oops`)}}, FinishReason: llm.FinishToolCalls, ProviderFinish: "tool_calls"}},
		{name: "no finish reason", why: "some local servers send null: tool calls imply tool_calls",
			body: `{"choices":[{"message":{"tool_calls":[{"id":"a","function":{"name":"f","arguments":""}}]},"finish_reason":null}]}`,
			want: llm.Reply{ToolCalls: []llm.ToolCall{{ID: "a", Name: "f"}}, FinishReason: llm.FinishToolCalls}},
		{name: "length", why: "cut off by the token limit",
			body: `{"choices":[{"message":{"content":"abc"},"finish_reason":"length"}]}`,
			want: llm.Reply{Text: "abc", FinishReason: llm.FinishLength, ProviderFinish: "length"}},
		{name: "refusal", why: "a refusal is the text, finished for another reason, and reported as a refusal",
			body: `{"choices":[{"message":{"content":null,"refusal":"I can't"},"finish_reason":"stop"}]}`,
			want: llm.Reply{Text: "I can't", FinishReason: llm.FinishOther, ProviderFinish: "stop"}, refused: true},
		{name: "content filter", why: "the filter's stop is kept as OpenAI names it, and is a refusal",
			body: `{"choices":[{"message":{"content":""},"finish_reason":"content_filter"}]}`,
			want: llm.Reply{FinishReason: llm.FinishOther, ProviderFinish: "content_filter"}, refused: true},
		{name: "unknown finish", why: "a reason OpenAI has no name for is kept raw, and is not a refusal",
			body: `{"choices":[{"message":{"content":"x"},"finish_reason":"eos_token"}]}`,
			want: llm.Reply{Text: "x", FinishReason: llm.FinishOther, ProviderFinish: "eos_token"}},
		{name: "custom tool call", why: "only function tools are declared", body: `{"choices":[{"message":{"tool_calls":[{"id":"a","type":"custom","custom":{"name":"f","input":"x"}}]}}]}`, wantErr: true},
		{name: "empty", why: "no body", body: ``, wantErr: true},
		{name: "cut", why: "truncated JSON", body: `{"choices":[{"message":{"content":"hi"`, wantErr: true},
		{name: "no choices", why: "nothing to return", body: `{"choices":[]}`, wantErr: true},
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

func FuzzDecodeReply(f *testing.F) {
	for _, s := range []string{
		`{"choices":[{"message":{"content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":2}}`,
		`{"choices":[{"message":{"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{oops"}}]},"finish_reason":"tool_calls"}]}`,
		`{"choices":[{"message":{"refusal":"no"}}]}`,
		`{"choices":[{}]}`, `{"choices":[null]}`, `{"choices":{"a":1}}`, `{"usage":"x","choices":[{"message":[]}]}`,
		`null`, `[]`, `"x"`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, _, err := decodeReply(body)
		if err != nil {
			return
		}
		switch r.FinishReason {
		case llm.FinishStop, llm.FinishToolCalls, llm.FinishLength, llm.FinishOther:
		default:
			t.Errorf("finish reason %q", r.FinishReason)
		}
		if !json.Valid(body) {
			t.Errorf("accepted a body that is not JSON: %q", body)
		}
	})
}
