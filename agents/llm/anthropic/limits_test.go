package anthropic_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/anthropic"
)

// enormous streams a 200 reply of about 100 MB, made on the fly, and
// stops when the client goes.
func enormous(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if _, err := io.WriteString(w, `{"type":"message","content":[{"type":"text","text":"`); err != nil {
		return
	}
	chunk := []byte(strings.Repeat("a", 64<<10))
	for range 100 << 20 / len(chunk) {
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
	io.WriteString(w, `"}],"stop_reason":"end_turn"}`)
}

// TestEnormousReplyBoundedMemory: a 100 MB reply against a 1 MB limit
// fails as too large, and the call allocates a few megabytes, not 100.
func TestEnormousReplyBoundedMemory(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(enormous))
	defer srv.Close()
	m, err := anthropic.New("claude-x", anthropic.Options{BaseURL: srv.URL, MaxReplyBytes: 1 << 20})
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

// TestDefaultReplyLimit: with no limit set, llm.DefaultMaxReplyBytes
// applies.
func TestDefaultReplyLimit(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(enormous))
	defer srv.Close()
	m, err := anthropic.New("claude-x", anthropic.Options{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"}}})
	if llm.KindOf(err) != llm.KindTooLarge || !strings.Contains(err.Error(), "4194304 bytes") {
		t.Fatalf("error %v, want a reply too large at the default limit", err)
	}
}
