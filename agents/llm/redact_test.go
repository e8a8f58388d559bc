package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
)

const testKey = "sk-test-SECRET-4242"

func TestNewSecretsKeepsKeysOnly(t *testing.T) {
	for _, tc := range []struct {
		why    string
		values []string
		text   string
		want   string
	}{
		{"a key is replaced wherever it stands", []string{testKey}, "key " + testKey + "!" + testKey, "key [redacted]![redacted]"},
		{"an empty variable is no secret", []string{"", testKey}, "plain text", "plain text"},
		{"a short value (a local server's dummy key) is no secret: replacing it would garble every reply", []string{"EMPTY", "x"}, "EMPTY x box", "EMPTY x box"},
		{"a key that holds another is replaced whole, not left with a tail", []string{"sk-test-SECRET", testKey}, testKey + " and sk-test-SECRET", "[redacted] and [redacted]"},
		{"the same key in two variables is one secret", []string{testKey, testKey}, testKey, "[redacted]"},
	} {
		if got := llm.NewSecrets(tc.values...).String(tc.text); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.why, got, tc.want)
		}
	}
}

func TestSecretsJSON(t *testing.T) {
	s := llm.NewSecrets(testKey)
	escaped := `\u0073k-test-SECRET-4242` // "sk-…" with its s escaped
	for _, tc := range []struct {
		why, in, want string
	}{
		{"no key: the bytes are kept as they are, spacing and order", `{"b": 1,  "a": "x"}`, `{"b": 1,  "a": "x"}`},
		{"a key in a string is replaced in place", `{"q": "is ` + testKey + ` yours?"}`, `{"q": "is [redacted] yours?"}`},
		{"a key hidden by an escape is found in the decoded string, and the JSON encoded again", `{"q": "` + escaped + `", "b": [1.50]}`, `{"b":[1.50],"q":"[redacted]"}`},
		{"a key as an object's key", `{"` + escaped + `": 1}`, `{"[redacted]":1}`},
		{"escapes without a key leave the bytes alone", `{"q": "a\nb"}`, `{"q": "a\nb"}`},
		{"JSON that is not valid keeps its bytes but for the key as written", `{"q": "` + testKey + `"`, `{"q": "[redacted]"`},
	} {
		if got := string(s.JSON(json.RawMessage(tc.in))); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.why, got, tc.want)
		}
	}
}

func TestSecretsReply(t *testing.T) {
	s := llm.NewSecrets(testKey)
	in := llm.Reply{Text: "your key is " + testKey, ProviderFinish: "stop " + testKey,
		ToolCalls:   []llm.ToolCall{{ID: "c-" + testKey, Name: "ask", Args: json.RawMessage(`{"question":"` + testKey + `?"}`), Signature: []byte("sig")}},
		InputTokens: 3, OutputTokens: 4, Latency: time.Second}
	orig := in.ToolCalls[0].Args
	got := s.Reply(in)
	if b, _ := json.Marshal(got); bytes.Contains(b, []byte(testKey)) {
		t.Errorf("the key is left in %s", b)
	}
	if got.InputTokens != 3 || got.OutputTokens != 4 || got.Latency != time.Second || string(got.ToolCalls[0].Signature) != "sig" || got.ToolCalls[0].Name != "ask" {
		t.Errorf("what holds no key changed: %+v", got)
	}
	if !bytes.Contains(orig, []byte(testKey)) || !strings.Contains(in.ToolCalls[0].ID, testKey) {
		t.Errorf("the caller's reply was changed in place: %+v", in.ToolCalls[0])
	}
}

func TestSecretsError(t *testing.T) {
	s := llm.NewSecrets(testKey)
	apiErr := &llm.Error{Kind: llm.KindRateLimited, Status: 429, RetryAfter: 2 * time.Second, Err: fmt.Errorf("server said %s: %w", testKey, context.DeadlineExceeded)}
	for _, tc := range []struct {
		why  string
		err  error
		kind llm.ErrorKind
		is   error // errors.Is must still hold, when set
	}{
		{"a backend's *Error keeps its kind, status and wait; the deadline under it stays visible", apiErr, llm.KindRateLimited, context.DeadlineExceeded},
		{"a wrapped *Error keeps its kind", fmt.Errorf("calling: %w", apiErr), llm.KindRateLimited, nil},
		{"a plain error is redacted too", errors.New("bad " + testKey), llm.KindUnknown, nil},
	} {
		got := s.Error(tc.err)
		if strings.Contains(got.Error(), testKey) || !strings.Contains(got.Error(), "[redacted]") {
			t.Errorf("%s: %q", tc.why, got)
		}
		if llm.KindOf(got) != tc.kind {
			t.Errorf("%s: kind %v, want %v", tc.why, llm.KindOf(got), tc.kind)
		}
		if tc.is != nil && !errors.Is(got, tc.is) {
			t.Errorf("%s: errors.Is(%v) no longer holds", tc.why, tc.is)
		}
		// Nothing under the message may give the key back.
		for e := got; e != nil; e = errors.Unwrap(e) {
			if strings.Contains(e.Error(), testKey) {
				t.Errorf("%s: unwrapping reaches %q", tc.why, e)
			}
		}
	}
	var e *llm.Error
	if got := s.Error(apiErr); !errors.As(got, &e) || e.Status != 429 || e.RetryAfter != 2*time.Second {
		t.Errorf("status and Retry-After lost: %+v", e)
	}
	if plain := errors.New("no key here"); s.Error(plain) != plain || s.Error(nil) != nil {
		t.Error("an error without a key was replaced")
	}
}

// FuzzSecretsJSON: whatever the raw JSON, the key is in neither its bytes
// nor, when it is valid, its decoded strings, and valid JSON stays valid.
func FuzzSecretsJSON(f *testing.F) {
	for _, s := range []string{`{"q":"` + testKey + `"}`, `{"q":"\u0073k-test-SECRET-4242"}`, `["a\"b", {"k": null}]`, `{"q": "`, `1e5`, `"\ud800"`} {
		f.Add(s)
	}
	s := llm.NewSecrets(testKey)
	f.Fuzz(func(t *testing.T, in string) {
		out := s.JSON(json.RawMessage(in))
		if bytes.Contains(out, []byte(testKey)) {
			t.Fatalf("%q: the key is left in %q", in, out)
		}
		if !json.Valid([]byte(in)) {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("%q: valid JSON became %q", in, out)
		}
		var v any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatal(err)
		}
		if b, _ := json.Marshal(v); strings.Contains(fmt.Sprintf("%v", v), testKey) {
			t.Fatalf("%q: the decoded value holds the key: %s", in, b)
		}
	})
}
