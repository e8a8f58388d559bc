//go:build long

package cli

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"
)

// TestCompareSaltsPass is the gate's false-alarm rate on the real
// harness: two models with the same error rates and independent draws
// (sim and sim:salt=1) on the same episodes, over 100 trials of
// different seeds, must pass at least 95 times. The grid is small to keep
// it fast: direct and sgcot on pick_place under none, absence and
// multiplicity, 30 episodes per cell (12 comparisons per trial). It plays
// 200 small runs: a long test (make test-long).
func TestCompareSaltsPass(t *testing.T) {
	t.Parallel()
	const trials = 100
	pass := 0
	root := t.TempDir()
	for seed := 1; seed <= trials; seed++ {
		var dirs [2]string
		for i, model := range []string{"sim", "sim:salt=1"} {
			dirs[i] = filepath.Join(root, fmt.Sprintf("s%d-%d", seed, i))
			var stdout, stderr bytes.Buffer
			if code := Main(&stdout, &stderr, []string{"run", "--quiet", "--agents", "direct,sgcot", "--tasks", "pick_place",
				"--perturbations", "none,absence,multiplicity", "--episodes", "30", "--seed", fmt.Sprint(seed), "--model", model, "--out", dirs[i]}); code != 0 {
				t.Fatalf("run seed %d %s: exit %d: %s", seed, model, code, stderr.String())
			}
		}
		var stdout, stderr bytes.Buffer
		switch code := Main(&stdout, &stderr, []string{"compare", dirs[0], dirs[1]}); code {
		case 0:
			pass++
		case 1:
			t.Logf("seed %d: %s", seed, stderr.String())
		default:
			t.Fatalf("compare seed %d: exit %d: %s", seed, code, stderr.String())
		}
	}
	t.Logf("sim against sim:salt=1 passed %d of %d trials", pass, trials)
	if pass < 95 {
		t.Errorf("passed %d of %d trials, want at least 95", pass, trials)
	}
}
