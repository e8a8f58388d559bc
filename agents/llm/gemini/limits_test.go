package gemini_test

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
	"github.com/ambibench/ambibench/agents/llm/gemini"
)

// TestEnormousReplyBoundedMemory: a reply of about 100 MB, made on the
// fly, against a 1 MB limit fails as too large, and the call allocates a
// few megabytes, not 100.
func TestEnormousReplyBoundedMemory(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if _, err := io.WriteString(w, `{"candidates":[{"content":{"parts":[{"text":"`); err != nil {
			return
		}
		chunk := []byte(strings.Repeat("a", 64<<10))
		for range 100 << 20 / len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
		io.WriteString(w, `"}]},"finishReason":"STOP"}]}`)
	}))
	defer srv.Close()
	m, err := gemini.New("g", gemini.Options{BaseURL: srv.URL, MaxReplyBytes: 1 << 20})
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

// TestContextExceeded: Gemini's 400 for a prompt past the context is the
// model's own limit, not a malformed request.
func TestContextExceeded(t *testing.T) {
	srv := httptest.NewServer(reply(400, nil, apiError(400, "INVALID_ARGUMENT", "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).")))
	defer srv.Close()
	m, err := gemini.New("g", gemini.Options{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}})
	if llm.KindOf(err) != llm.KindRefused || llm.IsInfra(err) {
		t.Errorf("error %v, want a refusal, the agent's", err)
	}
}

// TestGenParamsConfig: what a model spec's generation settings put in the
// generationConfig.
func TestGenParamsConfig(t *testing.T) {
	one := 1.0
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}, Temperature: 0.5, Sample: 1,
		MaxOutputTokens: 300, ResponseSchema: json.RawMessage(`{"type":"object"}`)}
	tests := []struct {
		name, why string
		gen       llm.GenParams
		want      string
	}{
		{"default", "the request's temperature, a seed, no schema: JSON is asked for in the prompt",
			llm.GenParams{}, `{"temperature":0.5,"seed":1,"maxOutputTokens":300}`},
		{"gemini 3", "temperature=1.0, as Google recommends for Gemini 3",
			llm.GenParams{Temperature: &one}, `{"temperature":1,"seed":1,"maxOutputTokens":300}`},
		{"provider defaults", "temperature= and seed= send neither",
			llm.GenParams{OmitTemperature: true, OmitSeed: true}, `{"maxOutputTokens":300}`},
		{"schema and cap", "schema=1 and max_tokens=100",
			llm.GenParams{ResponseSchema: true, MaxTokens: 100},
			`{"temperature":0.5,"seed":1,"maxOutputTokens":100,"responseMimeType":"application/json","responseJsonSchema":{"type":"object"}}`},
	}
	for _, tc := range tests {
		fake := &fakeGemini{reply: okBody}
		srv := httptest.NewServer(fake)
		m, err := gemini.New("g", gemini.Options{BaseURL: srv.URL, GenParams: tc.gen})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Generate(context.Background(), req); err != nil {
			t.Fatal(err)
		}
		srv.Close()
		if got, want := fake.bodies[0]["generationConfig"], mustJSON(t, tc.want); !reflect.DeepEqual(got, any(want)) {
			t.Errorf("%s (%s): generationConfig\n%s\nwant\n%s", tc.name, tc.why, dump(got), dump(want))
		}
	}
}
