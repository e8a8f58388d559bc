package cli

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm/cassette"
	"github.com/ambibench/ambibench/results"
)

// startServeSim runs `ambibench serve-sim` on a free loopback port and
// returns its base URL; it stops when the test ends.
func startServeSim(t *testing.T, spec string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- serveSim(ctx, pw, io.Discard, []string{"--addr", "127.0.0.1:0", "--model", spec}) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve-sim: %v", err)
		}
	})
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	i := strings.Index(line, "http://")
	if i < 0 {
		t.Fatalf("serve-sim printed %q", line)
	}
	return strings.TrimSpace(line[i:])
}

// sameUpToModel compares records apart from the model's name and the
// timings, which differ between an in-process model and the same model
// over HTTP.
func sameUpToModel(t *testing.T, a, b []results.Record) {
	t.Helper()
	strip := func(rs []results.Record) []results.Record {
		out := make([]results.Record, len(rs))
		for i, r := range rs {
			// An agent's error names the model it called ("model
			// openai:sim:weak: ..."), which is the name that differs.
			if r.Model != "" {
				r.Error = strings.ReplaceAll(r.Error, r.Model, "<model>")
			}
			r.Model, r.WallMS, r.LatencyP50MS, r.LatencyP95MS = "", 0, 0, 0
			out[i] = r
		}
		return out
	}
	if len(a) == 0 || canonical(t, strip(a)) != canonical(t, strip(b)) {
		t.Errorf("records differ (%d and %d records)", len(a), len(b))
	}
}

func runInto(t *testing.T, dir string, args ...string) []results.Record {
	t.Helper()
	all := append([]string{"run", "--agents", "direct", "--episodes", "3", "--out", dir}, args...)
	if _, errOut, err := runCLI(t, all...); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	return readRecords(t, dir)
}

// The openai backend, told to send the call context ("?context=1"), over
// real HTTP to serve-sim, writes the records the in-process simulated
// model writes; and the key in the environment reaches no file the run
// writes.
func TestOpenAIAgainstServeSim(t *testing.T) {
	// Not parallel: it sets the process's environment (t.Setenv), which the backends read.
	const secret = "sk-test-SECRET-4242"
	t.Setenv("OPENAI_API_KEY", secret)
	t.Setenv("OPENAI_BASE_URL", startServeSim(t, "sim"))
	viaHTTP := t.TempDir()
	remote := runInto(t, viaHTTP, "--model", "openai:sim?context=1", "--transcripts")
	if _, err := os.Stat(filepath.Join(viaHTTP, "transcripts.jsonl")); err != nil {
		t.Errorf("no transcript: %v", err)
	}
	local := runInto(t, t.TempDir(), "--model", "sim")
	sameUpToModel(t, remote, local)
	if remote[0].Model != "openai:sim" || remote[0].Calls == 0 {
		t.Errorf("record says model %q, %d calls", remote[0].Model, remote[0].Calls)
	}
	assertNoSecret(t, viaHTTP, secret)
}

// A plain client gets serve-sim's plain answers: the openai backend
// without "?context=1" sends no context, and neither does the gemini
// backend (over serve-sim's generateContent endpoint), so every call is
// answered with the simulated model's reply to a request without one,
// and the workflow records the failure. The key reaches no file.
func TestPlainClientsAgainstServeSim(t *testing.T) {
	// Not parallel: it sets the process's environment (t.Setenv), which the backends read.
	const secret = "AIza-test-SECRET-777"
	t.Setenv("GEMINI_API_KEY", secret)
	t.Setenv("OPENAI_API_KEY", secret)
	base := startServeSim(t, "sim")
	t.Setenv("GOOGLE_GEMINI_BASE_URL", strings.TrimSuffix(base, "/v1")+"/")
	t.Setenv("OPENAI_BASE_URL", base)
	for _, spec := range []string{"gemini:sim", "openai:sim", "openai:sim?context=0"} {
		viaHTTP := t.TempDir()
		remote := runInto(t, viaHTTP, "--model", spec, "--transcripts")
		for _, r := range remote {
			if r.Model != strings.TrimSuffix(spec, "?context=0") || r.Calls == 0 || r.Success || !strings.Contains(r.Error, "without a tool call") {
				t.Errorf("%s: record model %q, %d calls, success %v, error %q; want the failure of a model that never calls a tool", spec, r.Model, r.Calls, r.Success, r.Error)
				break
			}
		}
		data, err := os.ReadFile(filepath.Join(viaHTTP, "transcripts.jsonl"))
		if err != nil || !strings.Contains(string(data), "I can only answer requests that carry an ambibench call context") {
			t.Errorf("%s: the transcript lacks serve-sim's plain answer (%v)", spec, err)
		}
		assertNoSecret(t, viaHTTP, secret)
	}
}

// A run recorded with record: replays with replay: to the same records,
// and a request the cassette lacks fails, naming its hash.
func TestRecordThenReplay(t *testing.T) {
	t.Parallel()
	tapes := t.TempDir()
	recorded := runInto(t, t.TempDir(), "--model", "record:"+tapes+"=sim")
	replayed := runInto(t, t.TempDir(), "--model", "replay:"+tapes)
	sameUpToModel(t, recorded, replayed)
	if recorded[0].Model != replayed[0].Model {
		t.Errorf("model %q recorded, %q replayed", recorded[0].Model, replayed[0].Model)
	}
	// A cassette miss is the infrastructure's failure, not the agent's:
	// those episodes are not scored, the table says why, and the run
	// exits with the infra status.
	out, _, err := runCLI(t, "run", "--agents", "direct", "--episodes", "4", "--model", "replay:"+tapes)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitInfra {
		t.Errorf("replaying past the tape: got %v, want exit status %d", err, exitInfra)
	}
	if !strings.Contains(out, "cassette miss") || !strings.Contains(out, "request ") {
		t.Errorf("replaying past the tape: the table does not name the cassette miss:\n%s", out)
	}
}

func TestBadModelSpec(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ why, spec, want string }{
		{"unknown kind lists the forms", "claude:x", "valid forms"},
		{"bad sim rate", "sim:tag=2", "want a number in [0, 1]"},
		{"record without a spec", "record:dir", "record takes DIR=SPEC"},
		{"openai without a model", "openai:", "needs a model name"},
	} {
		_, _, err := runCLI(t, "run", "--agents", "direct", "--episodes", "1", "--model", tc.spec)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "--model") {
			t.Errorf("%s: got %v, want %q", tc.why, err, tc.want)
		}
	}
}

// assertNoSecret scans every file under dir for the secret.
func assertNoSecret(t *testing.T, dir, secret string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if strings.HasSuffix(path, ".zst") {
			// A recording: its JSON, unpacked, is what must not hold it.
			data, err = cassette.ReadFile(path)
		}
		if err != nil {
			return err
		}
		n++
		if strings.Contains(string(data), secret) {
			t.Errorf("%s holds the key", path)
		}
		return nil
	})
	if err != nil || n == 0 {
		t.Fatalf("scanned %d files: %v", n, err)
	}
}

// The workflows of every track, at temperature 0, through the openai
// backend with "?context=1" over real HTTP to serve-sim, write exactly
// the records of the in-process simulated model (apart from the model's
// name and the timings): the context survives the wire, the harness's
// part of it (the repeat, scene_graph_noise's perceiver: CallContext.Play)
// reaches serve-sim's model as Go's context, and the hashes that key the
// model's draws are the same on both sides. (CLARA samples at temperature
// 0.8, whose Sample the wire carries only as a seed, so it is not here.)
func TestWorkflowsAgainstServeSim(t *testing.T) {
	// Not parallel: it sets the process's environment (t.Setenv), which the backends read.
	t.Setenv("OPENAI_BASE_URL", startServeSim(t, "sim:weak"))
	for _, args := range [][]string{
		{"--agents", "sgcot,progprompt,inner-monologue", "--perturbations", "none,multiplicity,partial_observability"},
		// The harness's part of a call (CallContext.Play): the perceiver's
		// noise, which SG-CoT's perceive call applies, and the repeat,
		// which every draw mixes in.
		{"--agents", "sgcot,sgcot-no-edges,progprompt", "--perturbations", "scene_graph_noise", "--tasks", "pick_place,spatial", "--repeats", "2"},
		{"--track", "household", "--agents", "react,reflexion,dyref"},
		{"--track", "semmap", "--agents", "baseline,self-reflect,multi-agent-reflect", "--modes", "certainty,uncertainty"},
	} {
		run := func(model string) []results.Record {
			dir := t.TempDir()
			all := append([]string{"run", "--episodes", "2", "--out", dir, "--model", model}, args...)
			if _, errOut, err := runCLI(t, all...); err != nil {
				t.Fatalf("%v: %v\n%s", all, err, errOut)
			}
			return readRecords(t, dir)
		}
		remote, local := run("openai:sim:weak?context=1"), run("sim:weak")
		t.Logf("%v: %d records", args, len(local))
		sameUpToModel(t, remote, local)
	}
}
