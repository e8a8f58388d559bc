package openai_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/openai"
)

// enormous streams a 200 reply of about 100 MB, made on the fly, and
// stops when the client goes.
func enormous(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if _, err := io.WriteString(w, `{"choices":[{"message":{"content":"`); err != nil {
		return
	}
	chunk := []byte(strings.Repeat("a", 64<<10))
	for range 100 << 20 / len(chunk) {
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
	io.WriteString(w, `"},"finish_reason":"stop"}]}`)
}

// TestEnormousReplyBoundedMemory: a 100 MB reply against a 1 MB limit
// fails as too large, and the call allocates a few megabytes, not 100.
func TestEnormousReplyBoundedMemory(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(enormous))
	defer srv.Close()
	m, err := openai.New("m", openai.Options{BaseURL: srv.URL, MaxReplyBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err = m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}})
	runtime.ReadMemStats(&after)
	if llm.KindOf(err) != llm.KindTooLarge || llm.IsInfra(err) || llm.KindOf(err).Retryable() {
		t.Fatalf("error %v, want a reply too large: the agent's, not retried", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("the call allocated %d MB for a 1 MB limit", alloc>>20)
	}
}

// TestGenParamsBody: what a model spec's generation settings put on the
// wire, field by field.
func TestGenParamsBody(t *testing.T) {
	one := 1.0
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}, Temperature: 0.8, Sample: 2,
		MaxOutputTokens: 500, ResponseSchema: json.RawMessage(`{"type":"object"}`)}
	schema := map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "response", "schema": map[string]any{"type": "object"}}}
	tests := []struct {
		name, why string
		gen       llm.GenParams
		want      map[string]any // the fields besides model and messages
	}{
		{"default", "the request's temperature, seed 0 plus the sample, no schema (the papers' protocol)",
			llm.GenParams{}, map[string]any{"temperature": 0.8, "seed": 2.0, "max_tokens": 500.0}},
		{"o4-mini", "a reasoning model takes no temperature but its default",
			llm.GenParams{OmitTemperature: true}, map[string]any{"seed": 2.0, "max_tokens": 500.0}},
		{"fixed temperature", "temperature=1 replaces the request's",
			llm.GenParams{Temperature: &one}, map[string]any{"temperature": 1.0, "seed": 2.0, "max_tokens": 500.0}},
		{"no seed", "seed= sends none",
			llm.GenParams{OmitSeed: true}, map[string]any{"temperature": 0.8, "max_tokens": 500.0}},
		{"base seed and cap", "seed=10 and max_tokens=100",
			llm.GenParams{Seed: 10, MaxTokens: 100}, map[string]any{"temperature": 0.8, "seed": 12.0, "max_tokens": 100.0}},
		{"schema", "schema=1 sends structured output",
			llm.GenParams{ResponseSchema: true}, map[string]any{"temperature": 0.8, "seed": 2.0, "max_tokens": 500.0, "response_format": schema}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var body map[string]any
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				json.NewDecoder(r.Body).Decode(&body)
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, okBody)
			}))
			defer srv.Close()
			m, err := openai.New("o4-mini", openai.Options{BaseURL: srv.URL, GenParams: tc.gen, Name: "openai:o4-mini?x"})
			if err != nil {
				t.Fatal(err)
			}
			if m.Name() != "openai:o4-mini?x" {
				t.Errorf("Name() = %q, want the spec given", m.Name())
			}
			if _, err := m.Generate(context.Background(), req); err != nil {
				t.Fatal(err)
			}
			delete(body, "model")
			delete(body, "messages")
			if !reflect.DeepEqual(body, tc.want) {
				t.Errorf("%s: body\n%s\nwant\n%s", tc.why, dump(body), dump(tc.want))
			}
		})
	}
}
