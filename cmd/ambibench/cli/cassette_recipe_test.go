package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The README's recipe for evaluating a real model in CI without a key on
// the CI machine, performed whole, with serve-sim standing in for the
// provider: record once with the key (the cassettes and the run are
// committed), replay in CI with no key and no network and gate with
// compare; then a newer model of the provider that is worse, recorded
// the same way, fails the gate.
func TestCassetteRecipe(t *testing.T) {
	// Not parallel: it sets the process's environment (t.Setenv), which the backends read.
	repo := t.TempDir() // what the team commits
	grid := []string{"--agents", "direct", "--tasks", "pick_place", "--perturbations", "none,absence,multiplicity", "--episodes", "60", "--quiet"}
	record := func(provider, tapes, out string) {
		t.Helper()
		t.Setenv("OPENAI_API_KEY", "sk-recipe-test")
		t.Setenv("OPENAI_BASE_URL", startServeSim(t, provider))
		if _, errOut, err := runCLI(t, append([]string{"run", "--model", "record:" + tapes + "=openai:sim?context=1", "--out", out}, grid...)...); err != nil {
			t.Fatalf("record against %s: %v\n%s", provider, err, errOut)
		}
	}
	// CI: no key, and nothing listens where the provider was.
	replay := func(tapes string) string {
		t.Helper()
		t.Setenv("OPENAI_API_KEY", "")
		t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
		out := filepath.Join(t.TempDir(), "ci")
		if _, errOut, err := runCLI(t, append([]string{"run", "--model", "replay:" + tapes, "--out", out}, grid...)...); err != nil {
			t.Fatalf("replay in CI: %v\n%s", err, errOut)
		}
		return out
	}

	// Once, with the key: the cassettes and the baseline run.
	tapes, baseline := filepath.Join(repo, "cassettes"), filepath.Join(repo, "baseline")
	record("sim", tapes, baseline)
	if n := countFiles(t, tapes); n == 0 {
		t.Fatal("recording wrote no cassette")
	}

	// Every CI run: replay, then gate against the baseline.
	ci := replay(tapes)
	if out, errOut, err := runCLI(t, "compare", baseline, ci); err != nil {
		t.Fatalf("compare of the replayed run with its baseline: %v\n%s%s", err, out, errOut)
	}

	// The provider's next model is worse: recorded into new cassettes
	// (the pull request that moves to it), CI replays them and the gate
	// fails, naming the agent.
	worse := filepath.Join(repo, "cassettes-next")
	record("sim:weak", worse, filepath.Join(t.TempDir(), "next"))
	out, _, err := runCLI(t, "compare", baseline, replay(worse))
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitRegression || !strings.Contains(err.Error(), "direct") {
		t.Fatalf("compare of a worse model: %v (want exit %d naming direct)\n%s", err, exitRegression, out)
	}
	t.Logf("the gate on the worse model: %v", err)
	// What is committed holds no key.
	assertNoSecret(t, repo, "sk-recipe-test")
}

func countFiles(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}
