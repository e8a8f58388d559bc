package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/openai"
	"github.com/ambibench/ambibench/agents/llm/serve"
)

// recorder is a fake llm.Model that keeps the requests it gets and answers
// with a fixed reply or error.
type recorder struct {
	mu    sync.Mutex
	got   []llm.Request
	reply llm.Reply
	err   error
}

func (r *recorder) Name() string { return "fake:recorder" }

func (r *recorder) Generate(_ context.Context, req llm.Request) (llm.Reply, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, req)
	return r.reply, r.err
}

func (r *recorder) last(t *testing.T) llm.Request {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.got) != 1 {
		t.Fatalf("model got %d requests, want 1", len(r.got))
	}
	return r.got[0]
}

// normalise makes empty slices nil, so that a request that went through
// JSON compares equal to the original.
func normaliseRequest(req llm.Request) llm.Request {
	req.ResponseSchema = nilIfEmpty(req.ResponseSchema)
	if len(req.Messages) == 0 {
		req.Messages = nil
	}
	if len(req.Tools) == 0 {
		req.Tools = nil
	}
	msgs := make([]llm.Message, len(req.Messages))
	for i, m := range req.Messages {
		m.ToolCalls = normaliseCalls(m.ToolCalls)
		msgs[i] = m
	}
	if req.Messages != nil {
		req.Messages = msgs
	}
	tools := make([]llm.ToolDecl, len(req.Tools))
	for i, t := range req.Tools {
		t.Schema = nilIfEmpty(t.Schema)
		tools[i] = t
	}
	if req.Tools != nil {
		req.Tools = tools
	}
	return req
}

func normaliseReply(r llm.Reply) llm.Reply {
	r.ToolCalls = normaliseCalls(r.ToolCalls)
	r.Latency = 0
	r.ProviderFinish = "" // serve names the finish itself
	return r
}

func normaliseCalls(calls []llm.ToolCall) []llm.ToolCall {
	if len(calls) == 0 {
		return nil
	}
	out := make([]llm.ToolCall, len(calls))
	for i, c := range calls {
		c.Args = nilIfEmpty(c.Args)
		out[i] = c
	}
	return out
}

func nilIfEmpty(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	return raw
}

func TestRoundTripThroughServe(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"object":{"type":"string","description":"id, e.g. <red_block> & co"},"bowl":{"type":"string"}},"required":["object","bowl"]}`)
	full := llm.Request{
		System: "You are a robot planner.\n```ambibench\n{\"v\":1}\n```",
		Messages: []llm.Message{
			{Role: llm.RoleUser, Text: "Put the red block in the bowl.", Name: "operator"},
			{Role: llm.RoleAssistant, Text: "Let me look first.", ToolCalls: []llm.ToolCall{
				{ID: "call_a", Name: "retrieve_node", Args: json.RawMessage(`{"class": "block",  "colour":"red"}`)},
				{ID: "call_b", Name: "pick_and_place", Args: json.RawMessage(`{"object": "red_block", "bowl":`)},
			}},
			{Role: llm.RoleTool, ToolCallID: "call_a", Name: "retrieve_node", Text: `[{"id":"red_block"}]`},
			{Role: llm.RoleTool, ToolCallID: "call_b", Text: "error: arguments are not JSON"},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "call_c", Name: "done"}}},
			{Role: llm.RoleTool, ToolCallID: "call_c", Name: "done", Text: ""},
			{Role: llm.RoleUser, Text: "ünïcödé \u2028 and \"quotes\" <tags>"},
		},
		Tools: []llm.ToolDecl{
			{Name: "retrieve_node", Description: "Find objects by class & colour.", Schema: schema},
			{Name: "pick_and_place", Description: "Move an object.", Schema: json.RawMessage(`{"type":"object"}`)},
			{Name: "done"},
		},
		Temperature:     0.7,
		Seed:            -9007199254740993,
		MaxOutputTokens: 256,
		ResponseSchema:  json.RawMessage(`{"type":"object","properties":{"answer":{"type":"array","items":{"type":"string"}}}}`),
	}
	reply := llm.Reply{
		Text: "Placing it.",
		ToolCalls: []llm.ToolCall{
			{ID: "call_1", Name: "pick_and_place", Args: json.RawMessage(`{"object":"red_block","bowl":"blue_bowl"}`)},
			{ID: "call_2", Name: "ask", Args: json.RawMessage(`{"tag": "multiplicity", "question": "which`)},
		},
		FinishReason: llm.FinishToolCalls,
		InputTokens:  1234,
		OutputTokens: 56,
	}
	tests := []struct {
		name  string
		why   string
		req   llm.Request
		want  llm.Request // what the model should get; zero means req
		reply llm.Reply
	}{
		{name: "full", why: "every field the openai backend sends, malformed tool args in both directions, HTML characters in schemas", req: full, reply: reply},
		{name: "minimal", why: "temperature 0 must be sent and kept, not dropped as a zero value",
			req:   llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}},
			reply: llm.Reply{Text: "hello", FinishReason: llm.FinishStop, InputTokens: 1, OutputTokens: 1}},
		{name: "empty texts", why: "an empty user text and an empty assistant turn are kept as empty strings",
			req: llm.Request{Messages: []llm.Message{
				{Role: llm.RoleUser, Text: ""}, {Role: llm.RoleAssistant, Text: ""}, {Role: llm.RoleUser, Text: "again"},
			}, Temperature: 1},
			reply: llm.Reply{Text: "", FinishReason: llm.FinishLength}},
		{name: "schema whitespace", why: "schemas are sent compacted: whitespace goes, key order stays",
			req: llm.Request{
				Messages:       []llm.Message{{Role: llm.RoleUser, Text: "x"}},
				Tools:          []llm.ToolDecl{{Name: "f", Schema: json.RawMessage("{ \"z\": 1,\n  \"a\": [ 1, 2 ] }")}},
				ResponseSchema: json.RawMessage("{\n\t\"type\": \"object\"\n}"),
			},
			want: llm.Request{
				Messages:       []llm.Message{{Role: llm.RoleUser, Text: "x"}},
				Tools:          []llm.ToolDecl{{Name: "f", Schema: json.RawMessage(`{"z":1,"a":[1,2]}`)}},
				ResponseSchema: json.RawMessage(`{"type":"object"}`),
			},
			reply: llm.Reply{Text: `{"answer":[]}`, FinishReason: llm.FinishStop}},
		{name: "sample as seed", why: "Sample has no field in the API; it moves the seed sent, so that a server honouring seeds draws samples apart",
			req:   llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}, Temperature: 0.9, Sample: 3},
			want:  llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}, Temperature: 0.9, Seed: 3},
			reply: llm.Reply{Text: "y", FinishReason: llm.FinishStop}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fake := &recorder{reply: tc.reply}
			srv := httptest.NewServer(serve.Handler(fake))
			defer srv.Close()
			m, err := openai.New("served-model", openai.Options{BaseURL: srv.URL + "/v1", GenParams: llm.GenParams{ResponseSchema: true}})
			if err != nil {
				t.Fatal(err)
			}
			got, err := m.Generate(context.Background(), tc.req)
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			want := tc.want
			if want.Messages == nil {
				want = tc.req
			}
			if g, w := normaliseRequest(fake.last(t)), normaliseRequest(want); !reflect.DeepEqual(g, w) {
				t.Errorf("model got\n%s\nwant\n%s", dump(g), dump(w))
			}
			if g, w := normaliseReply(got), normaliseReply(tc.reply); !reflect.DeepEqual(g, w) {
				t.Errorf("reply\n%s\nwant\n%s", dump(g), dump(w))
			}
			if got.Latency <= 0 {
				t.Errorf("latency %v, want > 0", got.Latency)
			}
		})
	}
}

func dump(v any) string {
	data, _ := json.MarshalIndent(v, "", "  ")
	return string(data)
}

// TestRequestBody checks the JSON the backend puts on the wire, field by
// field, where the round trip cannot see it.
func TestRequestBody(t *testing.T) {
	var body map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			t.Errorf("request body: %v", err)
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}`)
	}))
	defer srv.Close()
	m, err := openai.New("llama3", openai.Options{BaseURL: srv.URL, GenParams: llm.GenParams{ResponseSchema: true}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Generate(context.Background(), llm.Request{
		System:          "sys",
		Messages:        []llm.Message{{Role: llm.RoleUser, Text: "hi"}},
		MaxOutputTokens: 10,
		Seed:            7,
		ResponseSchema:  json.RawMessage(`{"type":"object"}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"model":       "llama3",
		"temperature": 0.0,
		"seed":        7.0,
		"max_tokens":  10.0,
		"messages": []any{
			map[string]any{"role": "system", "content": "sys"},
			map[string]any{"role": "user", "content": "hi"},
		},
		"response_format": map[string]any{
			"type":        "json_schema",
			"json_schema": map[string]any{"name": "response", "schema": map[string]any{"type": "object"}},
		},
	}
	if !reflect.DeepEqual(body, want) {
		t.Errorf("body\n%s\nwant\n%s", dump(body), dump(want))
	}
}

// rewriteHost sends every request to a test server, whatever its URL says.
type rewriteHost struct{ to *url.URL }

func (rt rewriteHost) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host = rt.to.Scheme, rt.to.Host
	return http.DefaultTransport.RoundTrip(r)
}

func TestOptions(t *testing.T) {
	type seen struct {
		path, auth string
		body       map[string]any
	}
	tests := []struct {
		name     string
		why      string
		opts     func(srv *httptest.Server) openai.Options
		wantAuth string
		wantPath string
		wantMax  string // the max tokens field that must be sent
	}{
		{name: "official API", why: "no BaseURL means api.openai.com, whose reasoning models need max_completion_tokens; the key is a bearer token",
			opts: func(srv *httptest.Server) openai.Options {
				u, _ := url.Parse(srv.URL)
				return openai.Options{APIKey: "sk-test", HTTPClient: &http.Client{Transport: rewriteHost{u}}}
			},
			wantAuth: "Bearer sk-test", wantPath: "/v1/chat/completions", wantMax: "max_completion_tokens"},
		{name: "local server without key", why: "a BaseURL without a key sends the placeholder key; other servers get max_tokens",
			opts: func(srv *httptest.Server) openai.Options {
				return openai.Options{BaseURL: srv.URL + "/api/v1"}
			},
			wantAuth: "Bearer unused", wantPath: "/api/v1/chat/completions", wantMax: "max_tokens"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// The backend must not read the environment itself.
			t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/wrong")
			t.Setenv("OPENAI_API_KEY", "sk-from-env")
			var got seen
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got.path, got.auth = r.URL.Path, r.Header.Get("Authorization")
				json.NewDecoder(r.Body).Decode(&got.body)
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"choices":[{"message":{"content":"ok"},"finish_reason":"stop"}]}`)
			}))
			defer srv.Close()
			m, err := openai.New("gpt-x", tc.opts(srv))
			if err != nil {
				t.Fatal(err)
			}
			if m.Name() != "openai:gpt-x" {
				t.Errorf("Name() = %q", m.Name())
			}
			if _, err := m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}, MaxOutputTokens: 5}); err != nil {
				t.Fatal(err)
			}
			if got.auth != tc.wantAuth || got.path != tc.wantPath {
				t.Errorf("got %q at %q, want %q at %q", got.auth, got.path, tc.wantAuth, tc.wantPath)
			}
			if got.body[tc.wantMax] != 5.0 {
				t.Errorf("body %v lacks %s: 5", got.body, tc.wantMax)
			}
			for _, other := range []string{"max_tokens", "max_completion_tokens"} {
				if other != tc.wantMax && got.body[other] != nil {
					t.Errorf("body also sends %s", other)
				}
			}
		})
	}
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		name, why string
		model     string
		opts      openai.Options
	}{
		{"no key", "the official API needs a key, and the backend reads no environment", "gpt-x", openai.Options{}},
		{"no model", "a model name is required", "", openai.Options{APIKey: "k"}},
		{"bad URL", "a base URL must be http(s)", "m", openai.Options{BaseURL: "localhost:11434"}},
	}
	for _, tc := range tests {
		if _, err := openai.New(tc.model, tc.opts); err == nil {
			t.Errorf("%s (%s): no error", tc.name, tc.why)
		}
	}
}

// TestBadRequests checks requests the API cannot express fail before any
// HTTP call.
func TestBadRequests(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }))
	defer srv.Close()
	m, err := openai.New("m", openai.Options{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, why string
		req       llm.Request
	}{
		{"unknown role", "roles outside user/assistant/tool have no API form", llm.Request{Messages: []llm.Message{{Role: "system", Text: "x"}}}},
		{"user tool calls", "only assistant turns carry tool calls", llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, ToolCalls: []llm.ToolCall{{ID: "a", Name: "f"}}}}}},
		{"bad tool schema", "a schema must be JSON to be sent", llm.Request{Messages: []llm.Message{{Role: llm.RoleUser}}, Tools: []llm.ToolDecl{{Name: "f", Schema: json.RawMessage(`{`)}}}},
		{"bad response schema", "likewise the response schema", llm.Request{Messages: []llm.Message{{Role: llm.RoleUser}}, ResponseSchema: json.RawMessage(`nope`)}},
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

const okBody = `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}`

func TestErrorMapping(t *testing.T) {
	tests := []struct {
		name          string
		why           string
		handler       http.HandlerFunc
		clientTimeout time.Duration // http.Client.Timeout, if set
		ctxTimeout    time.Duration // context deadline, if set
		kind          llm.ErrorKind
		status        int
		retryAfter    time.Duration
	}{
		{name: "429 retry-after", why: "rate limits are retried after the server's wait",
			handler: status(429, map[string]string{"Retry-After": "2"}, `{"error":{"message":"slow down","type":"requests"}}`),
			kind:    llm.KindRateLimited, status: 429, retryAfter: 2 * time.Second},
		{name: "429 retry-after-ms", why: "OpenAI's millisecond header is more precise",
			handler: status(429, map[string]string{"Retry-After-Ms": "1500", "Retry-After": "2"}, `{"error":{"message":"slow down"}}`),
			kind:    llm.KindRateLimited, status: 429, retryAfter: 1500 * time.Millisecond},
		{name: "500", why: "server errors are retryable",
			handler: status(500, nil, `{"error":{"message":"boom","type":"server_error"}}`), kind: llm.KindServer, status: 500},
		{name: "503 plain text", why: "an error body that is not JSON still gives the status",
			handler: status(503, nil, `upstream unavailable`), kind: llm.KindServer, status: 503},
		{name: "400", why: "bad requests are not retried",
			handler: status(400, nil, `{"error":{"message":"bad","param":"messages"}}`), kind: llm.KindBadRequest, status: 400},
		{name: "400 refused setting", why: "a model setting the model refuses (o-series temperature) is a bad request: infrastructure, fixed in the spec",
			handler: status(400, nil, `{"error":{"message":"Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.","type":"invalid_request_error","param":"temperature","code":"unsupported_value"}}`),
			kind:    llm.KindBadRequest, status: 400},
		{name: "context length, OpenAI", why: "a prompt past the model's context is the model's own limit, by OpenAI's code",
			handler: status(400, nil, `{"error":{"message":"This model's maximum context length is 8192 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`),
			kind:    llm.KindRefused, status: 400},
		{name: "context length, vLLM", why: "vLLM words it as OpenAI does, with no code",
			handler: status(400, nil, `{"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.","type":"BadRequestError","code":400}`),
			kind:    llm.KindRefused, status: 400},
		{name: "context length, llama.cpp", why: "llama.cpp's own type and wording",
			handler: status(400, nil, `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}}`),
			kind:    llm.KindRefused, status: 400},
		{name: "enormous reply", why: "a body past the limit is the agent's failure, not a heap",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"choices":[{"message":{"content":"`+strings.Repeat("a", 2<<20)+`"}}]}`)
			}, kind: llm.KindTooLarge, status: 200},
		{name: "401", why: "auth failures are not retried",
			handler: status(401, nil, `{"error":{"message":"no key"}}`), kind: llm.KindAuth, status: 401},
		{name: "403", why: "forbidden is an auth failure too",
			handler: status(403, nil, `{"error":{"message":"no access"}}`), kind: llm.KindAuth, status: 403},
		{name: "client timeout", why: "http.Client.Timeout while waiting for headers",
			handler: hang, clientTimeout: 100 * time.Millisecond, kind: llm.KindTimeout},
		{name: "context deadline", why: "the caller's deadline",
			handler: hang, ctxTimeout: 100 * time.Millisecond, kind: llm.KindTimeout},
		{name: "deadline while reading body", why: "a reply whose body stalls past the deadline is a timeout, not malformed",
			handler: stallBody, ctxTimeout: 200 * time.Millisecond, kind: llm.KindTimeout, status: 200},
		{name: "truncated body", why: "a 200 whose body stops before Content-Length is malformed",
			handler: truncated, kind: llm.KindMalformed, status: 200},
		{name: "truncated JSON", why: "a 200 whose JSON is cut short is malformed",
			handler: status(200, nil, okBody[:len(okBody)/2]), kind: llm.KindMalformed, status: 200},
		{name: "not JSON", why: "a 200 with an HTML page is malformed",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				io.WriteString(w, "<html><body>proxy login</body></html>")
			}, kind: llm.KindMalformed, status: 200},
		{name: "no choices", why: "a 200 without a choice has nothing to return",
			handler: status(200, nil, `{"id":"x","choices":[]}`), kind: llm.KindMalformed, status: 200},
		{name: "connection dropped", why: "no answer at all is worth a retry",
			handler: func(w http.ResponseWriter, r *http.Request) {
				conn, _, err := w.(http.Hijacker).Hijack()
				if err == nil {
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
			opts := openai.Options{BaseURL: srv.URL + "/v1", APIKey: "sk-secret-123456", MaxReplyBytes: 1 << 20}
			if tc.clientTimeout > 0 {
				opts.HTTPClient = &http.Client{Timeout: tc.clientTimeout}
			}
			m, err := openai.New("m", opts)
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
			if tc.kind == llm.KindTimeout && !errors.Is(err, context.DeadlineExceeded) && !isTimeout(err) {
				t.Errorf("timeout error %v does not unwrap to a timeout", err)
			}
			if n := attempts.Load(); n != 1 {
				t.Errorf("%d HTTP attempts, want exactly 1 (SDK retries must be off)", n)
			}
			if strings.Contains(err.Error(), "sk-secret-123456") {
				t.Errorf("error leaks the key: %v", err)
			}
		})
	}
}

func isTimeout(err error) bool {
	var te interface{ Timeout() bool }
	return errors.As(err, &te) && te.Timeout()
}

func status(code int, headers map[string]string, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for k, v := range headers {
			w.Header().Set(k, v)
		}
		if strings.HasPrefix(body, "{") {
			w.Header().Set("Content-Type", "application/json")
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
	// Read the request first: closing a socket with unread input resets it,
	// and the client would see a reset rather than a short body.
	io.Copy(io.Discard, r.Body)
	conn, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(okBody), okBody[:len(okBody)/2])
	buf.Flush()
}

// TestKeyNotInErrors: a server that echoes the Authorization header back in
// its error bodies must not get the key into an error message.
func TestKeyNotInErrors(t *testing.T) {
	const key = "sk-proj-SECRETSECRETSECRET"
	tests := []struct {
		name, why string
		code      int
		body      func(auth string) string
	}{
		{"json echo", "the message of an OpenAI error body", 401, func(a string) string {
			return fmt.Sprintf(`{"error":{"message":"invalid key: %s","type":"invalid_request_error"}}`, a)
		}},
		{"text echo", "a plain-text error body is quoted in the message", 500, func(a string) string { return "bad gateway, header was " + a }},
		{"bare key", "the key without its Bearer prefix", 400, func(a string) string {
			return fmt.Sprintf(`{"error":{"message":"key %s is revoked"}}`, strings.TrimPrefix(a, "Bearer "))
		}},
		{"lower-case bearer", "a bearer token that is not ours is redacted too", 429, func(a string) string {
			return `{"error":{"message":"token bearer abc.def.ghi rejected"}}`
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tc.code)
				io.WriteString(w, tc.body(r.Header.Get("Authorization")))
			}))
			defer srv.Close()
			m, err := openai.New("m", openai.Options{BaseURL: srv.URL, APIKey: key})
			if err != nil {
				t.Fatal(err)
			}
			_, err = m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}})
			if err == nil {
				t.Fatal("no error")
			}
			for _, s := range []string{err.Error(), fmt.Sprintf("%v", err), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err)} {
				if strings.Contains(s, key) || strings.Contains(s, "abc.def.ghi") {
					t.Errorf("error text leaks a secret: %s", s)
				}
			}
			if !strings.Contains(err.Error(), "[redacted]") {
				t.Errorf("error %q does not show the redaction", err)
			}
			// Nothing in the error chain may hold the request (and its headers).
			for e := error(err); e != nil; e = errors.Unwrap(e) {
				if strings.Contains(fmt.Sprintf("%#v", e), key) {
					t.Errorf("error chain holds the key in %T", e)
				}
			}
		})
	}
}

// TestServeErrorsRoundTrip: a model error behind serve comes back through
// the openai backend as the same kind.
func TestServeErrorsRoundTrip(t *testing.T) {
	tests := []struct {
		name, why string
		err       error
		kind      llm.ErrorKind
		retry     time.Duration
	}{
		{"rate limited", "Retry-After crosses the wire", &llm.Error{Kind: llm.KindRateLimited, RetryAfter: 3 * time.Second, Err: errors.New("quota")}, llm.KindRateLimited, 3 * time.Second},
		{"bad request", "not retried on either side", &llm.Error{Kind: llm.KindBadRequest, Err: errors.New("bad")}, llm.KindBadRequest, 0},
		{"auth", "not retried on either side", &llm.Error{Kind: llm.KindAuth, Err: errors.New("who")}, llm.KindAuth, 0},
		{"server", "retryable", &llm.Error{Kind: llm.KindServer, Err: errors.New("boom")}, llm.KindServer, 0},
		{"timeout", "a 504 (gateway timeout) comes back as a timeout", &llm.Error{Kind: llm.KindTimeout, Err: errors.New("slow")}, llm.KindTimeout, 0},
		{"malformed", "a 502 is a server error to the client", &llm.Error{Kind: llm.KindMalformed, Err: errors.New("junk")}, llm.KindServer, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(serve.Handler(&recorder{err: tc.err}))
			defer srv.Close()
			m, err := openai.New("m", openai.Options{BaseURL: srv.URL + "/v1"})
			if err != nil {
				t.Fatal(err)
			}
			_, err = m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}})
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != tc.kind || e.RetryAfter != tc.retry {
				t.Errorf("got %#v, want kind %v retry %v", err, tc.kind, tc.retry)
			}
		})
	}
}

// TestOtherFinishThroughServe: serve sends FinishOther as "content_filter",
// which the backend keeps as the provider's finish and reports as the
// model's refusal, with the reply beside the error.
func TestOtherFinishThroughServe(t *testing.T) {
	srv := httptest.NewServer(serve.Handler(&recorder{reply: llm.Reply{Text: "no", FinishReason: llm.FinishOther, InputTokens: 4}}))
	defer srv.Close()
	m, err := openai.New("served-model", openai.Options{BaseURL: srv.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}})
	if llm.KindOf(err) != llm.KindRefused || llm.IsInfra(err) {
		t.Fatalf("error %v, want a refusal that is the agent's", err)
	}
	if got.ProviderFinish != "content_filter" || got.Text != "no" || got.InputTokens != 4 {
		t.Errorf("reply %+v, want the filtered reply with its finish and tokens", got)
	}
}
