package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/results"
)

// Every setting that changes an outcome, changed on a directory that
// holds a run, is refused, naming the setting with its old and new value;
// the records stay as they were.
func TestRunRefusesChangedSettings(t *testing.T) {
	t.Parallel()
	tabletop := []string{"run", "--agents", "rules", "--tasks", "pick_place", "--perturbations", "none", "--episodes", "2"}
	household := []string{"run", "--track", "household", "--agents", "rules", "--tasks", "pick_and_place", "--perturbations", "none", "--episodes", "1"}
	semmapDir := t.TempDir()
	if _, _, err := runCLI(t, "semmap", "export", semmapDir); err != nil {
		t.Fatal(err)
	}
	otherDir := t.TempDir()
	if _, _, err := runCLI(t, "semmap", "export", otherDir); err != nil {
		t.Fatal(err)
	}
	semmap := []string{"run", "--track", "semmap", "--agents", "rules", "--tasks", "descriptive", "--episodes", "1", "--data", semmapDir}
	for _, tc := range []struct {
		why          string
		base, change []string
		setting      string
	}{
		{"the seed fixes every episode", tabletop, []string{"--seed", "2"}, "seed: 1 in the directory, 2 now"},
		{"the issue's own case: a step limit of 1 on a run made with 40", tabletop, []string{"--step-limit", "1"}, "step_limit: 40 in the directory, 1 now"},
		{"a reply over the cap is the agent's failure, so the cap moves scores", tabletop, []string{"--max-reply-bytes", "1000"}, "max_reply_bytes: 4194304 in the directory, 1000 now"},
		{"another track is another run", tabletop, []string{"--track", "household", "--tasks", "pick_and_place"}, "track: tabletop in the directory, household now"},
		{"household trials", household, []string{"--trials", "2"}, "trials: 10 in the directory, 2 now"},
		{"household grammar", household, []string{"--grammar", "v0.4"}, "grammar: v0.3 in the directory, v0.4 now"},
		{"household feedback", household, []string{"--feedback", "explain"}, "feedback: (unset) in the directory, explain now"},
		{"the semmap dataset folder, even one with the same files", semmap, []string{"--data", otherDir}, "data: " + semmapDir + " in the directory, " + otherDir + " now"},
	} {
		t.Run(tc.why, func(t *testing.T) {
			dir := t.TempDir()
			if _, _, err := runCLI(t, append(tc.base, "--out", dir)...); err != nil {
				t.Fatal(err)
			}
			before, _ := os.ReadFile(filepath.Join(dir, "records.jsonl"))
			_, _, err := runCLI(t, append(append(tc.base, "--out", dir), tc.change...)...)
			if err == nil || !strings.Contains(err.Error(), tc.setting) || !strings.Contains(err.Error(), "--fresh") {
				t.Fatalf("got %v, want a refusal naming %q and the way out", err, tc.setting)
			}
			if after, _ := os.ReadFile(filepath.Join(dir, "records.jsonl")); string(after) != string(before) {
				t.Error("the refused run changed records.jsonl")
			}
			// --fresh starts over with the new settings.
			if _, _, err := runCLI(t, append(append(tc.base, "--out", dir, "--fresh"), tc.change...)...); err != nil {
				t.Fatalf("--fresh: %v", err)
			}
		})
	}
}

// A dataset edited between two runs is another dataset, even in the same
// folder.
func TestRunRefusesEditedDataset(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	if _, _, err := runCLI(t, "semmap", "export", data); err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "--track", "semmap", "--agents", "rules", "--tasks", "descriptive", "--episodes", "1", "--data", data, "--out", t.TempDir()}
	if _, _, err := runCLI(t, args...); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(data, "queries.yaml")
	q, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(q, "\n# edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, args...); err == nil || !strings.Contains(err.Error(), "data_hash: ") {
		t.Errorf("got %v, want a refusal naming data_hash", err)
	}
}

// Growing the grid runs only what is new, and run.json covers the union.
func TestRunGrowsTheGrid(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	base := []string{"run", "--tasks", "pick_place", "--perturbations", "none", "--out", dir}
	if _, _, err := runCLI(t, append(base, "--agents", "rules", "--episodes", "2")...); err != nil {
		t.Fatal(err)
	}
	first := readRecords(t, dir)
	_, errOut, err := runCLI(t, append(base, "--agents", "rules,random", "--episodes", "3")...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut, "resuming: 2 records") {
		t.Errorf("stderr %q does not say it resumed from 2 records", errOut)
	}
	all := readRecords(t, dir)
	if len(all) != 6 {
		t.Fatalf("%d records after growing to 2 agents x 3 episodes, want 6", len(all))
	}
	if canonical(t, all[:2]) != canonical(t, first) {
		t.Error("growing the grid rewrote the records already there")
	}
	rf, ok, err := results.ReadRunFile(dir)
	if err != nil || !ok {
		t.Fatalf("run.json: %v (found %v)", err, ok)
	}
	if got := strings.Join(rf.Grid.Agents, ","); got != "random,rules" || rf.Grid.Episodes != 3 {
		t.Errorf("run.json grid %+v, want agents random,rules and 3 episodes", rf.Grid)
	}
}

// Two runs on one directory at once: the second is refused, and its
// refusal says who holds the directory.
func TestRunRefusesABusyDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	release, err := lockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = runCLI(t, "run", "--episodes", "1", "--out", dir)
	if err == nil || !strings.Contains(err.Error(), "in use by another ambibench run") {
		t.Errorf("got %v, want a refusal: the directory is in use", err)
	}
	if _, statErr := os.Stat(filepath.Join(dir, "records.jsonl")); statErr == nil {
		t.Error("the refused run wrote records.jsonl")
	}
	release()
	if _, _, err := runCLI(t, "run", "--episodes", "1", "--out", dir); err != nil {
		t.Errorf("once the lock is released: %v", err)
	}
}

// Records with no run.json (from a version without it, or copied in) are
// not silently mixed with a new run's.
func TestRunRefusesRecordsWithoutRunFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, _, err := runCLI(t, "run", "--episodes", "1", "--out", dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "run.json")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, "run", "--episodes", "1", "--out", dir); err == nil || !strings.Contains(err.Error(), "no run.json") {
		t.Errorf("got %v, want a refusal naming the missing run.json", err)
	}
}

// A run.json left by a run that failed before its first episode (here a
// model spec that does not open) holds nothing to keep apart from: the
// next run's settings replace it.
func TestRunFileWithoutRecordsIsReplaced(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, _, err := runCLI(t, "run", "--agents", "direct", "--model", "openai:", "--out", dir); err == nil {
		t.Fatal("a model spec without a model name was accepted")
	}
	if _, _, err := runCLI(t, "run", "--episodes", "1", "--step-limit", "10", "--out", dir); err != nil {
		t.Fatalf("a new run on a directory without records: %v", err)
	}
	rf, _, err := results.ReadRunFile(dir)
	if err != nil || rf.Settings["step_limit"] != "10" {
		t.Errorf("run.json settings %v (%v), want the new run's step limit 10", rf.Settings, err)
	}
}
