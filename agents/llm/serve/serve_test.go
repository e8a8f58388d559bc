package serve_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/serve"
)

// fake is an llm.Model that keeps its requests and answers with a fixed
// reply or error.
type fake struct {
	mu    sync.Mutex
	got   []llm.Request
	reply llm.Reply
	err   error
}

func (f *fake) Name() string { return "sim:test" }

func (f *fake) Generate(_ context.Context, req llm.Request) (llm.Reply, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.got = append(f.got, req)
	return f.reply, f.err
}

func (f *fake) calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.got)
}

type errorBody struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
	} `json:"error"`
}

func post(h http.Handler, body string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/v1/chat/completions", strings.NewReader(body)))
	return rec
}

func decodeError(t *testing.T, rec *httptest.ResponseRecorder) errorBody {
	t.Helper()
	var e errorBody
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
		t.Fatalf("error body is not JSON: %v\n%s", err, rec.Body)
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("content type %q", ct)
	}
	return e
}

func TestBadRequests(t *testing.T) {
	const user = `{"role":"user","content":"hi"}`
	tests := []struct {
		name   string
		why    string
		body   string
		status int
		param  string // the field the error must name; "" for none
		text   string // a piece of the message
	}{
		{"stream", "streaming is not offered, and the client must be told so", `{"messages":[` + user + `],"stream":true}`, 400, "stream", "streaming is not supported"},
		{"malformed JSON", "a body that is not JSON", `{"messages":[`, 400, "", "request body is not valid JSON"},
		{"not an object", "the body must be an object", `[1,2]`, 400, "", "request body: expected an object"},
		{"empty body", "nothing sent", ``, 400, "", "not valid JSON"},
		{"no messages", "a chat needs a message", `{"model":"m"}`, 400, "messages", "required"},
		{"unknown role", "roles are named, with their index", `{"messages":[` + user + `,{"role":"robot","content":"x"}]}`, 400, "messages[1].role", `unknown role "robot"`},
		{"missing role", "a message without a role", `{"messages":[{"content":"x"}]}`, 400, "messages[0].role", "required"},
		{"message not object", "each message must be an object", `{"messages":["hi"]}`, 400, "messages[0]", "expected an object"},
		{"content type", "content must be a string or parts", `{"messages":[{"role":"user","content":7}]}`, 400, "messages[0].content", "string or an array"},
		{"audio part", "only text and image parts are supported", `{"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"input_audio","input_audio":{"data":"","format":"wav"}}]}]}`, 400, "messages[0].content[1].type", "only text and image_url parts"},
		{"user tool calls", "only assistants call tools", `{"messages":[{"role":"user","content":"x","tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]}]}`, 400, "messages[0].tool_calls", "only assistant messages"},
		{"custom tool call", "only function calls are supported", `{"messages":[{"role":"assistant","tool_calls":[{"id":"a","type":"custom","custom":{"name":"f","input":"x"}}]}]}`, 400, "messages[0].tool_calls[0].type", "only \"function\""},
		{"arguments object", "arguments are a string in the API", `{"messages":[{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":{"x":1}}}]}]}`, 400, "messages[0].tool_calls[0].function.arguments", "expected a string"},
		{"tool type", "only function tools", `{"messages":[` + user + `],"tools":[{"type":"web_search"}]}`, 400, "tools[0].type", "only \"function\""},
		{"tool name", "a tool needs a name", `{"messages":[` + user + `],"tools":[{"type":"function","function":{"description":"d"}}]}`, 400, "tools[0].function.name", "required"},
		{"temperature type", "scalar fields name themselves", `{"messages":[` + user + `],"temperature":"hot"}`, 400, "temperature", "expected a number"},
		{"seed type", "an integer field given a fraction", `{"messages":[` + user + `],"seed":1.5}`, 400, "seed", "expected an integer"},
		{"n", "only one choice", `{"messages":[` + user + `],"n":3}`, 400, "n", "only one choice"},
		{"negative max tokens", "a negative limit is meaningless", `{"messages":[` + user + `],"max_tokens":-1}`, 400, "max_tokens", "negative"},
		{"response format type", "unknown response formats", `{"messages":[` + user + `],"response_format":{"type":"yaml"}}`, 400, "response_format.type", "unknown type"},
		{"schema missing", "json_schema needs its schema", `{"messages":[` + user + `],"response_format":{"type":"json_schema","json_schema":{"name":"x"}}}`, 400, "response_format.json_schema.schema", "required"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &fake{}
			rec := post(serve.Handler(m), tc.body)
			if rec.Code != tc.status {
				t.Errorf("status %d, want %d (%s)", rec.Code, tc.status, rec.Body)
			}
			e := decodeError(t, rec)
			param := ""
			if e.Error.Param != nil {
				param = *e.Error.Param
			}
			if param != tc.param {
				t.Errorf("param %q, want %q", param, tc.param)
			}
			if !strings.Contains(e.Error.Message, tc.text) || (tc.param != "" && !strings.Contains(e.Error.Message, tc.param)) {
				t.Errorf("message %q does not name %q and say %q", e.Error.Message, tc.param, tc.text)
			}
			if e.Error.Type != "invalid_request_error" {
				t.Errorf("type %q", e.Error.Type)
			}
			if m.calls() != 0 {
				t.Error("the model was called")
			}
		})
	}
}

func TestBodyTooLarge(t *testing.T) {
	m := &fake{}
	body := `{"messages":[{"role":"user","content":"` + strings.Repeat("x", serve.MaxBodyBytes) + `"}]}`
	rec := post(serve.Handler(m), body)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("status %d, want 413", rec.Code)
	}
	decodeError(t, rec)
}

func TestDecodeRequest(t *testing.T) {
	tests := []struct {
		name, why string
		body      string
		want      llm.Request
	}{
		{"defaults", "no temperature means OpenAI's default of 1",
			`{"model":"x","messages":[{"role":"user","content":"hi"}]}`,
			llm.Request{Temperature: 1, Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}},
		{"systems", "system and developer messages join into System, wherever they are",
			`{"messages":[{"role":"system","content":"a"},{"role":"user","content":"q"},{"role":"developer","content":[{"type":"text","text":"b"}]}],"temperature":0}`,
			llm.Request{System: "a\n\nb", Messages: []llm.Message{{Role: llm.RoleUser, Text: "q"}}}},
		{"parts", "text parts are joined; null content is empty",
			`{"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},{"role":"assistant","content":null}],"temperature":0}`,
			llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "ab"}, {Role: llm.RoleAssistant}}}},
		{"tool turn", "tool calls keep raw arguments; results keep id and name",
			`{"messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{oops"}}]},{"role":"tool","tool_call_id":"c1","content":"done"}],"temperature":0.2,"seed":9}`,
			llm.Request{Temperature: 0.2, Seed: 9, Messages: []llm.Message{
				{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "f", Args: json.RawMessage(`{oops`)}}},
				{Role: llm.RoleTool, ToolCallID: "c1", Text: "done"},
			}}},
		{"max tokens", "max_completion_tokens wins over max_tokens",
			`{"messages":[{"role":"user","content":"x"}],"max_tokens":5,"max_completion_tokens":7,"temperature":0}`,
			llm.Request{MaxOutputTokens: 7, Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}}},
		{"legacy max tokens", "max_tokens alone is used",
			`{"messages":[{"role":"user","content":"x"}],"max_tokens":5,"temperature":0}`,
			llm.Request{MaxOutputTokens: 5, Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}}},
		{"json object", "json_object asks for an object",
			`{"messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_object"},"temperature":0}`,
			llm.Request{ResponseSchema: json.RawMessage(`{"type":"object"}`), Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}}},
		{"tools", "parameters kept as raw bytes; ignored fields are ignored",
			`{"messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"f","description":"d","parameters":{"b":1,"a":2},"strict":true}},{"type":"function","function":{"name":"g","parameters":null}}],"tool_choice":"auto","top_p":0.5,"stream":false,"n":1,"temperature":0}`,
			llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}, Tools: []llm.ToolDecl{{Name: "f", Description: "d", Schema: json.RawMessage(`{"b":1,"a":2}`)}, {Name: "g"}}}},
	}
	for _, tc := range tests {
		got, err := serve.DecodeRequest([]byte(tc.body))
		if err != nil {
			t.Errorf("%s (%s): %v", tc.name, tc.why, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s (%s):\ngot  %+v\nwant %+v", tc.name, tc.why, got, tc.want)
		}
	}
}

func TestReply(t *testing.T) {
	tests := []struct {
		name, why   string
		reply       llm.Reply
		wantContent any
		wantFinish  string
	}{
		{"text", "plain text is the content", llm.Reply{Text: "hi", FinishReason: llm.FinishStop, InputTokens: 3, OutputTokens: 2}, "hi", "stop"},
		{"calls only", "content is null when the reply only calls tools", llm.Reply{ToolCalls: []llm.ToolCall{{ID: "a", Name: "f", Args: json.RawMessage(`{"x":`)}}, FinishReason: llm.FinishToolCalls}, nil, "tool_calls"},
		{"empty", "an empty reply still has a string content", llm.Reply{FinishReason: llm.FinishLength}, "", "length"},
		{"other", "FinishOther has no OpenAI name", llm.Reply{Text: "x", FinishReason: llm.FinishOther}, "x", "content_filter"},
		{"unset", "an unset reason with calls is tool_calls", llm.Reply{ToolCalls: []llm.ToolCall{{ID: "a", Name: "f"}}}, nil, "tool_calls"},
	}
	for _, tc := range tests {
		rec := post(serve.Handler(&fake{reply: tc.reply}), `{"messages":[{"role":"user","content":"x"}]}`)
		if rec.Code != 200 {
			t.Fatalf("%s: status %d: %s", tc.name, rec.Code, rec.Body)
		}
		var c struct {
			ID      string `json:"id"`
			Object  string `json:"object"`
			Model   string `json:"model"`
			Choices []struct {
				Message      map[string]any `json:"message"`
				FinishReason string         `json:"finish_reason"`
			} `json:"choices"`
			Usage map[string]int `json:"usage"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		if c.Object != "chat.completion" || c.Model != "sim:test" || !strings.HasPrefix(c.ID, "chatcmpl-") || len(c.Choices) != 1 {
			t.Errorf("%s: envelope %s", tc.name, rec.Body)
			continue
		}
		msg := c.Choices[0].Message
		if msg["role"] != "assistant" || msg["content"] != tc.wantContent || c.Choices[0].FinishReason != tc.wantFinish {
			t.Errorf("%s (%s): message %v finish %q, want content %v finish %q", tc.name, tc.why, msg, c.Choices[0].FinishReason, tc.wantContent, tc.wantFinish)
		}
		if len(tc.reply.ToolCalls) > 0 {
			calls, _ := msg["tool_calls"].([]any)
			call, _ := calls[0].(map[string]any)
			fn, _ := call["function"].(map[string]any)
			if call["id"] != tc.reply.ToolCalls[0].ID || call["type"] != "function" || fn["arguments"] != string(tc.reply.ToolCalls[0].Args) {
				t.Errorf("%s: tool call %v", tc.name, call)
			}
		}
		want := map[string]int{"prompt_tokens": tc.reply.InputTokens, "completion_tokens": tc.reply.OutputTokens, "total_tokens": tc.reply.InputTokens + tc.reply.OutputTokens}
		if !reflect.DeepEqual(c.Usage, want) {
			t.Errorf("%s: usage %v", tc.name, c.Usage)
		}
	}
}

func TestModelErrors(t *testing.T) {
	tests := []struct {
		name, why  string
		err        error
		status     int
		retryAfter string
		typ        string
	}{
		{"rate limited", "429 with the wait, rounded up to whole seconds", &llm.Error{Kind: llm.KindRateLimited, RetryAfter: 1500 * time.Millisecond, Err: errors.New("slow")}, 429, "2", "rate_limit_error"},
		{"bad request", "400", &llm.Error{Kind: llm.KindBadRequest, Err: errors.New("bad")}, 400, "", "invalid_request_error"},
		{"auth", "401", &llm.Error{Kind: llm.KindAuth, Err: errors.New("who")}, 401, "", "authentication_error"},
		{"forbidden", "an auth error with its own 403 keeps it", &llm.Error{Kind: llm.KindAuth, Status: 403, Err: errors.New("no")}, 403, "", "permission_error"},
		{"server", "500", &llm.Error{Kind: llm.KindServer, Err: errors.New("boom")}, 500, "", "server_error"},
		{"server 503", "a server error with its own status keeps it", &llm.Error{Kind: llm.KindServer, Status: 503, Err: errors.New("busy")}, 503, "", "server_error"},
		{"mismatched status", "a status of another kind is not kept", &llm.Error{Kind: llm.KindServer, Status: 200, Err: errors.New("odd")}, 500, "", "server_error"},
		{"timeout", "504", &llm.Error{Kind: llm.KindTimeout, Err: errors.New("slow")}, 504, "", "timeout_error"},
		{"malformed", "the upstream reply was unreadable: 502", &llm.Error{Kind: llm.KindMalformed, Status: 200, Err: errors.New("junk")}, 502, "", "server_error"},
		{"unknown", "an unknown kind is a 500", &llm.Error{Kind: llm.KindUnknown, Err: errors.New("?")}, 500, "", "server_error"},
		{"plain error", "an error that is no llm.Error is a 500", errors.New("plain"), 500, "", "server_error"},
		{"deadline", "a bare context deadline is a timeout", context.DeadlineExceeded, 504, "", "timeout_error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := post(serve.Handler(&fake{err: tc.err}), `{"messages":[{"role":"user","content":"x"}]}`)
			if rec.Code != tc.status {
				t.Errorf("status %d, want %d", rec.Code, tc.status)
			}
			if got := rec.Header().Get("Retry-After"); got != tc.retryAfter {
				t.Errorf("Retry-After %q, want %q", got, tc.retryAfter)
			}
			e := decodeError(t, rec)
			if e.Error.Type != tc.typ || e.Error.Message != tc.err.Error() {
				t.Errorf("error %+v, want type %q and message %q", e.Error, tc.typ, tc.err.Error())
			}
		})
	}
}

func TestEndpoints(t *testing.T) {
	srv := httptest.NewServer(serve.Handler(&fake{reply: llm.Reply{Text: "ok", FinishReason: llm.FinishStop}}))
	defer srv.Close()
	tests := []struct {
		name, why    string
		method, path string
		status       int
		want         string // a piece of the body
	}{
		{"models", "lists the one model", "GET", "/v1/models", 200, `{"object":"list","data":[{"id":"sim:test","object":"model","created":0,"owned_by":"ambibench"}]}`},
		{"model", "names the one model", "GET", "/v1/models/sim:test", 200, `"id":"sim:test"`},
		{"other model", "any other model is not here", "GET", "/v1/models/gpt-4o", 404, `no model \"gpt-4o\"`},
		{"post models", "models are read-only", "POST", "/v1/models", 405, "use GET"},
		{"get chat", "chat completions are posted", "GET", "/v1/chat/completions", 405, "use POST"},
		{"unknown path", "other endpoints do not exist", "GET", "/v1/embeddings", 404, "no such endpoint"},
	}
	for _, tc := range tests {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body json.RawMessage
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
			t.Errorf("%s: body is not JSON: %v", tc.name, err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.status || !strings.Contains(string(body), tc.want) {
			t.Errorf("%s (%s): %d %s, want %d with %s", tc.name, tc.why, resp.StatusCode, body, tc.status, tc.want)
		}
	}
}

// FuzzHandler: whatever the body, the handler answers 200 or 400 with a
// JSON body, and never panics; every image of a request it takes is
// valid, and its bytes are an image of its size that hash to its digest.
func FuzzHandler(f *testing.F) {
	for _, s := range []string{
		`{"model":"m","messages":[{"role":"user","content":"hi"}]}`,
		`{"messages":[{"role":"system","content":"s"},{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}}]},{"role":"tool","tool_call_id":"a","name":"f","content":[{"type":"text","text":"r"}]}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}],"temperature":0.3,"seed":5,"max_completion_tokens":9,"response_format":{"type":"json_schema","json_schema":{"name":"r","schema":{"type":"object"}}}}`,
		`{"messages":[{"role":"robot"}]}`, `{"messages":[{"role":"user","content":[{"type":"image_url"}]}]}`,
		`{"stream":true}`, `{"messages":null,"tools":[null]}`, `{"response_format":null,"messages":[{"role":"user"}]}`,
		`{"messages":[{"role":"user","content":{}}],"seed":1e99}`, `[]`, `null`, `"x"`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	chat, _ := imageFuzzSeeds()
	for _, s := range chat {
		f.Add([]byte(s))
	}
	h := serve.Handler(&fake{reply: llm.Reply{Text: "ok", ToolCalls: []llm.ToolCall{{ID: "a", Name: "f", Args: json.RawMessage("{\xff")}}, FinishReason: llm.FinishToolCalls}})
	f.Fuzz(func(t *testing.T, body []byte) {
		rec := post(h, string(body))
		if rec.Code != 200 && rec.Code != 400 {
			t.Errorf("status %d", rec.Code)
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Errorf("body is not JSON: %q", rec.Body)
		}
		if rec.Code == 200 {
			req, err := serve.DecodeRequest(body)
			if err != nil {
				t.Errorf("answered 200 to a request DecodeRequest refuses: %v", err)
			}
			checkImages(t, req)
		}
	})
}
