package gemini_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/gemini"
)

// fakeGemini speaks the generateContent REST shape: it keeps each request
// (path, key header, decoded body) and answers with a fixed body.
type fakeGemini struct {
	mu     sync.Mutex
	paths  []string
	keys   []string
	bodies []map[string]any
	status int
	reply  string
}

func (f *fakeGemini) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, `{"error":{"code":400,"message":"bad JSON","status":"INVALID_ARGUMENT"}}`, 400)
		return
	}
	f.mu.Lock()
	f.paths = append(f.paths, r.Method+" "+r.URL.Path)
	f.keys = append(f.keys, r.Header.Get("X-Goog-Api-Key"))
	f.bodies = append(f.bodies, body)
	f.mu.Unlock()
	if !strings.HasSuffix(r.URL.Path, ":generateContent") || r.Method != http.MethodPost {
		http.Error(w, `{"error":{"code":404,"message":"no such method","status":"NOT_FOUND"}}`, 404)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if f.status != 0 {
		w.WriteHeader(f.status)
	}
	io.WriteString(w, f.reply)
}

func mustJSON(t *testing.T, s string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad test JSON: %v\n%s", err, s)
	}
	return v
}

func dump(v any) string {
	data, _ := json.MarshalIndent(v, "", "  ")
	return string(data)
}

func TestRoundTrip(t *testing.T) {
	conversation := llm.Request{
		System: "You plan for a robot.",
		Messages: []llm.Message{
			{Role: llm.RoleUser, Text: "Put the red block in a bowl."},
			{Role: llm.RoleAssistant, Text: "Looking.", ToolCalls: []llm.ToolCall{
				{ID: "call_0", Name: "retrieve_node", Args: json.RawMessage(`{"class":"block","colour":"red"}`)},
				{ID: "call_1", Name: "pick_and_place", Args: json.RawMessage(`{"object": "red_block",`)},
			}},
			{Role: llm.RoleTool, ToolCallID: "call_0", Name: "retrieve_node", Text: `[{"id":"red_block"}]`},
			{Role: llm.RoleTool, ToolCallID: "call_1", Text: "error: arguments are not JSON"},
			{Role: llm.RoleUser, Text: "Go on."},
		},
		Tools: []llm.ToolDecl{
			{Name: "retrieve_node", Description: "Find objects.", Schema: json.RawMessage(`{"type":"object","properties":{"class":{"type":"string"}},"required":["class"]}`)},
			{Name: "done"},
		},
		Temperature:     0.5,
		Seed:            42,
		MaxOutputTokens: 300,
		ResponseSchema:  json.RawMessage(`{"type":"object","properties":{"answer":{"type":"string"}}}`),
	}
	// What the server must receive for conversation.
	conversationBody := `{
		"systemInstruction": {"role": "user", "parts": [{"text": "You plan for a robot."}]},
		"contents": [
			{"role": "user", "parts": [{"text": "Put the red block in a bowl."}]},
			{"role": "model", "parts": [
				{"text": "Looking."},
				{"functionCall": {"id": "call_0", "name": "retrieve_node", "args": {"class": "block", "colour": "red"}},
				 "thoughtSignature": "c2tpcF90aG91Z2h0X3NpZ25hdHVyZV92YWxpZGF0b3I="},
				{"functionCall": {"id": "call_1", "name": "pick_and_place", "args": {"_raw": "{\"object\": \"red_block\","}}}
			]},
			{"role": "user", "parts": [
				{"functionResponse": {"id": "call_0", "name": "retrieve_node", "response": {"output": "[{\"id\":\"red_block\"}]"}}},
				{"functionResponse": {"id": "call_1", "name": "pick_and_place", "response": {"output": "error: arguments are not JSON"}}}
			]},
			{"role": "user", "parts": [{"text": "Go on."}]}
		],
		"tools": [{"functionDeclarations": [
			{"name": "retrieve_node", "description": "Find objects.", "parametersJsonSchema": {"type":"object","properties":{"class":{"type":"string"}},"required":["class"]}},
			{"name": "done"}
		]}],
		"generationConfig": {
			"temperature": 0.5, "seed": 42, "maxOutputTokens": 300,
			"responseMimeType": "application/json",
			"responseJsonSchema": {"type":"object","properties":{"answer":{"type":"string"}}}
		}
	}`
	tests := []struct {
		name     string
		why      string
		req      llm.Request
		wantBody string
		reply    string
		want     llm.Reply
		refused  bool
	}{
		{name: "tools and results",
			why: "every request field; results grouped in one user turn; a missing tool name taken from the call; malformed args wrapped; reply ids generated in order, thoughts skipped",
			req: conversation, wantBody: conversationBody,
			reply: `{"candidates":[{"content":{"role":"model","parts":[
				{"text":"thinking hard","thought":true},
				{"text":"Placing "},{"text":"it."},
				{"functionCall":{"name":"pick_and_place","args":{"object":"red_block","bowl":"blue <bowl>"}}},
				{"functionCall":{"name":"done"}}]},
				"finishReason":"STOP"}],
				"usageMetadata":{"promptTokenCount":120,"candidatesTokenCount":30,"thoughtsTokenCount":12,"totalTokenCount":162}}`,
			want: llm.Reply{Text: "Placing it.", ToolCalls: []llm.ToolCall{
				{ID: "call_0", Name: "pick_and_place", Args: json.RawMessage(`{"bowl":"blue <bowl>","object":"red_block"}`)},
				{ID: "call_1", Name: "done", Args: json.RawMessage(`{}`)},
			}, FinishReason: llm.FinishToolCalls, ProviderFinish: "STOP", InputTokens: 120, OutputTokens: 42}},
		{name: "api ids",
			why:      "ids the API gives are kept; temperature 0 is sent, not dropped",
			req:      llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}},
			wantBody: `{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"generationConfig":{"temperature":0,"seed":0}}`,
			reply:    `{"candidates":[{"content":{"parts":[{"functionCall":{"id":"fc-9","name":"f","args":{}}}]},"finishReason":"STOP"}]}`,
			want:     llm.Reply{ToolCalls: []llm.ToolCall{{ID: "fc-9", Name: "f", Args: json.RawMessage(`{}`)}}, FinishReason: llm.FinishToolCalls, ProviderFinish: "STOP"}},
		{name: "signatures kept",
			why: "Gemini 3's thought signatures come with the calls, and go back exactly as received on the calls that had one, with no placeholder",
			req: llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"},
				{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{
					{ID: "a", Name: "f", Args: json.RawMessage(`{}`), Signature: []byte{0xc0, 0, 'S'}},
					{ID: "b", Name: "g", Args: json.RawMessage(`{}`)}}},
				{Role: llm.RoleTool, ToolCallID: "a", Text: "1"}, {Role: llm.RoleTool, ToolCallID: "b", Text: "2"}}},
			wantBody: `{"contents":[{"role":"user","parts":[{"text":"hi"}]},
				{"role":"model","parts":[{"functionCall":{"id":"a","name":"f"},"thoughtSignature":"wABT"},{"functionCall":{"id":"b","name":"g"}}]},
				{"role":"user","parts":[{"functionResponse":{"id":"a","name":"f","response":{"output":"1"}}},{"functionResponse":{"id":"b","name":"g","response":{"output":"2"}}}]}],
				"generationConfig":{"temperature":0,"seed":0}}`,
			reply: `{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{}},"thoughtSignature":"c2lnLTE="},{"functionCall":{"name":"g","args":{}}}]},"finishReason":"STOP"}]}`,
			want: llm.Reply{ToolCalls: []llm.ToolCall{{ID: "call_0", Name: "f", Args: json.RawMessage(`{}`), Signature: []byte("sig-1")},
				{ID: "call_1", Name: "g", Args: json.RawMessage(`{}`)}}, FinishReason: llm.FinishToolCalls, ProviderFinish: "STOP"}},
		{name: "malformed function call",
			why:      "MALFORMED_FUNCTION_CALL is kept as Gemini says it; the reply is the agent's to fail on, not a refusal",
			req:      llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}},
			wantBody: `{"contents":[{"role":"user","parts":[{"text":"x"}]}],"generationConfig":{"temperature":0,"seed":0}}`,
			reply:    `{"candidates":[{"finishReason":"MALFORMED_FUNCTION_CALL"}]}`,
			want:     llm.Reply{FinishReason: llm.FinishOther, ProviderFinish: "MALFORMED_FUNCTION_CALL"}},
		{name: "max tokens",
			why:      "MAX_TOKENS is a length finish; a seed beyond 32 bits is folded",
			req:      llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "long"}}, Seed: 1<<40 | 3, Temperature: 1},
			wantBody: `{"contents":[{"role":"user","parts":[{"text":"long"}]}],"generationConfig":{"temperature":1,"seed":259}}`,
			reply:    `{"candidates":[{"content":{"parts":[{"text":"abc"}]},"finishReason":"MAX_TOKENS"}],"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":8}}`,
			want:     llm.Reply{Text: "abc", FinishReason: llm.FinishLength, ProviderFinish: "MAX_TOKENS", InputTokens: 4, OutputTokens: 8}},
		{name: "safety",
			why:      "a safety stop is the model's refusal, its reason kept raw; the reply comes beside the error",
			req:      llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}},
			wantBody: `{"contents":[{"role":"user","parts":[{"text":"x"}]}],"generationConfig":{"temperature":0,"seed":0}}`,
			reply:    `{"candidates":[{"finishReason":"SAFETY"}]}`,
			want:     llm.Reply{FinishReason: llm.FinishOther, ProviderFinish: "SAFETY"}, refused: true},
		{name: "recitation",
			why:      "a recitation stop is a refusal too",
			req:      llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}},
			wantBody: `{"contents":[{"role":"user","parts":[{"text":"x"}]}],"generationConfig":{"temperature":0,"seed":0}}`,
			reply:    `{"candidates":[{"content":{"parts":[{"text":"Once upon"}]},"finishReason":"RECITATION"}]}`,
			want:     llm.Reply{Text: "Once upon", FinishReason: llm.FinishOther, ProviderFinish: "RECITATION"}, refused: true},
		{name: "blocked prompt",
			why:      "a blocked prompt has no candidates; it is a refusal, with its tokens",
			req:      llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}},
			wantBody: `{"contents":[{"role":"user","parts":[{"text":"x"}]}],"generationConfig":{"temperature":0,"seed":0}}`,
			reply:    `{"promptFeedback":{"blockReason":"SAFETY"},"usageMetadata":{"promptTokenCount":2}}`,
			want:     llm.Reply{FinishReason: llm.FinishOther, ProviderFinish: "blocked: SAFETY", InputTokens: 2}, refused: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fake := &fakeGemini{reply: tc.reply}
			srv := httptest.NewServer(fake)
			defer srv.Close()
			m, err := gemini.New("gemini-test", gemini.Options{APIKey: "k-123", BaseURL: srv.URL, GenParams: llm.GenParams{ResponseSchema: true}})
			if err != nil {
				t.Fatal(err)
			}
			got, err := m.Generate(context.Background(), tc.req)
			if tc.refused {
				if llm.KindOf(err) != llm.KindRefused || llm.IsInfra(err) {
					t.Errorf("error %v, want a refusal, the agent's", err)
				}
			} else if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			if len(fake.bodies) != 1 {
				t.Fatalf("%d requests, want 1", len(fake.bodies))
			}
			if p := fake.paths[0]; p != "POST /v1beta/models/gemini-test:generateContent" {
				t.Errorf("path %q", p)
			}
			if k := fake.keys[0]; k != "k-123" {
				t.Errorf("key header %q", k)
			}
			if want := mustJSON(t, tc.wantBody); !reflect.DeepEqual(fake.bodies[0], want) {
				t.Errorf("server got\n%s\nwant\n%s", dump(fake.bodies[0]), dump(want))
			}
			if got.Latency <= 0 {
				t.Errorf("latency %v", got.Latency)
			}
			got.Latency = 0
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("reply\n%s\nwant\n%s", dump(got), dump(tc.want))
			}
		})
	}
}

func TestOptions(t *testing.T) {
	tests := []struct {
		name, why string
		opts      gemini.Options
		wantPath  string
		wantKey   string
	}{
		{"vertex", "project and location pick the Vertex AI path; a given HTTP client does its own auth",
			gemini.Options{Backend: gemini.BackendVertex, Project: "proj", Location: "europe-west4", HTTPClient: &http.Client{}},
			"POST /v1beta1/projects/proj/locations/europe-west4/publishers/google/models/gemini-v:generateContent", ""},
		{"local without key", "a base URL without a key sends the placeholder",
			gemini.Options{}, "POST /v1beta/models/gemini-v:generateContent", "unused"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GEMINI_API_KEY", "from-env")
			t.Setenv("GOOGLE_API_KEY", "from-env")
			fake := &fakeGemini{reply: `{"candidates":[{"content":{"parts":[{"text":"ok"}]},"finishReason":"STOP"}]}`}
			srv := httptest.NewServer(fake)
			defer srv.Close()
			tc.opts.BaseURL = srv.URL
			m, err := gemini.New("gemini-v", tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if m.Name() != "gemini:gemini-v" {
				t.Errorf("Name() = %q", m.Name())
			}
			if _, err := m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}}); err != nil {
				t.Fatal(err)
			}
			if fake.paths[0] != tc.wantPath || fake.keys[0] != tc.wantKey {
				t.Errorf("got %q key %q, want %q key %q", fake.paths[0], fake.keys[0], tc.wantPath, tc.wantKey)
			}
		})
	}
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		name, why string
		model     string
		opts      gemini.Options
	}{
		{"no key", "the Gemini API needs a key; the backend reads no environment", "m", gemini.Options{}},
		{"no model", "a model name is required", "", gemini.Options{APIKey: "k"}},
		{"unknown backend", "only gemini and vertex exist", "m", gemini.Options{APIKey: "k", Backend: "bedrock"}},
		{"project on gemini", "project and location are Vertex AI's", "m", gemini.Options{APIKey: "k", Project: "p"}},
		{"vertex without project", "Vertex AI needs a project and location or a key", "m", gemini.Options{Backend: gemini.BackendVertex, Project: "p"}},
	}
	for _, tc := range tests {
		t.Setenv("GEMINI_API_KEY", "from-env")
		if _, err := gemini.New(tc.model, tc.opts); err == nil {
			t.Errorf("%s (%s): no error", tc.name, tc.why)
		}
	}
}

func TestBadRequests(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }))
	defer srv.Close()
	m, err := gemini.New("m", gemini.Options{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, why string
		req       llm.Request
	}{
		{"unknown role", "roles outside user/assistant/tool have no API form", llm.Request{Messages: []llm.Message{{Role: "system", Text: "x"}}}},
		{"orphan tool result", "a function response needs a name, from the message or an earlier call", llm.Request{Messages: []llm.Message{{Role: llm.RoleTool, ToolCallID: "nope", Text: "x"}}}},
		{"user tool calls", "only assistant turns carry tool calls", llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, ToolCalls: []llm.ToolCall{{ID: "a", Name: "f"}}}}}},
		{"bad tool schema", "a schema must be JSON", llm.Request{Messages: []llm.Message{{Role: llm.RoleUser}}, Tools: []llm.ToolDecl{{Name: "f", Schema: json.RawMessage(`{`)}}}},
		{"bad response schema", "likewise", llm.Request{Messages: []llm.Message{{Role: llm.RoleUser}}, ResponseSchema: json.RawMessage(`{`)}},
	}
	for _, tc := range tests {
		_, err := m.Generate(context.Background(), tc.req)
		if llm.KindOf(err) != llm.KindBadRequest {
			t.Errorf("%s (%s): got %v, want a bad request", tc.name, tc.why, err)
		}
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("%d HTTP calls, want none", n)
	}
}

const okBody = `{"candidates":[{"content":{"role":"model","parts":[{"text":"fine"}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":1}}`

func apiError(code int, status, msg string) string {
	return fmt.Sprintf(`{"error":{"code":%d,"message":%q,"status":%q}}`, code, msg, status)
}

func TestErrorMapping(t *testing.T) {
	tests := []struct {
		name          string
		why           string
		handler       http.HandlerFunc
		clientTimeout time.Duration
		ctxTimeout    time.Duration
		kind          llm.ErrorKind
		status        int
		retryAfter    time.Duration
	}{
		{name: "429 retry-after", why: "rate limits are retried after the server's wait",
			handler: reply(429, map[string]string{"Retry-After": "2"}, apiError(429, "RESOURCE_EXHAUSTED", "quota")),
			kind:    llm.KindRateLimited, status: 429, retryAfter: 2 * time.Second},
		{name: "429 RetryInfo", why: "Google says how long to wait in the error details",
			handler: reply(429, nil, `{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"37s"}]}}`),
			kind:    llm.KindRateLimited, status: 429, retryAfter: 37 * time.Second},
		{name: "500", why: "server errors are retryable",
			handler: reply(500, nil, apiError(500, "INTERNAL", "boom")), kind: llm.KindServer, status: 500},
		{name: "503", why: "overloaded is a server error",
			handler: reply(503, nil, apiError(503, "UNAVAILABLE", "overloaded")), kind: llm.KindServer, status: 503},
		{name: "502 plain text", why: "a proxy's text error body still gives the status",
			handler: reply(502, nil, "bad gateway"), kind: llm.KindServer, status: 502},
		{name: "400", why: "bad requests are not retried",
			handler: reply(400, nil, apiError(400, "INVALID_ARGUMENT", "bad")), kind: llm.KindBadRequest, status: 400},
		{name: "401", why: "auth failures are not retried",
			handler: reply(401, nil, apiError(401, "UNAUTHENTICATED", "who")), kind: llm.KindAuth, status: 401},
		{name: "403", why: "permission denied is an auth failure",
			handler: reply(403, nil, apiError(403, "PERMISSION_DENIED", "no")), kind: llm.KindAuth, status: 403},
		{name: "client timeout", why: "http.Client.Timeout while waiting",
			handler: hang, clientTimeout: 100 * time.Millisecond, kind: llm.KindTimeout},
		{name: "context deadline", why: "the caller's deadline",
			handler: hang, ctxTimeout: 100 * time.Millisecond, kind: llm.KindTimeout},
		{name: "deadline while reading body", why: "a body that stalls past the deadline is a timeout",
			handler: stallBody, ctxTimeout: 200 * time.Millisecond, kind: llm.KindTimeout, status: 200},
		{name: "truncated body", why: "a 200 whose body stops before Content-Length is malformed",
			handler: truncated, kind: llm.KindMalformed, status: 200},
		{name: "truncated JSON", why: "a 200 whose JSON is cut short is malformed",
			handler: reply(200, nil, okBody[:len(okBody)/2]), kind: llm.KindMalformed, status: 200},
		{name: "not JSON", why: "a 200 with an HTML page is malformed",
			handler: reply(200, map[string]string{"Content-Type": "text/html"}, "<html>login</html>"), kind: llm.KindMalformed, status: 200},
		{name: "JSON null", why: "a 200 with null is malformed (and must not crash the SDK)",
			handler: reply(200, nil, "null"), kind: llm.KindMalformed, status: 200},
		{name: "wrong shape", why: "a 200 whose fields have the wrong types is malformed",
			handler: reply(200, nil, `{"candidates":"many"}`), kind: llm.KindMalformed, status: 200},
		{name: "no candidates", why: "a 200 with nothing in it is malformed",
			handler: reply(200, nil, `{"usageMetadata":{"promptTokenCount":1}}`), kind: llm.KindMalformed, status: 200},
		{name: "connection dropped", why: "no answer at all is worth a retry",
			handler: func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
					conn.Close()
				}
			}, kind: llm.KindServer},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var attempts atomic.Int32
			stop := make(chan struct{})
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				attempts.Add(1)
				tc.handler(w, r.WithContext(context.WithValue(r.Context(), stopKey{}, stop)))
			}))
			defer srv.Close()
			defer close(stop)
			opts := gemini.Options{BaseURL: srv.URL, APIKey: "AIza-secret-key"}
			if tc.clientTimeout > 0 {
				opts.HTTPClient = &http.Client{Timeout: tc.clientTimeout}
			}
			m, err := gemini.New("g", opts)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if tc.ctxTimeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.ctxTimeout)
				defer cancel()
			}
			_, err = m.Generate(ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}})
			var e *llm.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T), want *llm.Error", err, err)
			}
			if e.Kind != tc.kind || e.Status != tc.status || e.RetryAfter != tc.retryAfter {
				t.Errorf("got kind %v status %d retry-after %v, want %v %d %v (%v)", e.Kind, e.Status, e.RetryAfter, tc.kind, tc.status, tc.retryAfter, err)
			}
			if n := attempts.Load(); n != 1 {
				t.Errorf("%d HTTP attempts, want exactly 1 (SDK retries must be off)", n)
			}
			if strings.Contains(err.Error(), "AIza-secret-key") {
				t.Errorf("error leaks the key: %v", err)
			}
		})
	}
}

func reply(code int, headers map[string]string, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		for k, v := range headers {
			w.Header().Set(k, v)
		}
		w.WriteHeader(code)
		io.WriteString(w, body)
	}
}

type stopKey struct{}

// hang answers nothing until the client goes or the test ends.
func hang(w http.ResponseWriter, r *http.Request) {
	stop, _ := r.Context().Value(stopKey{}).(chan struct{})
	select {
	case <-r.Context().Done():
	case <-stop:
	case <-time.After(10 * time.Second):
	}
}

func stallBody(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", fmt.Sprint(len(okBody)))
	w.WriteHeader(200)
	io.WriteString(w, okBody[:10])
	w.(http.Flusher).Flush()
	hang(w, r)
}

// truncated promises a whole reply and sends half of it.
func truncated(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	conn, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(okBody), okBody[:len(okBody)/2])
	buf.Flush()
}

// TestKeyNotInErrors: a server that echoes the key header back must not get
// the key into an error message.
func TestKeyNotInErrors(t *testing.T) {
	const key = "AIzaSyD-SECRETSECRETSECRET"
	tests := []struct {
		name, why string
		code      int
		body      func(key string) string
	}{
		{"json echo", "the message of a Google error body", 400, func(k string) string { return apiError(400, "INVALID_ARGUMENT", "API key "+k+" not valid") }},
		{"details echo", "a key inside the error details", 403, func(k string) string {
			return `{"error":{"code":403,"message":"denied","status":"PERMISSION_DENIED","details":[{"key":"` + k + `"}]}}`
		}},
		{"text echo", "a plain-text error body", 500, func(k string) string { return "upstream said x-goog-api-key=" + k }},
		{"200 echo", "a malformed 200 that quotes the key", 200, func(k string) string { return "not json " + k }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tc.code)
				io.WriteString(w, tc.body(r.Header.Get("X-Goog-Api-Key")))
			}))
			defer srv.Close()
			m, err := gemini.New("g", gemini.Options{BaseURL: srv.URL, APIKey: key})
			if err != nil {
				t.Fatal(err)
			}
			_, err = m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}})
			if err == nil {
				t.Fatal("no error")
			}
			for e := error(err); e != nil; e = errors.Unwrap(e) {
				for _, s := range []string{e.Error(), fmt.Sprintf("%+v", e), fmt.Sprintf("%#v", e)} {
					if strings.Contains(s, key) {
						t.Errorf("error (%T) leaks the key: %s", e, s)
					}
				}
			}
		})
	}
}
