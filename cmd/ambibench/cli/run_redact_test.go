package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// echoServer is an OpenAI-compatible server that puts the key it was
// sent into its reply, as a proxy quoting the request's headers would:
// in the text, in a tool call's arguments as written and, with the first
// letter escaped (\u0073k-…), where a search of the bytes misses it; when
// badArgs is set, the tool call's arguments are not JSON, so that the
// workflow's error quotes them.
func echoServer(t *testing.T, badArgs bool) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		args := fmt.Sprintf(`{"question": "is %s yours, or \\u00%x%s?", "tag": "absence"}`, key, key[0], key[1:])
		if badArgs {
			args = `{"question": "` + key
		}
		reply := map[string]any{
			"id": "c", "object": "chat.completion", "created": 1, "model": "echo",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "tool_calls", "message": map[string]any{
				"role": "assistant", "content": "Your key is " + key + ".",
				"tool_calls": []any{map[string]any{"id": "call-1", "type": "function",
					"function": map[string]any{"name": "ask", "arguments": args}}},
			}}},
			"usage": map[string]any{"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7},
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(reply)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// The key reaches nothing a run writes when a server echoes it inside its
// replies (issue 33: it reached the cassettes and the transcripts): not
// the cassette, the transcript, the records, the summary, run.json, nor
// what the command prints. docs/contracts.md promises it ("Secrets").
func TestEchoedKeyIsRedactedEverywhere(t *testing.T) {
	// Not parallel: it sets the process's environment (t.Setenv), which the backends read.
	const secret = "sk-test-ECHOED-5151"
	t.Setenv("OPENAI_API_KEY", secret)
	for _, tc := range []struct {
		why     string
		badArgs bool
	}{
		{"the key in the reply's text and in a tool call's arguments, plain and escaped", false},
		{"the key in arguments that are not JSON, which the workflow's error quotes", true},
	} {
		t.Setenv("OPENAI_BASE_URL", echoServer(t, tc.badArgs))
		out, tapes := t.TempDir(), t.TempDir()
		stdout, stderr, err := runCLI(t, "run", "--agents", "direct", "--tasks", "pick_place", "--perturbations", "none,absence",
			"--episodes", "2", "--retries", "1", "--model", "record:"+tapes+"=openai:echo", "--transcripts", "--out", out)
		if err != nil {
			t.Fatalf("%s: %v\n%s", tc.why, err, stderr)
		}
		if strings.Contains(stdout+stderr, secret) {
			t.Errorf("%s: the output holds the key:\n%s\n%s", tc.why, stdout, stderr)
		}
		assertNoSecret(t, out, secret)
		assertNoSecret(t, tapes, secret)
		// The redaction is there to be seen, so that the test cannot pass
		// on a run that never met the key.
		tr, err := os.ReadFile(filepath.Join(out, "transcripts.jsonl"))
		if err != nil || !strings.Contains(string(tr), "[redacted]") {
			t.Errorf("%s: the transcript shows no redaction (%v)", tc.why, err)
		}
		// Replayed, the cassette gives the same records: the redaction
		// is as deterministic as the rest.
		again := t.TempDir()
		if _, stderr, err := runCLI(t, "run", "--agents", "direct", "--tasks", "pick_place", "--perturbations", "none,absence",
			"--episodes", "2", "--model", "replay:"+tapes, "--out", again); err != nil {
			t.Fatalf("%s: replay: %v\n%s", tc.why, err, stderr)
		}
		sameUpToModel(t, readRecords(t, out), readRecords(t, again))
	}
}
