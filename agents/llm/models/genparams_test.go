package models

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
)

func TestApplyGenParams(t *testing.T) {
	one, zero := 1.0, 0.0
	tests := []struct {
		name, why  string
		key, value string
		handled    bool
		wantErr    string
		want       llm.GenParams
	}{
		{"omit temperature", "o4-mini and gpt-5 refuse any temperature but the default", "temperature", "", true, "", llm.GenParams{OmitTemperature: true}},
		{"temperature", "Gemini 3 at 1.0", "temperature", "1.0", true, "", llm.GenParams{Temperature: &one}},
		{"temperature zero", "0 is a temperature, not an omission", "temperature", "0", true, "", llm.GenParams{Temperature: &zero}},
		{"temperature out of range", "no provider takes 5", "temperature", "5", true, "a number from 0 to 2", llm.GenParams{}},
		{"temperature NaN", "NaN parses but is no temperature", "temperature", "NaN", true, "a number from 0 to 2", llm.GenParams{}},
		{"omit seed", "for servers that refuse one", "seed", "", true, "", llm.GenParams{OmitSeed: true}},
		{"seed", "a base seed", "seed", "42", true, "", llm.GenParams{Seed: 42}},
		{"bad seed", "seeds are integers", "seed", "4.2", true, "an integer", llm.GenParams{}},
		{"schema", "structured output on", "schema", "1", true, "", llm.GenParams{ResponseSchema: true}},
		{"schema off", "the papers' protocol, said explicitly", "schema", "0", true, "", llm.GenParams{}},
		{"bad schema", "yes is not 1", "schema", "yes", true, "1 (structured output)", llm.GenParams{}},
		{"max tokens", "a cap on output", "max_tokens", "256", true, "", llm.GenParams{MaxTokens: 256}},
		{"bad max tokens", "a cap must be positive", "max_tokens", "0", true, "a positive number", llm.GenParams{}},
		{"other key", "context is the parser's own key: not handled here", "context", "1", false, "", llm.GenParams{}},
	}
	for _, tc := range tests {
		var p llm.GenParams
		handled, err := applyGenParams(&p, tc.key, tc.value)
		if handled != tc.handled {
			t.Errorf("%s (%s): handled %v", tc.name, tc.why, handled)
		}
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), tc.key+"="+tc.value) {
				t.Errorf("%s (%s): error %v, want one naming %s=%s and saying %q", tc.name, tc.why, err, tc.key, tc.value, tc.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(p, tc.want) {
			t.Errorf("%s (%s): got %+v, %v; want %+v", tc.name, tc.why, p, err, tc.want)
		}
	}
}

func TestGenParamsOf(t *testing.T) {
	tests := []struct {
		name, why, rest string
		wantModel       string
		wantErr         bool
	}{
		{"plain", "a spec with no options", "gpt-4o-mini", "gpt-4o-mini", false},
		{"options", "several options, joined by &", "o4-mini?temperature=&seed=&max_tokens=2000", "o4-mini", false},
		{"ollama tag", "a colon in the model name is the model's", "qwen3:8b?temperature=0.6", "qwen3:8b", false},
		{"unknown", "an unknown key is refused, not ignored", "gpt-5?temprature=", "", true},
		{"bad escape", "a broken escape is refused", "m?seed=%zz", "", true},
	}
	for _, tc := range tests {
		model, _, err := genParamsOf(tc.rest)
		if (err != nil) != tc.wantErr || (!tc.wantErr && model != tc.wantModel) {
			t.Errorf("%s (%s): %q, %v", tc.name, tc.why, model, err)
		}
	}
}

func FuzzGenParamsOf(f *testing.F) {
	for _, s := range []string{"gpt-5?temperature=", "m?seed=1&schema=1&max_tokens=9", "m?", "m?&&", "m?temperature=1e400", "m?seed=%", "?x=y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rest string) {
		model, p, err := genParamsOf(rest)
		if err != nil {
			return
		}
		if strings.Contains(model, "?") {
			t.Errorf("model %q keeps the options", model)
		}
		if p.Temperature != nil && (*p.Temperature < 0 || *p.Temperature > 2) {
			t.Errorf("temperature %v accepted", *p.Temperature)
		}
		if p.MaxTokens < 0 {
			t.Errorf("max tokens %d accepted", p.MaxTokens)
		}
	})
}

// TestSpecOptionsReachTheWire: a spec's options and the Options of
// OpenWith reach the request, the name, the retries and the reply cap.
func TestSpecOptionsReachTheWire(t *testing.T) {
	var attempts atomic.Int32
	var body map[string]any
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		attempts.Add(1)
		json.NewDecoder(r.Body).Decode(&body)
		w.Header().Set("Content-Type", "application/json")
		if status == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "30")
		}
		w.WriteHeader(status)
		w.Write([]byte(`{"choices":[{"message":{"content":"` + strings.Repeat("x", 2000) + `"},"finish_reason":"stop"}]}`))
	}))
	defer srv.Close()
	env := map[string]string{"OPENAI_BASE_URL": srv.URL}
	getenv := func(k string) string { return env[k] }
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}, Temperature: 0.3}

	m, err := OpenWith("openai:o4-mini?temperature=&max_tokens=50", getenv, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Name() != "openai:o4-mini?temperature=&max_tokens=50" {
		t.Errorf("Name() = %q, want the spec with its options", m.Name())
	}
	if _, err := m.Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if _, ok := body["temperature"]; ok || body["max_tokens"] != 50.0 || body["model"] != "o4-mini" {
		t.Errorf("body %v: want no temperature, max_tokens 50, model o4-mini", body)
	}

	m, _ = OpenWith("openai:m", getenv, Options{MaxReplyBytes: 1000})
	if _, err := m.Generate(context.Background(), req); llm.KindOf(err) != llm.KindTooLarge {
		t.Errorf("a 2 kB reply against a 1 kB limit: error %v, want too large", err)
	}

	status = http.StatusServiceUnavailable
	attempts.Store(0)
	m, _ = OpenWith("openai:m", getenv, Options{MaxAttempts: 2})
	start := time.Now()
	tally := &llm.Tally{}
	_, err = m.Generate(llm.WithTally(context.Background(), tally), req)
	if attempts.Load() != 2 || !llm.IsInfra(err) {
		t.Errorf("MaxAttempts 2: %d attempts, error %v; want 2 and an infrastructure failure", attempts.Load(), err)
	}
	if u := tally.Usage(); u.Attempts != 2 || u.Calls != 0 {
		t.Errorf("usage %+v, want 2 attempts and no call", u)
	}
	if time.Since(start) > 10*time.Second {
		t.Error("took too long")
	}

	status = http.StatusTooManyRequests
	attempts.Store(0)
	m, _ = OpenWith("openai:m", getenv, Options{MaxRetryAfter: time.Second})
	_, err = m.Generate(context.Background(), req)
	if attempts.Load() != 1 || llm.KindOf(err) != llm.KindRateLimited || !strings.Contains(err.Error(), "longer than the 1s honoured") {
		t.Errorf("Retry-After 30s against MaxRetryAfter 1s: %d attempts, error %v; want 1 and the reason", attempts.Load(), err)
	}

	if _, err := Open("gemini:g?temperature=hot", getenv); err == nil || !strings.Contains(err.Error(), "temperature=hot") {
		t.Errorf("bad option: error %v, want one naming it", err)
	}
}
