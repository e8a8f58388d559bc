package gemini_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/gemini"
)

// vertexServer speaks Vertex AI's generateContent for one model. An
// older model (acceptIDs false) refuses any "id" in functionCall or
// functionResponse parts with the 400 Vertex sends, and gives its calls no
// ids; a newer one takes ids and gives them. Each reply calls the tool
// "look" until the history holds two calls, then answers in text.
type vertexServer struct {
	acceptIDs bool
	requests  atomic.Int32
	refusals  atomic.Int32
	mu        sync.Mutex
	withIDs   int // requests that carried ids and were answered
}

func (v *vertexServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	v.requests.Add(1)
	if !strings.HasPrefix(r.URL.Path, "/v1beta1/projects/proj/locations/us-central1/publishers/google/models/") {
		http.Error(w, `{"error":{"code":404,"message":"not a Vertex path","status":"NOT_FOUND"}}`, 404)
		return
	}
	var body struct {
		Contents []struct {
			Role  string `json:"role"`
			Parts []struct {
				FunctionCall     map[string]any `json:"functionCall"`
				FunctionResponse map[string]any `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
	}
	data, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(data, &body); err != nil {
		http.Error(w, `{"error":{"code":400,"message":"bad JSON","status":"INVALID_ARGUMENT"}}`, 400)
		return
	}
	calls, ids := 0, false
	for i, c := range body.Contents {
		for j, p := range c.Parts {
			for field, part := range map[string]map[string]any{"function_call": p.FunctionCall, "function_response": p.FunctionResponse} {
				if part == nil {
					continue
				}
				if field == "function_call" {
					calls++
				}
				if _, ok := part["id"]; ok {
					ids = true
					if !v.acceptIDs {
						v.refusals.Add(1)
						w.Header().Set("Content-Type", "application/json")
						w.WriteHeader(400)
						fmt.Fprintf(w, `{"error":{"code":400,"message":"Invalid JSON payload received. Unknown name \"id\" at 'contents[%d].parts[%d].%s': Cannot find field.","status":"INVALID_ARGUMENT"}}`, i, j, field)
						return
					}
				}
			}
		}
	}
	if ids {
		v.mu.Lock()
		v.withIDs++
		v.mu.Unlock()
	}
	w.Header().Set("Content-Type", "application/json")
	if calls >= 2 {
		io.WriteString(w, `{"candidates":[{"content":{"role":"model","parts":[{"text":"done"}]},"finishReason":"STOP"}]}`)
		return
	}
	id := ""
	if v.acceptIDs {
		id = fmt.Sprintf(`"id":"fc-%d",`, calls)
	}
	fmt.Fprintf(w, `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{%s"name":"look","args":{"n":%d}}}]},"finishReason":"STOP"}]}`, id, calls)
}

// episode runs a tool-calling conversation to its end, as a workflow does,
// and returns the number of model turns.
func episode(ctx context.Context, m llm.Model) (int, error) {
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "look twice"}},
		Tools: []llm.ToolDecl{{Name: "look", Schema: json.RawMessage(`{"type":"object"}`)}}}
	for turn := 1; turn <= 5; turn++ {
		reply, err := m.Generate(ctx, req)
		if err != nil {
			return turn, fmt.Errorf("turn %d: %w", turn, err)
		}
		if len(reply.ToolCalls) == 0 {
			if reply.Text != "done" {
				return turn, fmt.Errorf("turn %d: text %q", turn, reply.Text)
			}
			return turn, nil
		}
		req.Messages = append(req.Messages, llm.Message{Role: llm.RoleAssistant, Text: reply.Text, ToolCalls: reply.ToolCalls})
		for _, c := range reply.ToolCalls {
			req.Messages = append(req.Messages, llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Name: c.Name, Text: "seen"})
		}
	}
	return 0, fmt.Errorf("no end after 5 turns")
}

func openVertex(t *testing.T, url string) *gemini.Model {
	t.Helper()
	m, err := gemini.New("gemini-2.0-flash-001", gemini.Options{Backend: gemini.BackendVertex, Project: "proj", Location: "us-central1",
		BaseURL: url, HTTPClient: &http.Client{}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestVertexFunctionCallIDs(t *testing.T) {
	tests := []struct {
		name, why           string
		acceptIDs           bool
		episodes            int
		wantRequests        int // over all episodes
		wantRefusals        int
		wantRequestsWithIDs int
	}{
		{name: "refused", why: "the 400 on ids is answered by the same call without them, and no later call sends ids",
			acceptIDs: false, episodes: 2, wantRequests: 3 + 1 + 3, wantRefusals: 1},
		{name: "accepted", why: "a model that takes ids gets them on every call that has calls in its history",
			acceptIDs: true, episodes: 2, wantRequests: 3 + 3, wantRequestsWithIDs: 2 + 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := &vertexServer{acceptIDs: tc.acceptIDs}
			srv := httptest.NewServer(v)
			defer srv.Close()
			m := openVertex(t, srv.URL)
			for i := range tc.episodes {
				turns, err := episode(context.Background(), m)
				if err != nil {
					t.Fatalf("episode %d: %v", i, err)
				}
				if turns != 3 {
					t.Errorf("episode %d took %d turns, want 3", i, turns)
				}
			}
			if got := int(v.requests.Load()); got != tc.wantRequests {
				t.Errorf("%d requests, want %d (%s)", got, tc.wantRequests, tc.why)
			}
			if got := int(v.refusals.Load()); got != tc.wantRefusals {
				t.Errorf("%d refusals of ids, want %d (%s)", got, tc.wantRefusals, tc.why)
			}
			if v.withIDs != tc.wantRequestsWithIDs {
				t.Errorf("%d answered requests carried ids, want %d (%s)", v.withIDs, tc.wantRequestsWithIDs, tc.why)
			}
		})
	}
}

// TestVertexIDsConcurrent: episodes that run at once on one model all
// complete; each may meet the refusal once before the model learns it.
func TestVertexIDsConcurrent(t *testing.T) {
	v := &vertexServer{}
	srv := httptest.NewServer(v)
	defer srv.Close()
	m := openVertex(t, srv.URL)
	const n = 8
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if _, err := episode(context.Background(), m); err != nil {
				t.Errorf("episode %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	if r := v.refusals.Load(); r < 1 || r > n {
		t.Errorf("%d refusals, want between 1 and %d", r, n)
	}
	// Once learnt, never again: one more episode meets no refusal.
	before := v.refusals.Load()
	if _, err := episode(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	if v.refusals.Load() != before {
		t.Error("the model sent ids again after they were refused")
	}
}

// TestVertexOtherBadRequest: a 400 that is not about ids is not resent.
func TestVertexOtherBadRequest(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.WriteHeader(400)
		io.WriteString(w, `{"error":{"code":400,"message":"Unknown name \"temperature\"","status":"INVALID_ARGUMENT"}}`)
	}))
	defer srv.Close()
	m := openVertex(t, srv.URL)
	_, err := m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "x"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "a", Name: "f"}}}, {Role: llm.RoleTool, ToolCallID: "a", Text: "1"}}})
	if llm.KindOf(err) != llm.KindBadRequest || !llm.IsInfra(err) || n.Load() != 1 {
		t.Errorf("error %v after %d requests, want one bad request (infrastructure)", err, n.Load())
	}
}
