package middleware_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/middleware"
)

// lineWriter checks that every Write is one whole line.
type lineWriter struct {
	t     *testing.T
	mu    sync.Mutex
	lines []string
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(p) == 0 || p[len(p)-1] != '\n' || bytes.Count(p, []byte("\n")) != 1 {
		w.t.Errorf("Write(%q) is not one whole line", p)
	}
	w.lines = append(w.lines, string(p))
	return len(p), nil
}

func decodeLine(t *testing.T, line string) middleware.TranscriptEntry {
	t.Helper()
	var e middleware.TranscriptEntry
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		t.Fatalf("line %q: %v", line, err)
	}
	return e
}

func TestTranscriptLines(t *testing.T) {
	badArgs := llm.Reply{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "pick_and_place", Args: []byte(`{"pick": "red`)}}, FinishReason: llm.FinishToolCalls}
	tests := []struct {
		name  string
		why   string
		step  step
		req   llm.Request
		check func(t *testing.T, e middleware.TranscriptEntry)
	}{
		{
			name: "success", why: "a reply is written with its usage and latency and the request's tools by name",
			step: ok(), req: testReq,
			check: func(t *testing.T, e middleware.TranscriptEntry) {
				if e.Reply == nil || e.Reply.Text != "ok" || e.Error != "" {
					t.Errorf("reply %+v error %q", e.Reply, e.Error)
				}
				if e.InputTokens != 10 || e.OutputTokens != 2 || e.Latency != 3*time.Millisecond {
					t.Errorf("usage %d/%d latency %v", e.InputTokens, e.OutputTokens, e.Latency)
				}
				if len(e.Request.Tools) != 1 || e.Request.Tools[0] != "pick_and_place" {
					t.Errorf("tools %v", e.Request.Tools)
				}
				if e.Request.Seed != 7 || e.Request.System != "You plan." || len(e.Request.Messages) != 1 {
					t.Errorf("request %+v", e.Request)
				}
			},
		},
		{
			name: "failure", why: "an error is written as its message, with no reply",
			step: httpErr(503, 0), req: testReq,
			check: func(t *testing.T, e middleware.TranscriptEntry) {
				if e.Reply != nil || e.Error != "server error (HTTP 503): Service Unavailable" {
					t.Errorf("reply %+v error %q", e.Reply, e.Error)
				}
				if e.Latency <= 0 {
					t.Errorf("latency %v, want the measured time", e.Latency)
				}
			},
		},
		{
			name: "malformed tool arguments", why: "invalid raw JSON in a reply or request is kept as a string, not lost",
			step: step{reply: badArgs},
			req: llm.Request{Messages: []llm.Message{{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{
				{ID: "c0", Name: "ask", Args: []byte(`{oops`)},
			}}}},
			check: func(t *testing.T, e middleware.TranscriptEntry) {
				if e.Reply == nil || string(e.Reply.ToolCalls[0].Args) != `"{\"pick\": \"red"` {
					t.Errorf("reply %+v", e.Reply)
				}
				if got := string(e.Request.Messages[0].ToolCalls[0].Args); got != `"{oops"` {
					t.Errorf("request args %s", got)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &lineWriter{t: t}
			f := scripted(tt.step)
			m := middleware.Transcript(f, w)
			ctx := llm.WithEpisode(context.Background(), "tabletop/pick_place/absence/3")
			reply, err := m.Generate(ctx, tt.req)
			if (err != nil) != (tt.step.err != nil) || reply.Text != tt.step.reply.Text {
				t.Errorf("call returned %+v, %v; want the model's own result", reply, err)
			}
			if len(w.lines) != 1 {
				t.Fatalf("%d lines, want 1", len(w.lines))
			}
			e := decodeLine(t, w.lines[0])
			if e.Episode != "tabletop/pick_place/absence/3" || e.Model != f.Name() {
				t.Errorf("episode %q model %q", e.Episode, e.Model)
			}
			tt.check(t, e)
		})
	}
}

func TestTranscriptConcurrentLinesWhole(t *testing.T) {
	w := &lineWriter{t: t}
	m := middleware.Transcript(instant(), w)
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Go(func() {
			ctx := llm.WithEpisode(context.Background(), fmt.Sprint("ep", i))
			m.Generate(ctx, testReq)
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, l := range w.lines {
		seen[decodeLine(t, l).Episode] = true
	}
	if len(w.lines) != 64 || len(seen) != 64 {
		t.Errorf("%d lines for %d episodes, want 64 and 64", len(w.lines), len(seen))
	}
}

// keyed is a backend that holds an API key, as a real one does.
type keyed struct{ key string }

func (k *keyed) Name() string { return "openai:gpt-test" }
func (k *keyed) Generate(_ context.Context, req llm.Request) (llm.Reply, error) {
	if k.key == "" {
		return llm.Reply{}, errors.New("no key")
	}
	if strings.Contains(req.System, "fail") {
		return llm.Reply{}, &llm.Error{Kind: llm.KindAuth, Status: 401, Err: errors.New("invalid key")}
	}
	return okReply, nil
}

func TestTranscriptHoldsNoSecret(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test-SECRET")
	var buf bytes.Buffer
	m := middleware.Transcript(&keyed{key: os.Getenv("OPENAI_API_KEY")}, &buf)
	for _, system := range []string{"plan", "fail"} {
		req := testReq
		req.System = system
		m.Generate(llm.WithEpisode(context.Background(), "e"), req)
	}
	if bytes.Contains(buf.Bytes(), []byte("sk-test-SECRET")) {
		t.Errorf("transcript holds the key:\n%s", buf.String())
	}
	if n := strings.Count(buf.String(), "\n"); n != 2 {
		t.Errorf("%d lines, want 2", n)
	}
	sc := bufio.NewScanner(&buf)
	for sc.Scan() {
		decodeLine(t, sc.Text())
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestTranscriptWriteFailure(t *testing.T) {
	reply, err := middleware.Transcript(instant(), failingWriter{}).Generate(context.Background(), testReq)
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("error %v, want the write failure", err)
	}
	// The harness failed, not the model: the episode must not be scored.
	if !llm.IsInfra(err) {
		t.Errorf("error %v is not an infrastructure failure", err)
	}
	if reply.Text != okReply.Text {
		t.Errorf("reply %+v, want the model's reply beside the error", reply)
	}
}

// TestTranscriptKeepsRefusal: a refused call's line holds the error and
// the reply that came with it, whose finish reason says why.
func TestTranscriptKeepsRefusal(t *testing.T) {
	refused := &fake{name: "fake", do: func(context.Context, int, llm.Request) (llm.Reply, error) {
		return llm.Reply{FinishReason: llm.FinishOther, ProviderFinish: "SAFETY", InputTokens: 3},
			&llm.Error{Kind: llm.KindRefused, Err: errors.New("gemini: the model refused: finish reason SAFETY")}
	}}
	var buf bytes.Buffer
	middleware.Transcript(refused, &buf).Generate(context.Background(), testReq)
	var e middleware.TranscriptEntry
	if err := json.Unmarshal(buf.Bytes(), &e); err != nil {
		t.Fatal(err)
	}
	if e.Error == "" || e.Reply == nil || e.Reply.ProviderFinish != "SAFETY" {
		t.Errorf("line %s: want the error and the reply with its finish reason", buf.Bytes())
	}
}
