package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
)

// show prints an episode's record and, from the transcripts, every call
// with the tool results the model saw; each call shows only what is new.
func TestShowEpisode(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, _, err := runCLI(t, "run", "--agents", "direct", "--tasks", "pick_place", "--perturbations", "absence", "--episodes", "1", "--out", dir, "--transcripts", "--quiet"); err != nil {
		t.Fatal(err)
	}
	keys, _, err := runCLI(t, "show", dir)
	if err != nil || !strings.Contains(keys, "tabletop/pick_place/absence/direct/sim/1/0\tscored") {
		t.Fatalf("show DIR: %v\n%s", err, keys)
	}
	out, _, err := runCLI(t, "show", dir, "tabletop/pick_place/absence/direct/sim/1/0")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"Instruction: ", "Outcome: scored", "=== call 1", "=== call 2", "[assistant calls ask]", "[tool ask]"} {
		if !strings.Contains(out, s) {
			t.Errorf("show lacks %q:\n%s", s, out)
		}
	}
	if n := strings.Count(out, "[system]"); n != 1 {
		t.Errorf("the system prompt is shown %d times, want once", n)
	}
	quoted := `"tabletop"/"pick_place"/"absence"/"direct"/"sim"/1/0`
	if again, _, err := runCLI(t, "show", dir, quoted); err != nil || again != out {
		t.Errorf("the quoted key shows something else (%v)", err)
	}
	if _, _, err := runCLI(t, "show", dir, "tabletop/pick_place/absence/direct/sim/1/9"); err == nil || !strings.Contains(err.Error(), "holds no episode") {
		t.Errorf("an unknown key: got %v", err)
	}
}

// --dry-run runs nothing and writes nothing; it lists the grid and the
// calls the same grid makes on the simulated model.
func TestDryRun(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "out")
	out, _, err := runCLI(t, "run", "--agents", "rules,direct", "--tasks", "pick_place", "--perturbations", "none,absence", "--episodes", "3", "--dry-run", "--out", dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"Dry run: 12 episodes.", "| direct | pick_place | absence | 3 |", "| direct | 6 |"} {
		if !strings.Contains(out, s) {
			t.Errorf("dry run lacks %q:\n%s", s, out)
		}
	}
	if strings.Contains(out, "| rules | 6 |") {
		t.Error("the cost table lists an agent that uses no model")
	}
	if _, err := os.Stat(dir); err == nil {
		t.Error("a dry run made its --out directory")
	}
}

// --max-tokens-total stops the run with its own status; what was recorded
// is whole, and the same command again finishes the grid with the records
// of a run that never stopped (in another order: a stopped run leaves
// gaps), at any concurrency.
func TestMaxTokensTotal(t *testing.T) {
	t.Parallel()
	base := []string{"run", "--agents", "direct", "--tasks", "pick_place", "--perturbations", "none", "--episodes", "12", "--quiet"}
	full := t.TempDir()
	if _, _, err := runCLI(t, append(base, "--out", full)...); err != nil {
		t.Fatal(err)
	}
	want := canonical(t, byKey(readRecords(t, full)))
	spent := 0
	for _, r := range readRecords(t, full) {
		spent += r.InputTokens + r.OutputTokens
	}
	for _, tc := range []struct {
		why        string
		conc       string
		budget     int
		atMostRuns int
	}{
		{"half the grid's tokens, one episode at a time", "1", spent / 2, 3},
		{"half the grid's tokens, four at a time", "4", spent / 2, 6},
	} {
		t.Run(tc.why, func(t *testing.T) {
			args := append(base, "--concurrency", tc.conc, "--max-tokens-total", strconv.Itoa(tc.budget))
			dir := t.TempDir()
			_, _, err := runCLI(t, append(args, "--out", dir)...)
			var ee *exitError
			if !errors.As(err, &ee) || ee.code != exitBudget || !strings.Contains(err.Error(), "--max-tokens-total") {
				t.Fatalf("got %v, want exit status %d naming the budget", err, exitBudget)
			}
			if n := len(readRecords(t, dir)); n == 0 || n >= 12 {
				t.Fatalf("%d records before the budget ran out, want some but not all", n)
			}
			for run := 2; ; run++ {
				_, _, err := runCLI(t, append(args, "--out", dir)...)
				if err == nil {
					break
				}
				if !errors.As(err, &ee) || ee.code != exitBudget {
					t.Fatalf("run %d: %v", run, err)
				}
				if run > tc.atMostRuns {
					t.Fatalf("still not done after %d runs (%d records)", run, len(readRecords(t, dir)))
				}
			}
			if got := canonical(t, byKey(readRecords(t, dir))); got != want {
				t.Error("the run continued after the budget differs from one that never stopped")
			}
		})
	}
}

// Progress on a stream that is not a terminal is plain lines, one per
// period, with counts per agent, rate, ETA and errors.
func TestProgressLines(t *testing.T) {
	// Not parallel: it steps the package's clock.
	var b bytes.Buffer
	jobs := []bench.Job{{Agent: "a"}, {Agent: "a"}, {Agent: "b"}}
	p := newProgress(&b, jobs)
	clock := p.start
	p.now = func() time.Time { return clock }
	clock = clock.Add(time.Second)
	p.record(jobs[0], results.Record{Outcome: results.OutcomeScored})
	if b.Len() != 0 {
		t.Errorf("printed before a period passed: %q", b.String())
	}
	clock = clock.Add(11 * time.Second)
	p.record(jobs[1], results.Record{Outcome: results.OutcomeInfraError})
	clock = clock.Add(time.Second)
	p.record(jobs[2], results.Record{Outcome: results.OutcomeAgentError})
	p.end()
	want := "ambibench: 2/3 episodes (a 2/2, b 0/1), 0.2/s, ETA 6s, 0 agent errors, 1 infrastructure error\n" +
		"ambibench: 3/3 episodes (a 2/2, b 1/1), 0.2/s, ETA 0s, 1 agent error, 1 infrastructure error\n"
	if b.String() != want {
		t.Errorf("progress:\n%s\nwant:\n%s", b.String(), want)
	}
}

// --quiet prints no progress; without it a run prints some.
func TestQuiet(t *testing.T) {
	t.Parallel()
	args := []string{"run", "--agents", "rules", "--tasks", "pick_place", "--perturbations", "none", "--episodes", "2"}
	_, loud, err := runCLI(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	_, quiet, err := runCLI(t, append(args, "--quiet")...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(loud, "2/2 episodes") || strings.Contains(quiet, "episodes (") {
		t.Errorf("progress: without --quiet %q, with %q", loud, quiet)
	}
}
