package cli

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ambibench/ambibench/agents/llm/serve"
	"github.com/ambibench/ambibench/agents/llm/simmodel"
	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/stats"
)

// faultServer is a model server that fails in one way until it is told to
// recover, and then serves the simulated model as serve-sim does.
type faultServer struct {
	healthy atomic.Bool
	fail    http.HandlerFunc
	ok      http.Handler
	calls   atomic.Int64
}

func (s *faultServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.calls.Add(1)
	if s.healthy.Load() {
		s.ok.ServeHTTP(w, r)
		return
	}
	s.fail(w, r)
}

// The ways a provider fails. Each says what the record must say of it:
// an infrastructure error of a kind (never scored, rerun after recovery),
// or, for the reply too large to read, the agent's own failure.
type faultMode struct {
	name  string
	fail  func(w http.ResponseWriter, r *http.Request)
	kind  string // the records' error kind
	infra bool
}

// errorBody is a provider's error in its own shape.
type errorBody func(status int, msg string) string

func openAIError(status int, msg string) string {
	return fmt.Sprintf(`{"error":{"message":%q,"type":"error_%d"}}`, msg, status)
}

func geminiError(status int, msg string) string {
	return fmt.Sprintf(`{"error":{"code":%d,"message":%q,"status":"ERROR"}}`, status, msg)
}

// faultModes are the failures, each in a provider's shape: its error
// bodies, and the start of a reply whose text is enormous.
func faultModes(body errorBody, replyStart, replyEnd string) []faultMode {
	fail := func(status int, msg string) func(w http.ResponseWriter, r *http.Request) {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			if status == http.StatusTooManyRequests {
				w.Header().Set("Retry-After", "0")
			}
			w.WriteHeader(status)
			fmt.Fprint(w, body(status, msg))
		}
	}
	return []faultMode{
		{"429 until the retries run out", fail(http.StatusTooManyRequests, "slow down"), "rate limited", true},
		{"500s", fail(http.StatusInternalServerError, "boom"), "server error", true},
		{"a hang past the call timeout (1 s, generous for a loaded CI machine)", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(3 * time.Second):
			}
		}, "timeout", true},
		{"400: the provider rejects a setting", fail(http.StatusBadRequest, "temperature is not supported with this model"), "bad request", true},
		{"a body cut short", func(w http.ResponseWriter, r *http.Request) {
			hj, ok := w.(http.Hijacker)
			if !ok {
				panic("no hijacker")
			}
			conn, buf, _ := hj.Hijack()
			fmt.Fprint(buf, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n"+replyStart[:len(replyStart)/2])
			buf.Flush()
			conn.Close()
		}, "malformed reply", true},
		{"an enormous reply", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			bw := bufio.NewWriter(w)
			bw.WriteString(replyStart)
			chunk := strings.Repeat("a", 1<<16)
			for range 1600 { // 100 MiB
				if _, err := bw.WriteString(chunk); err != nil {
					return
				}
			}
			bw.WriteString(replyEnd)
			bw.Flush()
		}, "reply too large", false},
	}
}

// Against a local OpenAI-compatible server that fails in each way: the
// records say what happened, no infrastructure error enters a rate, the
// exit status says whether any happened, and a rerun after the server
// recovers runs exactly the infra-error episodes and ends with the records
// of a run that never failed.
func TestFaultsOpenAI(t *testing.T) {
	// Not parallel: it sets the process's environment (t.Setenv), which the backends read.
	args := []string{"run", "--agents", "rules,direct", "--tasks", "pick_place", "--perturbations", "none,absence",
		"--episodes", "2", "--model", "openai:sim?context=1", "--retries", "2", "--call-timeout", "1s", "--max-reply-bytes", "1048576", "--quiet"}
	okHandler := serve.Handler(simmodel.New(simmodel.Default, "sim"))
	t.Setenv("OPENAI_API_KEY", "sk-test")

	healthy := httptest.NewServer(okHandler)
	defer healthy.Close()
	t.Setenv("OPENAI_BASE_URL", healthy.URL+"/v1")
	never := t.TempDir()
	if _, errOut, err := runCLI(t, append(args, "--out", never)...); err != nil {
		t.Fatalf("the healthy run: %v\n%s", err, errOut)
	}
	want := readRecords(t, never)

	modes := faultModes(openAIError, `{"id":"x","object":"chat.completion","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"`, `"}}]}`)
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			fs := &faultServer{fail: mode.fail, ok: okHandler}
			srv := httptest.NewServer(fs)
			defer srv.Close()
			t.Setenv("OPENAI_BASE_URL", srv.URL+"/v1")
			checkFaultRun(t, args, fs.healthy.Store, mode.kind, mode.infra, want)
		})
	}
	t.Run("connection refused", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		t.Setenv("OPENAI_BASE_URL", "http://"+addr+"/v1")
		recover := func(bool) {
			l, err := net.Listen("tcp", addr)
			if err != nil {
				t.Skipf("the port was taken meanwhile: %v", err)
			}
			srv := &httptest.Server{Listener: l, Config: &http.Server{Handler: okHandler}}
			srv.Start()
			t.Cleanup(srv.Close)
		}
		checkFaultRun(t, args, recover, "server error", true, want)
	})
}

// The same against a local server of the Gemini REST shape. The gemini
// backend sends no call context, so the recovered server gives the plain
// answers of a model that never calls a tool: agent errors, the same in a
// run that never failed, which is what the rerun must match.
func TestFaultsGemini(t *testing.T) {
	// Not parallel: it sets the process's environment (t.Setenv), which the backends read.
	args := []string{"run", "--agents", "rules,direct", "--tasks", "pick_place", "--perturbations", "none,absence",
		"--episodes", "2", "--model", "gemini:sim", "--retries", "2", "--call-timeout", "1s", "--max-reply-bytes", "1048576", "--quiet"}
	okHandler := serve.Handler(simmodel.New(simmodel.Default, "sim"))
	t.Setenv("GEMINI_API_KEY", "test-key")
	t.Setenv("GOOGLE_API_KEY", "")
	t.Setenv("GOOGLE_GENAI_USE_VERTEXAI", "")

	healthy := httptest.NewServer(okHandler)
	defer healthy.Close()
	t.Setenv("GOOGLE_GEMINI_BASE_URL", healthy.URL+"/")
	never := t.TempDir()
	if _, errOut, err := runCLI(t, append(args, "--out", never)...); err != nil {
		t.Fatalf("the healthy run: %v\n%s", err, errOut)
	}
	want := readRecords(t, never)
	modes := faultModes(geminiError, `{"candidates":[{"index":0,"finishReason":"STOP","content":{"role":"model","parts":[{"text":"`, `"}]}}]}`)
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			fs := &faultServer{fail: mode.fail, ok: okHandler}
			srv := httptest.NewServer(fs)
			defer srv.Close()
			t.Setenv("GOOGLE_GEMINI_BASE_URL", srv.URL+"/")
			checkFaultRun(t, args, fs.healthy.Store, mode.kind, mode.infra, want)
		})
	}
}

// checkFaultRun runs args on a failing server, checks the records and the
// exit status, lets the server recover, runs args again and checks that
// the result is want.
func checkFaultRun(t *testing.T, args []string, recover func(bool), kind string, infra bool, want []results.Record) {
	t.Helper()
	dir := t.TempDir()
	out, errOut, err := runCLI(t, append(args, "--out", dir)...)
	// What went wrong is logged as it happens (log/slog, --log-level warn).
	if infra && !strings.Contains(errOut, "infrastructure error; the episode is not scored") {
		t.Errorf("stderr does not log the infrastructure errors:\n%s", errOut)
	}
	if retried := kind == "rate limited" || kind == "server error"; retried && !strings.Contains(errOut, "retrying") {
		t.Errorf("stderr does not log the retries:\n%s", errOut)
	}
	var ee *exitError
	switch {
	case infra && (!errors.As(err, &ee) || ee.code != exitInfra):
		t.Fatalf("exit: got %v, want status %d", err, exitInfra)
	case !infra && err != nil:
		t.Fatalf("exit: got %v, want success (the agent's failure is a score)", err)
	}
	failed := readRecords(t, dir)
	lost := 0
	for _, r := range failed {
		switch {
		case r.Model == "":
			if r.Outcome != results.OutcomeScored {
				t.Errorf("%s: a reference agent's record is %s", r.Key(), r.Outcome)
			}
		case infra:
			if r.Outcome != results.OutcomeInfraError || r.ErrorKind != kind {
				t.Errorf("%s: outcome %s (%s), want infra_error (%s): %s", r.Key(), r.Outcome, r.ErrorKind, kind, r.Error)
			}
			lost++
		default:
			if r.Outcome != results.OutcomeAgentError || !strings.Contains(r.ErrorKind, kind) {
				t.Errorf("%s: outcome %s (%s), want agent_error (%s): %s", r.Key(), r.Outcome, r.ErrorKind, kind, r.Error)
			}
		}
	}
	if infra {
		// No infra error in a rate: the direct row counts nothing, and
		// the table says what it lost.
		cells := stats.Aggregate(failed, stats.AggregateOptions{})
		for _, c := range cells {
			if c.Agent == "direct" {
				t.Errorf("direct has a rate over %d episodes, all of them infra errors", c.N)
			}
		}
		if !strings.Contains(out, fmt.Sprintf("Not scored: %d episodes", lost)) || !strings.Contains(out, kind) {
			t.Errorf("the table does not say what was lost:\n%s", out)
		}
	}
	recover(true)
	_, errOut, err = runCLI(t, append(args, "--out", dir)...)
	if err != nil {
		t.Fatalf("rerun after recovery: %v\n%s", err, errOut)
	}
	if infra && !strings.Contains(errOut, fmt.Sprintf("%d episodes that ended in infrastructure errors run again", lost)) {
		t.Errorf("the rerun does not say it reruns %d episodes: %s", lost, errOut)
	}
	got := readRecords(t, dir)
	if !infra {
		if canonical(t, got) != canonical(t, failed) {
			t.Error("the rerun changed records that were not infra errors")
		}
		return
	}
	if canonical(t, byKey(got)) != canonical(t, byKey(want)) {
		t.Errorf("after recovery the records differ from a run that never failed")
	}
}

// byKey drops what depends on the retries, the attempts, and puts the
// records in key order: a rerun appends the episodes it ran again after
// those it kept. (canonical drops the timings.)
func byKey(recs []results.Record) []results.Record {
	out := make([]results.Record, len(recs))
	for i, r := range recs {
		r.Attempts = 0
		out[i] = r
	}
	slices.SortFunc(out, func(a, b results.Record) int { return strings.Compare(a.Key(), b.Key()) })
	return out
}
