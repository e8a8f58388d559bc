package gemini

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
)

func TestRetryInfo(t *testing.T) {
	tests := []struct {
		name, why string
		details   []map[string]any
		want      time.Duration
	}{
		{"retry info", "Google's standard detail", []map[string]any{{"@type": "type.googleapis.com/google.rpc.QuotaFailure"}, {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "1.5s"}}, 1500 * time.Millisecond},
		{"no retry info", "other details say nothing about waiting", []map[string]any{{"@type": "type.googleapis.com/google.rpc.ErrorInfo"}}, 0},
		{"bad delay", "an unreadable delay is ignored", []map[string]any{{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": 7}}, 0},
	}
	for _, tc := range tests {
		if got := retryInfo(tc.details); got != tc.want {
			t.Errorf("%s (%s): got %v, want %v", tc.name, tc.why, got, tc.want)
		}
	}
}

func TestSeed32(t *testing.T) {
	tests := []struct {
		name, why string
		in        int64
		want      int32
	}{
		{"small", "seeds that fit are unchanged", 42, 42},
		{"negative", "negative seeds that fit are unchanged", -7, -7},
		{"max", "the edge fits", math.MaxInt32, math.MaxInt32},
		{"large", "a 64-bit seed folds its halves", 1<<40 | 3, 3 ^ 1<<8},
	}
	for _, tc := range tests {
		if got := seed32(tc.in); got != tc.want {
			t.Errorf("%s (%s): got %d, want %d", tc.name, tc.why, got, tc.want)
		}
	}
}

func TestArgsObject(t *testing.T) {
	tests := []struct {
		name, why string
		raw       string
		want      map[string]any
	}{
		{"object", "the normal case; numbers stay exact", `{"n": 12345678901234567890, "s": "x"}`, map[string]any{"n": json.Number("12345678901234567890"), "s": "x"}},
		{"empty", "no arguments", ``, nil},
		{"broken", "malformed arguments are wrapped, not dropped", `{"a":`, map[string]any{RawArgsKey: `{"a":`}},
		{"array", "the API takes only objects", `[1]`, map[string]any{RawArgsKey: `[1]`}},
		{"null", "null is not an object", `null`, map[string]any{RawArgsKey: `null`}},
		{"trailing", "two values are not one object", `{} {}`, map[string]any{RawArgsKey: `{} {}`}},
	}
	for _, tc := range tests {
		if got := argsObject(json.RawMessage(tc.raw)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s (%s): got %#v, want %#v", tc.name, tc.why, got, tc.want)
		}
	}
}

// cannedTransport answers every request with one 200 body, in memory.
type cannedTransport struct{ body []byte }

func (c cannedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	return &http.Response{
		StatusCode:    200,
		Status:        "200 OK",
		Header:        http.Header{"Content-Type": {"application/json"}},
		Body:          io.NopCloser(bytes.NewReader(c.body)),
		ContentLength: int64(len(c.body)),
		Request:       r,
	}, nil
}

// FuzzReply feeds arbitrary 200 bodies through the SDK and the reply
// decoding: no panic, and either a reply or a malformed-reply error.
func FuzzReply(f *testing.F) {
	for _, s := range []string{
		`{"candidates":[{"content":{"parts":[{"text":"a"},{"functionCall":{"name":"f","args":{"x":1}}}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":1,"candidatesTokenCount":2}}`,
		`{"candidates":[{"content":{"parts":[{"text":"t","thought":true}]},"finishReason":"MAX_TOKENS"}]}`,
		`{"promptFeedback":{"blockReason":"SAFETY"}}`,
		`{"candidates":"many"}`, `{"candidates":[null]}`, `{"candidates":[{"content":{"parts":[null,{"functionCall":null}]}}]}`,
		`{"candidates":[{"content":{"parts":[{"functionCall":{"args":[1]}}]}}]}`,
		`{"usageMetadata":{"promptTokenCount":"x"}}`, `null`, `[]`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		m, err := New("g", Options{BaseURL: "http://fuzz.invalid", HTTPClient: &http.Client{Transport: cannedTransport{body}}})
		if err != nil {
			t.Fatal(err)
		}
		r, err := m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}})
		if err != nil {
			var e *llm.Error
			if !errors.As(err, &e) || (e.Kind != llm.KindMalformed && e.Kind != llm.KindRefused) {
				t.Fatalf("error %v, want a malformed reply or a refusal", err)
			}
			if e.Kind == llm.KindMalformed {
				return
			}
		}
		switch r.FinishReason {
		case llm.FinishStop, llm.FinishToolCalls, llm.FinishLength, llm.FinishOther:
		default:
			t.Errorf("finish reason %q", r.FinishReason)
		}
		for _, c := range r.ToolCalls {
			if !json.Valid(c.Args) {
				t.Errorf("tool call args %q are not JSON", c.Args)
			}
		}
	})
}
