package models

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/anthropic"
	"github.com/ambibench/ambibench/agents/llm/cassette"
	"github.com/ambibench/ambibench/agents/llm/middleware"
)

// Faults of the Messages API besides those faultServer plays.
const (
	overloaded   fault = "529"
	tooLong      fault = "400 prompt too long"
	refusalStop  fault = "refusal"
	refusedConn  fault = "connection refused"
	enormousBody fault = "enormous"
)

// messagesOK is the fake's whole reply: thinking, then a call, as a Claude
// model that thinks by default answers a planning call.
const messagesOK = `{"id":"msg_fake","type":"message","role":"assistant","model":"claude-fake",` +
	`"content":[{"type":"thinking","thinking":"The red block goes in the blue bowl.","signature":"c2lnbmVk"},` +
	`{"type":"text","text":"Placing it."},` +
	`{"type":"tool_use","id":"toolu_01","name":"pick_and_place","input":{"object":"red block 1","target":"blue bowl 1"}}],` +
	`"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":812,"output_tokens":64,"cache_read_input_tokens":0}}`

// messagesFaultServer is faultServer for the Messages API: attempt i gets
// script[i] (the last entry repeats), and ok is a fixed valid reply.
func messagesFaultServer(t *testing.T, script ...fault) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		f := script[min(i, len(script)-1)]
		errBody := func(code int, typ, msg string) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(code)
			fmt.Fprintf(w, `{"type":"error","error":{"type":%q,"message":%q}}`, typ, msg)
		}
		if r.URL.Path != "/v1/messages" {
			errBody(http.StatusNotFound, "not_found_error", "no such endpoint "+r.URL.Path)
			return
		}
		switch f {
		case ok:
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, messagesOK)
		case tooMany:
			w.Header().Set("Retry-After", "1")
			errBody(http.StatusTooManyRequests, "rate_limit_error", "slow down")
		case serverError:
			errBody(500, "api_error", "scripted")
		case unavailable:
			errBody(503, "api_error", "scripted")
		case overloaded:
			errBody(529, "overloaded_error", "Overloaded")
		case badRequest:
			errBody(400, "invalid_request_error", "scripted")
		case tooLong:
			errBody(400, "invalid_request_error", "prompt is too long: 215000 tokens > 200000 maximum")
		case unauthorized:
			errBody(401, "authentication_error", "invalid x-api-key")
		case refusalStop:
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"type":"message","content":[],"stop_reason":"refusal","stop_details":{"type":"refusal","category":"general_harms","explanation":null},"usage":{"input_tokens":812,"output_tokens":3}}`)
		case hang:
			select {
			case <-r.Context().Done():
			case <-time.After(time.Second): // well past the 300 ms deadline
			}
		case truncated:
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", "400")
			w.Write([]byte(`{"id":"msg_fake","type":"message","content":[{"type":"te`))
		case notJSON:
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte("<html>gateway</html>"))
		case enormousBody:
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"type":"message","content":[{"type":"text","text":"`+strings.Repeat("a", 2<<20)+`"}],"stop_reason":"end_turn"}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// countAttempts counts the HTTP attempts a client makes, whether or not a
// server answers them.
type countAttempts struct {
	n    atomic.Int32
	next http.RoundTripper
}

func (c *countAttempts) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.next.RoundTrip(r)
}

// The live chain over the anthropic backend against a Messages API server
// that fails in scripted ways: the same table as TestLiveChainAgainstFaults
// (openai), with Anthropic's own faults added (529 overloaded, a prompt too
// long, a refusal stop) and a connection refused. Each fault gets the
// documented number of attempts, then a reply or an error of the right
// kind, on the right side of the infrastructure line; nothing panics. Run
// with -v for the table of outcomes.
func TestLiveChainAgainstFaultsAnthropic(t *testing.T) {
	for _, tc := range []struct {
		why      string
		script   []fault
		attempts int32
		wantKind llm.ErrorKind // KindUnknown: success
	}{
		{"429 with Retry-After is waited out and retried", []fault{tooMany, ok}, 2, llm.KindUnknown},
		{"500 is retried", []fault{serverError, ok}, 2, llm.KindUnknown},
		{"503 for ever gives up after four attempts", []fault{unavailable}, 4, llm.KindServer},
		{"529 overloaded for ever gives up after four attempts", []fault{overloaded}, 4, llm.KindServer},
		{"a hung connection times out and is retried", []fault{hang, ok}, 2, llm.KindUnknown},
		{"a hung connection for ever times out four times", []fault{hang}, 4, llm.KindTimeout},
		{"a truncated body is malformed, retried, then given up", []fault{truncated}, 4, llm.KindMalformed},
		{"a reply that is not JSON is retried", []fault{notJSON, ok}, 2, llm.KindUnknown},
		{"400 is not retried", []fault{badRequest}, 1, llm.KindBadRequest},
		{"401 is not retried", []fault{unauthorized}, 1, llm.KindAuth},
		{"a prompt too long is the model's limit, not retried", []fault{tooLong}, 1, llm.KindRefused},
		{"a refusal stop is the model's refusal, not retried", []fault{refusalStop}, 1, llm.KindRefused},
		{"an enormous reply is the agent's failure, not retried", []fault{enormousBody}, 1, llm.KindTooLarge},
		{"a refused connection is retried, then given up", []fault{refusedConn}, 4, llm.KindServer},
	} {
		t.Run(tc.why, func(t *testing.T) {
			srv, served := messagesFaultServer(t, tc.script...)
			base := srv.URL
			if tc.script[0] == refusedConn {
				// A port that was just listened on and is closed now.
				closed := httptest.NewServer(http.NotFoundHandler())
				base = closed.URL
				closed.Close()
			}
			counter := &countAttempts{next: http.DefaultTransport}
			backend, err := anthropic.New("claude-fake", anthropic.Options{BaseURL: base, APIKey: "sk-ant-fault-test",
				HTTPClient: &http.Client{Transport: counter}, MaxReplyBytes: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			var slept []time.Duration
			m := liveWith(backend, middleware.RetryOptions{
				Base: time.Millisecond, Max: 2 * time.Second,
				Sleep: func(ctx context.Context, d time.Duration) error { slept = append(slept, d); return nil },
			}, 300*time.Millisecond)
			reply, err := m.Generate(context.Background(), firstPlanCall(table()))
			got := counter.n.Load()
			if got != tc.attempts {
				t.Errorf("%d attempts, want %d", got, tc.attempts)
			}
			if tc.script[0] != refusedConn && served.Load() != got {
				t.Errorf("the server saw %d attempts, the client made %d", served.Load(), got)
			}
			var steps []string
			for _, f := range tc.script {
				if f == ok {
					f = "ok"
				}
				steps = append(steps, string(f))
			}
			outcome := "a reply"
			if err != nil {
				outcome = fmt.Sprintf("%v (infra %v)", llm.KindOf(err), llm.IsInfra(err))
			}
			t.Logf("%-22s → %-32s %d attempt(s)", strings.Join(steps, " then "), outcome, got)
			if tc.wantKind == llm.KindUnknown {
				if err != nil || len(reply.ToolCalls) == 0 {
					t.Errorf("want a reply with tool calls, got %+v, %v", reply, err)
				}
			} else if k := llm.KindOf(err); k != tc.wantKind || llm.IsInfra(err) != k.Infra() {
				t.Errorf("error %v of kind %v, want %v", err, k, tc.wantKind)
			}
			if err != nil && strings.Contains(err.Error(), "sk-ant-fault-test") {
				t.Errorf("the error holds the key: %v", err)
			}
			if tc.script[0] == tooMany && (len(slept) == 0 || slept[0] < time.Second) {
				t.Errorf("slept %v before retrying a 429 with Retry-After: 1", slept)
			}
		})
	}
}

// A live run against the Messages API recorded to a cassette replays,
// offline, the same replies, thinking included; the cassette holds no key;
// a request it lacks is a cassette miss.
func TestAnthropicCassetteRoundTrip(t *testing.T) {
	const key = "sk-ant-api03-CASSETTESECRET"
	srv, served := messagesFaultServer(t, ok)
	dir := filepath.Join(t.TempDir(), "tapes")
	env := map[string]string{"ANTHROPIC_API_KEY": key, "ANTHROPIC_BASE_URL": srv.URL}
	spec := "anthropic:claude-fake?max_tokens=512"
	rec, err := Open("record:"+dir+"="+spec, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if rec.Name() != spec {
		t.Errorf("recorded as %q, want the spec %q", rec.Name(), spec)
	}
	ctx := context.Background()
	req := firstPlanCall(table())
	want, err := rec.Generate(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.ToolCalls) != 1 || len(want.ToolCalls[0].Signature) == 0 || want.InputTokens != 812 {
		t.Fatalf("live reply %+v: want one call with its thinking, 812 input tokens", want)
	}
	// The conversation goes on: the call and its thinking go back.
	next := req
	next.Messages = append(append([]llm.Message(nil), req.Messages...),
		llm.Message{Role: llm.RoleAssistant, Text: want.Text, ToolCalls: want.ToolCalls},
		llm.Message{Role: llm.RoleTool, ToolCallID: want.ToolCalls[0].ID, Name: want.ToolCalls[0].Name, Text: "done"})
	wantNext, err := rec.Generate(ctx, next)
	if err != nil {
		t.Fatal(err)
	}
	// Stored calls are served from the cassette.
	if _, err := rec.Generate(ctx, req); err != nil || served.Load() != 2 {
		t.Fatalf("a stored call went out again (%d calls): %v", served.Load(), err)
	}

	// The model read from the recordings, or named as it was recorded.
	var play llm.Model
	for _, replay := range []string{"replay:" + dir, "replay:" + dir + "=" + spec} {
		play, err = Open(replay, nil)
		if err != nil {
			t.Fatal(err)
		}
		if play.Name() != spec {
			t.Errorf("%s replayed as %q, want %q", replay, play.Name(), spec)
		}
		for i, c := range []struct {
			req  llm.Request
			want llm.Reply
		}{{req, want}, {next, wantNext}} {
			got, err := play.Generate(ctx, c.req)
			if err != nil {
				t.Fatalf("%s, call %d: %v", replay, i, err)
			}
			got.Latency, c.want.Latency = 0, 0
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("%s, call %d replayed as\n%+v\nrecorded\n%+v", replay, i, got, c.want)
			}
		}
	}
	if served.Load() != 2 {
		t.Errorf("the replay called out: %d calls", served.Load())
	}
	other := req
	other.System += " Be brief."
	if _, err := play.Generate(ctx, other); llm.KindOf(err) != llm.KindCassette || !llm.IsInfra(err) {
		t.Errorf("a request not on file: %v, want a cassette miss", err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("cassette files %v: %v", files, err)
	}
	for _, f := range files {
		// A recording is compressed: read what it holds.
		data, err := cassette.ReadFile(f)
		if err != nil {
			data, _ = os.ReadFile(f)
		}
		if strings.Contains(string(data), key) {
			t.Errorf("%s holds the key", f)
		}
	}
}

// Anthropic specs: a model name is required, the key is named when it is
// missing, and a temperature or a seed, which the backend cannot send, is
// refused rather than ignored; Check agrees with Open on each.
func TestAnthropicSpecs(t *testing.T) {
	withKey := func(k string) string { return map[string]string{"ANTHROPIC_API_KEY": "k"}[k] }
	for _, tc := range []struct {
		why, spec string
		getenv    func(string) string
		wantErr   string // "" means valid
		checkOK   bool   // Check passes (it reads no keys)
	}{
		{"a model", "anthropic:claude-sonnet-5-5", withKey, "", true},
		{"the settings it sends", "anthropic:claude-sonnet-5-5?max_tokens=1000&schema=1", withKey, "", true},
		{"the forms that send nothing", "anthropic:claude-sonnet-5-5?temperature=&seed=", withKey, "", true},
		{"no model", "anthropic:", withKey, "anthropic needs a model name", false},
		{"a temperature", "anthropic:claude-sonnet-5-5?temperature=0.5", withKey, "option temperature=0.5: the anthropic backend sends no temperature", false},
		{"a seed", "anthropic:claude-sonnet-5-5?seed=7", withKey, "option seed=7: the anthropic backend sends no seed", false},
		{"an option of another backend", "anthropic:claude-sonnet-5-5?context=1", withKey, `unknown option "context"`, false},
		{"no key", "anthropic:claude-sonnet-5-5", nil, "ANTHROPIC_API_KEY", true},
		{"a base URL needs no key", "anthropic:claude-sonnet-5-5", func(k string) string {
			return map[string]string{"ANTHROPIC_BASE_URL": "http://127.0.0.1:1"}[k]
		}, "", true},
	} {
		m, err := Open(tc.spec, tc.getenv)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s: Open(%q) = %v, want a model", tc.why, tc.spec, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s: Open(%q) = %v, want an error containing %q", tc.why, tc.spec, err, tc.wantErr)
		case err == nil && m.Name() != tc.spec:
			t.Errorf("%s: Name() = %q, want the spec", tc.why, m.Name())
		}
		if err := Check(tc.spec); (err == nil) != tc.checkOK {
			t.Errorf("%s: Check(%q) = %v, want ok %v", tc.why, tc.spec, err, tc.checkOK)
		}
	}
}
