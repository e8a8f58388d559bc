package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/results"
)

// readRepeatRecords reads a run directory's records, their timings cleared.
func readRepeatRecords(t *testing.T, dir string) []results.Record {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := results.ReadRecords(bytes.NewReader(data), dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range recs {
		recs[i].WallMS, recs[i].LatencyP50MS, recs[i].LatencyP95MS = 0, 0, 0
	}
	return recs
}

func repeatRun(t *testing.T, dir string, extra ...string) {
	t.Helper()
	args := append([]string{"run", "--quiet", "--agents", "direct,sgcot,random", "--tasks", "pick_place",
		"--perturbations", "none,absence", "--episodes", "6", "--seed", "5", "--model", "sim", "--out", dir}, extra...)
	if _, stderr, err := runCLI(t, args...); err != nil {
		t.Fatalf("%v: %v: %s", args, err, stderr)
	}
}

// TestRunRepeats: --repeats 3 writes three records per episode under
// distinct keys; repeat 0 is the run without --repeats, record for record;
// the other repeats draw otherwise somewhere; the records do not depend on
// the concurrency; two such runs compare repeat with repeat; and the
// report shows the Repeats section, which a run without repeats lacks.
func TestRunRepeats(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	once, rep, rep1, rep2 := filepath.Join(root, "once"), filepath.Join(root, "rep"), filepath.Join(root, "rep1"), filepath.Join(root, "rep2")
	repeatRun(t, once, "--concurrency", "2")
	repeatRun(t, rep, "--repeats", "3", "--concurrency", "2")
	repeatRun(t, rep1, "--repeats", "3", "--concurrency", "1")
	repeatRun(t, rep2, "--repeats", "3", "--concurrency", "4")

	base, recs := readRepeatRecords(t, once), readRepeatRecords(t, rep)
	if len(recs) != 3*len(base) {
		t.Fatalf("--repeats 3 wrote %d records, want 3×%d", len(recs), len(base))
	}
	keys := map[string]bool{}
	var zero []results.Record
	byRepeat := map[int][]results.Record{}
	for _, r := range recs {
		if keys[r.Key()] {
			t.Fatalf("key %s twice", r.Key())
		}
		keys[r.Key()] = true
		byRepeat[r.Repeat] = append(byRepeat[r.Repeat], r)
		if r.Repeat == 0 {
			zero = append(zero, r)
		}
	}
	if len(byRepeat) != 3 {
		t.Fatalf("repeats %v, want 0, 1 and 2", len(byRepeat))
	}
	if !reflect.DeepEqual(zero, base) {
		t.Errorf("repeat 0 differs from the run without --repeats")
	}
	for k := 1; k < 3; k++ {
		differ := false
		for i, r := range byRepeat[k] {
			z := byRepeat[0][i]
			if r.EpisodeKey() == z.EpisodeKey() {
				t.Fatalf("repeat %d shares episode key %s with repeat 0", k, r.EpisodeKey())
			}
			if r.Instruction != z.Instruction || r.Episode != z.Episode || r.Agent != z.Agent {
				t.Fatalf("repeat %d record %d plays another episode than repeat 0: %+v vs %+v", k, i, r, z)
			}
			z.Repeat = k
			differ = differ || !reflect.DeepEqual(r, z)
		}
		if !differ {
			t.Errorf("repeat %d drew exactly as repeat 0", k)
		}
	}
	for _, d := range []string{rep1, rep2} {
		if !reflect.DeepEqual(readRepeatRecords(t, d), recs) {
			t.Errorf("%s: the records depend on the concurrency", d)
		}
	}
	rf, _, err := results.ReadRunFile(rep)
	if err != nil || rf.Grid.Repeats != 3 {
		t.Errorf("run.json grid repeats = %d (%v), want 3", rf.Grid.Repeats, err)
	}

	if out, stderr, err := runCLI(t, "compare", rep, rep1); err != nil {
		t.Fatalf("compare of two identical --repeats runs: %v: %s%s", err, out, stderr)
	}

	out, _, err := runCLI(t, "report", "--out", "-", rep)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "## Repeats") || !strings.Contains(out, "| sgcot") && !strings.Contains(out, "sgcot") {
		t.Fatalf("report lacks the Repeats section:\n%s", out)
	}
	sec := out[strings.Index(out, "## Repeats"):]
	if !strings.Contains(sec, "| mean |") && !strings.Contains(sec, "mean") || !strings.Contains(sec, "SD") || !strings.Contains(sec, "| SR | 3 |") {
		t.Errorf("Repeats section lacks mean, spread or repeat count:\n%s", sec)
	}
	if out, _, err := runCLI(t, "report", "--out", "-", once); err != nil || strings.Contains(out, "## Repeats") {
		t.Errorf("a run without repeats reports a Repeats section (%v)", err)
	}
}

func TestRunRepeatsFlag(t *testing.T) {
	t.Parallel()
	_, _, err := runCLI(t, "run", "--repeats", "0", "--episodes", "1", "--agents", "random", "--out", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "--repeats 0: must be at least 1") {
		t.Fatalf("--repeats 0: %v", err)
	}
}

// Shards of a --repeats run merge into the whole run, record for record.
func TestRunRepeatsShards(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	whole := filepath.Join(root, "whole")
	repeatRun(t, whole, "--repeats", "2")
	var dirs []string
	for _, s := range []string{"1/3", "2/3", "3/3"} {
		d := filepath.Join(root, "shard"+s[:1])
		repeatRun(t, d, "--repeats", "2", "--shard", s)
		dirs = append(dirs, d)
	}
	merged := filepath.Join(root, "merged")
	if _, stderr, err := runCLI(t, append([]string{"merge", "--out", merged}, dirs...)...); err != nil {
		t.Fatalf("merge: %v: %s", err, stderr)
	}
	if !reflect.DeepEqual(readRepeatRecords(t, merged), readRepeatRecords(t, whole)) {
		t.Error("the merged shards differ from the whole --repeats run")
	}
}
