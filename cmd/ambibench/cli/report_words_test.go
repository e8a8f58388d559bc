package cli

import (
	"strings"
	"testing"
)

// A household or semmap report speaks of its own records: the household's
// ADA under partial observability is success (nothing is missing, and no
// other robot exists to message), its SR is a trial reaching the goal;
// the semmap overview names query types and input modes.
func TestReportsUseTheirTracksWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		track   string
		args    []string
		want    []string
		wantNot []string
	}{
		{"household", []string{"--agents", "rules", "--tasks", "pick_and_place", "--episodes", "1"},
			[]string{"; task types pick_and_place; perturbations none, absence",
				"ADA: on a clear game (none), the goal reached without asking; on an ambiguous one, a question to the user; under partial_observability, where nothing is missing",
				"SR: some trial reached the goal, and no question was rejected."},
			[]string{"other robot", "settled scene", "task families"}},
		{"semmap", []string{"--agents", "rules", "--modes", "certainty,uncertainty", "--episodes", "1"},
			[]string{"; query types affordance, descriptive, negation; input modes certainty, uncertainty."},
			[]string{"task families", "perturbations"}},
	} {
		dir := t.TempDir()
		if _, errOut, err := runCLI(t, append([]string{"run", "--track", tc.track, "--quiet", "--out", dir}, tc.args...)...); err != nil {
			t.Fatalf("%s: %v\n%s", tc.track, err, errOut)
		}
		out, errOut, err := runCLI(t, "report", "--out", "-", dir)
		if err != nil {
			t.Fatalf("%s report: %v\n%s", tc.track, err, errOut)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s report has no %q:\n%s", tc.track, w, out)
			}
		}
		for _, w := range tc.wantNot {
			if strings.Contains(out, w) {
				t.Errorf("%s report says %q:\n%s", tc.track, w, out)
			}
		}
	}
}
