package models

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/middleware"
	"github.com/ambibench/ambibench/agents/llm/openai"
	"github.com/ambibench/ambibench/agents/llm/serve"
	"github.com/ambibench/ambibench/agents/llm/simmodel"
)

// fault is what the server does on one attempt; "" passes the request to
// the simulated model.
type fault string

const (
	ok           fault = ""
	tooMany      fault = "429"
	serverError  fault = "500"
	unavailable  fault = "503"
	badRequest   fault = "400"
	unauthorized fault = "401"
	hang         fault = "hang"
	truncated    fault = "truncated"
	notJSON      fault = "not json"
)

// faultServer answers attempt i with script[i] (the last entry repeats)
// and counts the attempts.
func faultServer(t *testing.T, script ...fault) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	good := serve.Handler(simmodel.New(simmodel.Perfect, "sim:perfect"))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		f := script[min(i, len(script)-1)]
		switch f {
		case ok:
			good.ServeHTTP(w, r)
		case tooMany:
			w.Header().Set("Retry-After", "1")
			http.Error(w, `{"error":{"message":"slow down"}}`, http.StatusTooManyRequests)
		case serverError, unavailable, badRequest, unauthorized:
			code := map[fault]int{serverError: 500, unavailable: 503, badRequest: 400, unauthorized: 401}[f]
			http.Error(w, `{"error":{"message":"scripted"}}`, code)
		case hang:
			select {
			case <-r.Context().Done():
			case <-time.After(time.Second): // well past the 300 ms deadline
			}
		case truncated:
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", "400")
			w.Write([]byte(`{"id":"x","object":"chat.completion","choices":[{"index":0,"mess`))
		case notJSON:
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte("<html>gateway</html>"))
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// The live chain against a server that fails in scripted ways: each
// failure kind gets the documented number of attempts, then a reply or an
// error of the right kind; nothing panics.
func TestLiveChainAgainstFaults(t *testing.T) {
	for _, tc := range []struct {
		why      string
		script   []fault
		attempts int32
		wantKind llm.ErrorKind // KindUnknown: success
	}{
		{"429 with Retry-After is waited out and retried", []fault{tooMany, ok}, 2, llm.KindUnknown},
		{"500 is retried", []fault{serverError, ok}, 2, llm.KindUnknown},
		{"503 for ever gives up after four attempts", []fault{unavailable}, 4, llm.KindServer},
		{"a hung connection times out and is retried", []fault{hang, ok}, 2, llm.KindUnknown},
		{"a truncated body is malformed, retried, then given up", []fault{truncated}, 4, llm.KindMalformed},
		{"a reply that is not JSON is retried", []fault{notJSON, ok}, 2, llm.KindUnknown},
		{"400 is not retried", []fault{badRequest}, 1, llm.KindBadRequest},
		{"401 is not retried", []fault{unauthorized}, 1, llm.KindAuth},
	} {
		t.Run(tc.why, func(t *testing.T) {
			srv, attempts := faultServer(t, tc.script...)
			backend, err := openai.New("sim", openai.Options{BaseURL: srv.URL + "/v1", SendContext: true})
			if err != nil {
				t.Fatal(err)
			}
			var slept []time.Duration
			m := liveWith(backend, middleware.RetryOptions{
				Base: time.Millisecond, Max: 2 * time.Second,
				Sleep: func(ctx context.Context, d time.Duration) error { slept = append(slept, d); return nil },
			}, 300*time.Millisecond)
			reply, err := m.Generate(context.Background(), firstPlanCall(table()))
			if got := attempts.Load(); got != tc.attempts {
				t.Errorf("%d attempts, want %d", got, tc.attempts)
			}
			if tc.wantKind == llm.KindUnknown {
				if err != nil || len(reply.ToolCalls) == 0 {
					t.Errorf("want a reply with tool calls, got %+v, %v", reply, err)
				}
			} else if k := llm.KindOf(err); k != tc.wantKind {
				t.Errorf("error %v of kind %v, want %v", err, k, tc.wantKind)
			}
			if tc.script[0] == tooMany && (len(slept) == 0 || slept[0] < time.Second) {
				t.Errorf("slept %v before retrying a 429 with Retry-After: 1", slept)
			}
		})
	}
}
