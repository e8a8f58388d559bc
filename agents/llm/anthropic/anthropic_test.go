package anthropic_test

import (
	"context"
	"encoding/base64"
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
	"github.com/ambibench/ambibench/agents/llm/anthropic"
)

// okBody is a whole Messages API reply with text.
const okBody = `{"id":"msg_01","type":"message","role":"assistant","model":"claude-test","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":1}}`

// seen is what a fake server was sent: the path, the headers and the body.
type seen struct {
	mu     sync.Mutex
	path   string
	header http.Header
	body   map[string]any
	raw    []byte
}

func (s *seen) get() (string, http.Header, map[string]any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.path, s.header, s.body
}

// fake is a Messages API server that keeps what it was sent and answers
// every request with reply.
func fake(t *testing.T, reply string) (*httptest.Server, *seen) {
	t.Helper()
	s := &seen{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Errorf("request body: %v", err)
		}
		s.mu.Lock()
		s.path, s.header, s.body, s.raw = r.URL.Path, r.Header.Clone(), body, raw
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, reply)
	}))
	t.Cleanup(srv.Close)
	return srv, s
}

func dump(v any) string {
	data, _ := json.MarshalIndent(v, "", "  ")
	return string(data)
}

// png is a stand-in for an image's bytes: the eight bytes of PNG's
// signature are enough for a request body.
var png = []byte("\x89PNG\r\n\x1a\n")

func image(digest string) llm.Image {
	return llm.Image{Digest: digest, MIME: llm.ImagePNG, Width: 64, Height: 48,
		Data: func() ([]byte, error) { return png, nil }}
}

// TestRequestBody checks the JSON the backend puts on the wire, field by
// field: every kind of turn, images, tools, and the merging of tool
// results.
func TestRequestBody(t *testing.T) {
	srv, got := fake(t, okBody)
	m, err := anthropic.New("claude-test", anthropic.Options{BaseURL: srv.URL, APIKey: "sk-ant-test", GenParams: llm.GenParams{ResponseSchema: true}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Generate(context.Background(), llm.Request{
		System: "You are a robot planner.",
		Messages: []llm.Message{
			{Role: llm.RoleUser, Text: "Put the red block in the bowl.", Name: "operator",
				Images: []llm.Image{image("00112233445566778899"), image("aabbccddeeff00112233")}},
			{Role: llm.RoleAssistant, Text: "Let me look.", ToolCalls: []llm.ToolCall{
				{ID: "toolu_a", Name: "retrieve_node", Args: json.RawMessage(`{"class": "block",  "colour":"red"}`)},
				{ID: "toolu_b", Name: "pick_and_place", Args: json.RawMessage(`{"object": "red_block", "bowl":`)},
			}},
			{Role: llm.RoleTool, ToolCallID: "toolu_a", Name: "retrieve_node", Text: `[{"id":"red_block"}]`},
			{Role: llm.RoleTool, ToolCallID: "toolu_b", Text: ""},
			{Role: llm.RoleUser, Images: []llm.Image{image("ffeeddccbbaa99887766")}},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "toolu_c", Name: "done"}}},
			{Role: llm.RoleTool, ToolCallID: "toolu_c", Text: "ok"},
		},
		Tools: []llm.ToolDecl{
			{Name: "pick_and_place", Description: "Move an object.", Schema: json.RawMessage(`{"type": "object", "properties": {"object": {"type": "string"}}}`)},
			{Name: "done", Description: "Finish."},
		},
		Temperature:     0.7,
		Seed:            9,
		Sample:          2,
		MaxOutputTokens: 300,
		ResponseSchema:  json.RawMessage(`{"type":"object"}`),
		Context:         &llm.CallContext{Track: "tabletop"},
	})
	if err != nil {
		t.Fatal(err)
	}
	path, header, body := got.get()
	img := func(b []byte) map[string]any {
		return map[string]any{"type": "image", "source": map[string]any{"type": "base64", "media_type": "image/png", "data": base64.StdEncoding.EncodeToString(b)}}
	}
	text := func(s string) map[string]any { return map[string]any{"type": "text", "text": s} }
	want := map[string]any{
		"model":      "claude-test",
		"max_tokens": 300.0,
		"system":     []any{text("You are a robot planner.")},
		"messages": []any{
			map[string]any{"role": "user", "content": []any{text("Put the red block in the bowl."), img(png), img(png)}},
			map[string]any{"role": "assistant", "content": []any{
				text("Let me look."),
				map[string]any{"type": "tool_use", "id": "toolu_a", "name": "retrieve_node", "input": map[string]any{"class": "block", "colour": "red"}},
				map[string]any{"type": "tool_use", "id": "toolu_b", "name": "pick_and_place", "input": map[string]any{"_raw": `{"object": "red_block", "bowl":`}},
			}},
			map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "tool_result", "tool_use_id": "toolu_a", "content": []any{text(`[{"id":"red_block"}]`)}},
				map[string]any{"type": "tool_result", "tool_use_id": "toolu_b"},
			}},
			map[string]any{"role": "user", "content": []any{img(png)}},
			map[string]any{"role": "assistant", "content": []any{
				map[string]any{"type": "tool_use", "id": "toolu_c", "name": "done", "input": map[string]any{}},
			}},
			map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "tool_result", "tool_use_id": "toolu_c", "content": []any{text("ok")}},
			}},
		},
		"tools": []any{
			map[string]any{"name": "pick_and_place", "description": "Move an object.", "input_schema": map[string]any{"type": "object", "properties": map[string]any{"object": map[string]any{"type": "string"}}}},
			map[string]any{"name": "done", "description": "Finish.", "input_schema": map[string]any{"type": "object"}},
		},
		"output_config": map[string]any{"format": map[string]any{"type": "json_schema", "schema": map[string]any{"type": "object"}}},
	}
	if !reflect.DeepEqual(body, want) {
		t.Errorf("body\n%s\nwant\n%s", dump(body), dump(want))
	}
	if path != "/v1/messages" {
		t.Errorf("path %q, want /v1/messages", path)
	}
	if auth := header.Get("Authorization"); auth != "Bearer sk-ant-test" {
		t.Errorf("Authorization %q, want the key as a bearer token", auth)
	}
	if v := header.Get("Anthropic-Version"); v == "" {
		t.Error("no anthropic-version header")
	}
	// The schema's key order is kept.
	if !strings.Contains(string(got.raw), `"input_schema":{"type":"object","properties":{"object":{"type":"string"}}}`) {
		t.Errorf("the schema is not sent as written: %s", got.raw)
	}
}

// TestGenParamsBody: what a model spec's generation settings put on the
// wire. max_tokens is always sent; a temperature and a seed never are.
func TestGenParamsBody(t *testing.T) {
	one := 1.0
	schema := map[string]any{"format": map[string]any{"type": "json_schema", "schema": map[string]any{"type": "object"}}}
	tests := []struct {
		name, why string
		gen       llm.GenParams
		reqMax    int
		want      map[string]any // the fields besides model, system and messages
	}{
		{"default", "no limit anywhere: the documented default, and no temperature or seed whatever the request says",
			llm.GenParams{}, 0, map[string]any{"max_tokens": float64(anthropic.DefaultMaxTokens)}},
		{"request limit", "the request's limit", llm.GenParams{}, 500, map[string]any{"max_tokens": 500.0}},
		{"spec cap", "max_tokens=100 caps a larger request limit", llm.GenParams{MaxTokens: 100}, 500, map[string]any{"max_tokens": 100.0}},
		{"spec limit", "max_tokens=100 is sent when the request sets none", llm.GenParams{MaxTokens: 100}, 0, map[string]any{"max_tokens": 100.0}},
		{"temperature and seed", "the spec's temperature and seed have no field to go in",
			llm.GenParams{Temperature: &one, Seed: 7}, 0, map[string]any{"max_tokens": float64(anthropic.DefaultMaxTokens)}},
		{"schema", "schema=1 sends structured output",
			llm.GenParams{ResponseSchema: true}, 0, map[string]any{"max_tokens": float64(anthropic.DefaultMaxTokens), "output_config": schema}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, got := fake(t, okBody)
			m, err := anthropic.New("claude-test", anthropic.Options{BaseURL: srv.URL, GenParams: tc.gen, Name: "anthropic:claude-test?x"})
			if err != nil {
				t.Fatal(err)
			}
			if m.Name() != "anthropic:claude-test?x" {
				t.Errorf("Name() = %q, want the spec given", m.Name())
			}
			req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}, Temperature: 0.8, Seed: 3, Sample: 2,
				MaxOutputTokens: tc.reqMax, ResponseSchema: json.RawMessage(`{"type":"object"}`)}
			if _, err := m.Generate(context.Background(), req); err != nil {
				t.Fatal(err)
			}
			_, _, body := got.get()
			delete(body, "model")
			delete(body, "messages")
			if !reflect.DeepEqual(body, tc.want) {
				t.Errorf("%s: body\n%s\nwant\n%s", tc.why, dump(body), dump(tc.want))
			}
		})
	}
}

// rewriteHost sends every request to a test server, whatever its URL
// says, and keeps the host the URL named.
type rewriteHost struct {
	to   *url.URL
	host *string
}

func (rt rewriteHost) RoundTrip(r *http.Request) (*http.Response, error) {
	*rt.host = r.URL.Host
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host = rt.to.Scheme, rt.to.Host
	return http.DefaultTransport.RoundTrip(r)
}

// TestOptions: the official API by default, a local server by BaseURL,
// and nothing read from the environment, by the backend or by the SDK.
func TestOptions(t *testing.T) {
	tests := []struct {
		name, why string
		opts      func(srv *httptest.Server, host *string) anthropic.Options
		wantHost  string
		wantAuth  string
		wantPath  string
	}{
		{name: "official API", why: "no BaseURL means api.anthropic.com; the key is a bearer token",
			opts: func(srv *httptest.Server, host *string) anthropic.Options {
				u, _ := url.Parse(srv.URL)
				return anthropic.Options{APIKey: "sk-ant-test", HTTPClient: &http.Client{Transport: rewriteHost{u, host}}}
			},
			wantHost: "api.anthropic.com", wantAuth: "Bearer sk-ant-test", wantPath: "/v1/messages"},
		{name: "local server without key", why: "a BaseURL without a key sends the placeholder key; the path is under the base",
			opts: func(srv *httptest.Server, _ *string) anthropic.Options {
				return anthropic.Options{BaseURL: srv.URL + "/proxy"}
			},
			wantAuth: "Bearer unused", wantPath: "/proxy/v1/messages"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// Neither the backend nor the SDK may read the environment.
			t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:1/wrong")
			t.Setenv("ANTHROPIC_API_KEY", "sk-from-env")
			t.Setenv("ANTHROPIC_AUTH_TOKEN", "token-from-env")
			t.Setenv("ANTHROPIC_CUSTOM_HEADERS", "X-From-Env: yes")
			t.Setenv("ANTHROPIC_CONFIG_DIR", t.TempDir())
			var host string
			srv, got := fake(t, okBody)
			m, err := anthropic.New("claude-x", tc.opts(srv, &host))
			if err != nil {
				t.Fatal(err)
			}
			if m.Name() != "anthropic:claude-x" {
				t.Errorf("Name() = %q", m.Name())
			}
			if _, err := m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}}); err != nil {
				t.Fatal(err)
			}
			path, header, _ := got.get()
			if auth := header.Get("Authorization"); auth != tc.wantAuth || path != tc.wantPath {
				t.Errorf("got %q at %q, want %q at %q", auth, path, tc.wantAuth, tc.wantPath)
			}
			if tc.wantHost != "" && host != tc.wantHost {
				t.Errorf("host %q, want %q", host, tc.wantHost)
			}
			if header.Get("X-From-Env") != "" || header.Get("X-Api-Key") != "" {
				t.Errorf("headers from the environment were sent: %v", header)
			}
		})
	}
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		name, why string
		model     string
		opts      anthropic.Options
		want      string
	}{
		{"no key", "the official API needs a key, and the backend reads no environment", "claude-x", anthropic.Options{}, "ANTHROPIC_API_KEY"},
		{"no model", "a model name is required", "", anthropic.Options{APIKey: "k"}, "no model name"},
		{"bad URL", "a base URL must be http(s)", "m", anthropic.Options{BaseURL: "localhost:8080"}, `base URL "localhost:8080"`},
	}
	for _, tc := range tests {
		if _, err := anthropic.New(tc.model, tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s (%s): error %v, want one that says %q", tc.name, tc.why, err, tc.want)
		}
	}
}

// TestBadRequests checks that requests the API cannot take fail before any
// HTTP call, as bad requests that say what was wrong and where.
func TestBadRequests(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }))
	defer srv.Close()
	m, err := anthropic.New("claude-x", anthropic.Options{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	user := llm.Message{Role: llm.RoleUser, Text: "x"}
	noBytes := image("0123456789abcdef0123")
	noBytes.Data = nil
	failing := image("fedcba9876543210fedc")
	failing.Data = func() ([]byte, error) { return nil, errors.New("the renderer failed") }
	badMIME := image("0123456789abcdef4444")
	badMIME.MIME = "image/gif"
	tests := []struct {
		name, why string
		req       llm.Request
		want      string
	}{
		{"unknown role", "roles outside user/assistant/tool have no API form",
			llm.Request{Messages: []llm.Message{{Role: "system", Text: "x"}}}, `message 0: unknown role "system"`},
		{"user tool calls", "only assistant turns carry tool calls",
			llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x", ToolCalls: []llm.ToolCall{{ID: "a", Name: "f"}}}}}, "only assistant turns may"},
		{"empty user turn", "the API refuses empty content",
			llm.Request{Messages: []llm.Message{{Role: llm.RoleUser}}}, "message 0: a user turn with neither text nor images"},
		{"empty assistant turn", "likewise",
			llm.Request{Messages: []llm.Message{user, {Role: llm.RoleAssistant}}}, "message 1: an assistant turn with neither text nor tool calls"},
		{"call without id", "a tool_use needs its id",
			llm.Request{Messages: []llm.Message{user, {Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{Name: "f"}}}}}, `message 1: tool call 0 ("f") has no id`},
		{"result without id", "a tool_result needs its call's id",
			llm.Request{Messages: []llm.Message{user, {Role: llm.RoleTool, Text: "r"}}}, "message 1: the tool result names no call"},
		{"bad tool schema", "a schema must be JSON to be sent",
			llm.Request{Messages: []llm.Message{user}, Tools: []llm.ToolDecl{{Name: "f", Schema: json.RawMessage(`{`)}}}, `tool 0 ("f"): input schema`},
		{"bad response schema", "likewise the response schema",
			llm.Request{Messages: []llm.Message{user}, ResponseSchema: json.RawMessage(`nope`)}, "response schema"},
		{"image without bytes", "an image read back by its digest alone has nothing to send; the error names it",
			llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x", Images: []llm.Image{image("00112233445566778899"), noBytes}}}},
			"message 0: image 1: digest 0123456789abcdef0123: no bytes"},
		{"image whose bytes fail", "the maker's error, with the image's digest",
			llm.Request{Messages: []llm.Message{user, {Role: llm.RoleUser, Images: []llm.Image{failing}}}},
			"message 1: image 0: digest fedcba9876543210fedc: making its bytes: the renderer failed"},
		{"image of another type", "only PNG and JPEG are images here",
			llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Images: []llm.Image{badMIME}}}}, `message 0: image 0: image 0123456789ab: type "image/gif"`},
		{"image on an assistant turn", "images go on user turns only",
			llm.Request{Messages: []llm.Message{user, {Role: llm.RoleAssistant, Text: "x", Images: []llm.Image{image("00112233445566778899")}}}}, `message 1: role "assistant" carries 1 image(s)`},
		{"max_tokens too large", "the SDK insists on streaming past ten minutes of output",
			llm.Request{Messages: []llm.Message{user}, MaxOutputTokens: 1 << 20}, "max_tokens 1048576"},
	}
	for _, tc := range tests {
		_, err := m.Generate(context.Background(), tc.req)
		if llm.KindOf(err) != llm.KindBadRequest || !strings.Contains(fmt.Sprint(err), tc.want) {
			t.Errorf("%s (%s): got %v, want a bad request that says %q", tc.name, tc.why, err, tc.want)
		}
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("%d HTTP calls, want none", n)
	}
}

// TestReplies: what each kind of reply comes back as.
func TestReplies(t *testing.T) {
	tests := []struct {
		name, why string
		body      string
		want      llm.Reply
		refused   string // what the refusal error says, "" for none
	}{
		{"text", "text blocks joined, usage summed over cache reads and writes",
			`{"type":"message","content":[{"type":"text","text":"The red "},{"type":"text","text":"block."}],"stop_reason":"end_turn","usage":{"input_tokens":10,"output_tokens":4,"cache_creation_input_tokens":5,"cache_read_input_tokens":2}}`,
			llm.Reply{Text: "The red block.", FinishReason: llm.FinishStop, ProviderFinish: "end_turn", InputTokens: 17, OutputTokens: 4}, ""},
		{"tool calls", "tool_use blocks become calls, inputs kept as sent",
			`{"type":"message","content":[{"type":"text","text":"On it."},{"type":"tool_use","id":"toolu_1","name":"pick","input":{"object": "red_block"}},{"type":"tool_use","id":"toolu_2","name":"done","input":{}}],"stop_reason":"tool_use","usage":{"input_tokens":8,"output_tokens":6}}`,
			llm.Reply{Text: "On it.", ToolCalls: []llm.ToolCall{{ID: "toolu_1", Name: "pick", Args: json.RawMessage(`{"object": "red_block"}`)}, {ID: "toolu_2", Name: "done", Args: json.RawMessage(`{}`)}},
				FinishReason: llm.FinishToolCalls, ProviderFinish: "tool_use", InputTokens: 8, OutputTokens: 6}, ""},
		{"max tokens", "cut off by the limit",
			`{"type":"message","content":[{"type":"text","text":"abc"}],"stop_reason":"max_tokens","usage":{"input_tokens":1,"output_tokens":2}}`,
			llm.Reply{Text: "abc", FinishReason: llm.FinishLength, ProviderFinish: "max_tokens", InputTokens: 1, OutputTokens: 2}, ""},
		{"refusal", "the model's refusal: the reply beside a refusal error with the category and the explanation",
			`{"type":"message","content":[],"stop_reason":"refusal","stop_details":{"type":"refusal","category":"cyber","explanation":"Not this."},"usage":{"input_tokens":5,"output_tokens":1}}`,
			llm.Reply{FinishReason: llm.FinishOther, ProviderFinish: "refusal", InputTokens: 5, OutputTokens: 1}, `stop reason refusal (cyber): "Not this."`},
		{"context window", "a reason past the four mapped ones is FinishOther, and no refusal",
			`{"type":"message","content":[{"type":"text","text":"ab"}],"stop_reason":"model_context_window_exceeded","usage":{"input_tokens":1,"output_tokens":1}}`,
			llm.Reply{Text: "ab", FinishReason: llm.FinishOther, ProviderFinish: "model_context_window_exceeded", InputTokens: 1, OutputTokens: 1}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := fake(t, tc.body)
			m, err := anthropic.New("claude-x", anthropic.Options{BaseURL: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			got, err := m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}})
			switch {
			case tc.refused == "" && err != nil:
				t.Fatalf("%s: %v", tc.why, err)
			case tc.refused != "" && (llm.KindOf(err) != llm.KindRefused || llm.IsInfra(err) || !strings.Contains(err.Error(), tc.refused)):
				t.Errorf("%s: error %v, want a refusal that says %s", tc.why, err, tc.refused)
			}
			if got.Latency <= 0 {
				t.Errorf("latency %v, want > 0", got.Latency)
			}
			got.Latency = 0
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%s: got %+v, want %+v", tc.why, got, tc.want)
			}
		})
	}
}

// TestThinkingGoesBack: the thinking blocks of a reply that calls tools
// come back, unchanged and first, in the assistant turn that holds the
// calls; a signature of another form is not sent.
func TestThinkingGoesBack(t *testing.T) {
	const reply = `{"type":"message","content":[{"type":"thinking","thinking":"The block is red.","signature":"c2lnMQ=="},{"type":"redacted_thinking","data":"b3BhcXVl"},{"type":"tool_use","id":"toolu_1","name":"pick","input":{"o":"b"}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1}}`
	srv, got := fake(t, reply)
	m, err := anthropic.New("claude-x", anthropic.Options{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	user := llm.Message{Role: llm.RoleUser, Text: "Pick the block."}
	r, err := m.Generate(ctx, llm.Request{Messages: []llm.Message{user}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.ToolCalls) != 1 || len(r.ToolCalls[0].Signature) == 0 {
		t.Fatalf("reply %+v: want one call carrying the thinking", r)
	}
	for _, calls := range [][]llm.ToolCall{r.ToolCalls, {{ID: "toolu_1", Name: "pick", Args: json.RawMessage(`{"o":"b"}`), Signature: []byte("gemini-signature")}}} {
		_, err = m.Generate(ctx, llm.Request{Messages: []llm.Message{user,
			{Role: llm.RoleAssistant, ToolCalls: calls},
			{Role: llm.RoleTool, ToolCallID: "toolu_1", Text: "done"}}})
		if err != nil {
			t.Fatal(err)
		}
		_, _, body := got.get()
		content := body["messages"].([]any)[1].(map[string]any)["content"].([]any)
		want := []any{
			map[string]any{"type": "thinking", "thinking": "The block is red.", "signature": "c2lnMQ=="},
			map[string]any{"type": "redacted_thinking", "data": "b3BhcXVl"},
			map[string]any{"type": "tool_use", "id": "toolu_1", "name": "pick", "input": map[string]any{"o": "b"}},
		}
		if string(calls[0].Signature) == "gemini-signature" {
			want = want[2:]
		}
		if !reflect.DeepEqual(content, want) {
			t.Errorf("assistant turn\n%s\nwant\n%s", dump(content), dump(want))
		}
	}
}

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
		says          string // what the error must say, if anything
	}{
		{name: "429 retry-after", why: "rate limits are retried after the server's wait",
			handler: status(429, map[string]string{"Retry-After": "2"}, `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`),
			kind:    llm.KindRateLimited, status: 429, retryAfter: 2 * time.Second, says: "slow down (type rate_limit_error)"},
		{name: "500", why: "server errors are retryable",
			handler: status(500, nil, `{"type":"error","error":{"type":"api_error","message":"boom"}}`), kind: llm.KindServer, status: 500},
		{name: "529 overloaded", why: "Anthropic's overloaded status is a server error",
			handler: status(529, nil, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`), kind: llm.KindServer, status: 529, says: "Overloaded"},
		{name: "503 plain text", why: "an error body that is not JSON still gives the status",
			handler: status(503, nil, `upstream unavailable`), kind: llm.KindServer, status: 503},
		{name: "400", why: "bad requests are not retried",
			handler: status(400, nil, `{"type":"error","error":{"type":"invalid_request_error","message":"temperature: Extra inputs are not permitted"}}`),
			kind:    llm.KindBadRequest, status: 400, says: "temperature: Extra inputs are not permitted"},
		{name: "prompt too long", why: "a prompt past the model's context is the model's own limit",
			handler: status(400, nil, `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 215000 tokens > 200000 maximum"}}`),
			kind:    llm.KindRefused, status: 400},
		{name: "enormous reply", why: "a body past the limit is the agent's failure, not a heap",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"type":"message","content":[{"type":"text","text":"`+strings.Repeat("a", 2<<20)+`"}]}`)
			}, kind: llm.KindTooLarge, status: 200},
		{name: "401", why: "auth failures are not retried",
			handler: status(401, nil, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`), kind: llm.KindAuth, status: 401},
		{name: "403", why: "forbidden is an auth failure too",
			handler: status(403, nil, `{"type":"error","error":{"type":"permission_error","message":"no access"}}`), kind: llm.KindAuth, status: 403},
		{name: "client timeout", why: "http.Client.Timeout while waiting for headers",
			handler: hang, clientTimeout: 100 * time.Millisecond, kind: llm.KindTimeout},
		{name: "context deadline", why: "the caller's deadline",
			handler: hang, ctxTimeout: 100 * time.Millisecond, kind: llm.KindTimeout},
		{name: "deadline while reading body", why: "a reply whose body stalls past the deadline is a timeout, not malformed (the SDK drops the response)",
			handler: stallBody, ctxTimeout: 200 * time.Millisecond, kind: llm.KindTimeout},
		{name: "truncated body", why: "a 200 whose body stops before Content-Length is malformed",
			handler: truncated, kind: llm.KindMalformed, status: 200},
		{name: "truncated JSON", why: "a 200 whose JSON is cut short is malformed",
			handler: status(200, nil, okBody[:len(okBody)/2]), kind: llm.KindMalformed, status: 200},
		{name: "not JSON", why: "a 200 with an HTML page is malformed",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				io.WriteString(w, "<html><body>proxy login</body></html>")
			}, kind: llm.KindMalformed, status: 200},
		{name: "an error with status 200", why: "a proxy's error body under a 200 is not a reply",
			handler: status(200, nil, `{"type":"error","error":{"type":"api_error","message":"x"}}`), kind: llm.KindMalformed, status: 200},
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
			opts := anthropic.Options{BaseURL: srv.URL, APIKey: "sk-ant-secret-123456", MaxReplyBytes: 1 << 20}
			if tc.clientTimeout > 0 {
				opts.HTTPClient = &http.Client{Timeout: tc.clientTimeout}
			}
			m, err := anthropic.New("claude-x", opts)
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
			if !strings.Contains(err.Error(), tc.says) || !strings.HasPrefix(fmt.Sprint(e.Err), "anthropic: ") {
				t.Errorf("error %q does not say %q, after the backend's name", err, tc.says)
			}
			if tc.kind == llm.KindTimeout && !errors.Is(err, context.DeadlineExceeded) && !isTimeout(err) {
				t.Errorf("timeout error %v does not unwrap to a timeout", err)
			}
			if n := attempts.Load(); n != 1 {
				t.Errorf("%d HTTP attempts, want exactly 1 (SDK retries must be off)", n)
			}
			if strings.Contains(err.Error(), "sk-ant-secret-123456") {
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

// TestKeyNotInErrors: a server that echoes the credentials back in its
// error bodies must not get the key into an error message.
func TestKeyNotInErrors(t *testing.T) {
	const key = "sk-ant-api03-SECRETSECRETSECRET"
	tests := []struct {
		name, why string
		code      int
		body      func(auth string) string
	}{
		{"json echo", "the message of an API error body", 401, func(a string) string {
			return fmt.Sprintf(`{"type":"error","error":{"type":"authentication_error","message":"invalid key: %s"}}`, a)
		}},
		{"text echo", "a plain-text error body is quoted in the message", 500, func(a string) string { return "bad gateway, header was " + a }},
		{"bare key", "the key without its Bearer prefix", 400, func(a string) string {
			return fmt.Sprintf(`{"type":"error","error":{"type":"invalid_request_error","message":"key %s is revoked"}}`, strings.TrimPrefix(a, "Bearer "))
		}},
		{"lower-case bearer", "a bearer token that is not ours is redacted too", 429, func(a string) string {
			return `{"type":"error","error":{"type":"rate_limit_error","message":"token bearer abc.def.ghi rejected"}}`
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tc.code)
				io.WriteString(w, tc.body(r.Header.Get("Authorization")))
			}))
			defer srv.Close()
			m, err := anthropic.New("claude-x", anthropic.Options{BaseURL: srv.URL, APIKey: key})
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
