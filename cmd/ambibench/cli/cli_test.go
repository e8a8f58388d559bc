package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/results"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func runCLI(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var o, e bytes.Buffer
	err = Run(&o, &e, args)
	return o.String(), e.String(), err
}

func TestGoldenOutputs(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"list.golden", []string{"list"}},
		{"help.golden", []string{"help"}},
		{"run_small.golden", []string{"run", "--agents", "oracle,rules,random", "--episodes", "4", "--seed", "11", "--concurrency", "2"}},
		{"run_by_task.golden", []string{"run", "--agents", "rules", "--tasks", "pick_place,spatial", "--perturbations", "none,absence", "--episodes", "3", "--by-task"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, err := runCLI(t, tc.args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, errOut)
			}
			golden(t, tc.name, []byte(out))
		})
	}
}

func TestBadInvocations(t *testing.T) {
	for _, tc := range []struct {
		why  string
		args []string
		want string // in the error or on stderr
	}{
		{"no command prints usage", nil, "Usage:"},
		{"unknown command names it", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"unknown flag names it", []string{"run", "--bogus"}, "bogus"},
		{"bad number names the flag", []string{"run", "--episodes", "many"}, "-episodes"},
		{"zero episodes", []string{"run", "--episodes", "0"}, "--episodes 0"},
		{"unknown track lists the known", []string{"run", "--track", "kitchen"}, `--track "kitchen": unknown track (have tabletop, household, semmap)`},
		{"unknown agent lists the known", []string{"run", "--agents", "nobody"}, `unknown agent "nobody"`},
		{"unknown family", []string{"run", "--tasks", "juggling"}, `unknown task family "juggling"`},
		{"unknown perturbation", []string{"run", "--perturbations", "fog"}, `unknown perturbation "fog"`},
		{"stray argument", []string{"run", "extra"}, "unexpected arguments"},
		{"bad scene size names the flag", []string{"run", "--scene-sizes", "6,huge"}, `--scene-sizes "6,huge"`},
		{"too large a scene names the limit", []string{"run", "--scene-sizes", "100"}, "to 48 objects"},
		{"list takes nothing", []string{"list", "x"}, "list takes no arguments"},
	} {
		t.Run(tc.why, func(t *testing.T) {
			_, errOut, err := runCLI(t, tc.args...)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error()+errOut, tc.want) {
				t.Errorf("error %q, stderr %q: want %q", err, errOut, tc.want)
			}
		})
	}
}

func TestRunHelpIsNotAnError(t *testing.T) {
	_, errOut, err := runCLI(t, "run", "--help")
	if err != nil || !strings.Contains(errOut, "-concurrency") {
		t.Errorf("err %v, stderr %q", err, errOut)
	}
}

func readRecords(t *testing.T, dir string) []results.Record {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := results.ReadRecords(f, "records.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// canonical renders records without their wall times, the one field that
// may differ between two runs of the same command.
func canonical(t *testing.T, recs []results.Record) string {
	t.Helper()
	var b strings.Builder
	for _, r := range recs {
		r.WallMS, r.LatencyP50MS, r.LatencyP95MS = 0, 0, 0 // timings
		j, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.String()
}

// The same run at concurrency 1 and 4 writes the same records, in the same
// order, apart from wall times; and the same summary.
func TestRunIdenticalAtAnyConcurrency(t *testing.T) {
	var recs []string
	var sums [][]byte
	for _, conc := range []string{"1", "4"} {
		dir := t.TempDir()
		if _, errOut, err := runCLI(t, "run", "--track", "tabletop", "--agents", "oracle,rules,random", "--episodes", "5", "--concurrency", conc, "--out", dir); err != nil {
			t.Fatalf("%v\n%s", err, errOut)
		}
		recs = append(recs, canonical(t, readRecords(t, dir)))
		sum, err := os.ReadFile(filepath.Join(dir, "summary.md"))
		if err != nil {
			t.Fatal(err)
		}
		sums = append(sums, sum)
	}
	if recs[0] == "" || recs[0] != recs[1] {
		t.Error("records differ between --concurrency 1 and 4")
	}
	if !bytes.Equal(sums[0], sums[1]) {
		t.Error("summaries differ between --concurrency 1 and 4")
	}
	if !bytes.Contains(sums[0], []byte("[")) {
		t.Error("summary.md has no intervals")
	}
}

// A run killed mid-write leaves a partial last line; the next run drops it,
// keeps every whole record, runs only what is missing, and ends with the
// same records as an uninterrupted run.
func TestRunResumesAfterKill(t *testing.T) {
	args := []string{"run", "--agents", "rules,random", "--tasks", "pick_place,handover", "--episodes", "4"}
	full := t.TempDir()
	if _, _, err := runCLI(t, append(args, "--out", full)...); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(full, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	keep := len(lines) / 3
	cut := append(bytes.Join(lines[:keep], nil), lines[keep][:len(lines[keep])/2]...)
	killed := t.TempDir()
	if err := os.WriteFile(filepath.Join(killed, "records.jsonl"), cut, 0o644); err != nil {
		t.Fatal(err)
	}
	runFile, err := os.ReadFile(filepath.Join(full, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(killed, "run.json"), runFile, 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, err := runCLI(t, append(args, "--out", killed)...)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if !strings.Contains(errOut, "resuming") {
		t.Errorf("stderr %q does not say it resumed", errOut)
	}
	got, want := readRecords(t, killed), readRecords(t, full)
	if canonical(t, got) != canonical(t, want) {
		t.Errorf("resumed run has %d records, uninterrupted %d, or they differ", len(got), len(want))
	}
	// Running again adds nothing.
	if _, _, err := runCLI(t, append(args, "--out", killed)...); err != nil {
		t.Fatal(err)
	}
	if again := readRecords(t, killed); len(again) != len(want) {
		t.Errorf("a finished run grew from %d to %d records", len(want), len(again))
	}
}

// A broken records file is not overwritten: the error names the file and
// line, and the file is left as it was.
func TestRunRefusesBrokenRecords(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := runCLI(t, "run", "--episodes", "1", "--out", dir); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "records.jsonl")
	broken := []byte("{\"schema\":2}\nnot json\n")
	if err := os.WriteFile(path, broken, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := runCLI(t, "run", "--episodes", "1", "--out", dir)
	if err == nil || !strings.Contains(err.Error(), "records.jsonl:1") {
		t.Errorf("got %v, want an error naming records.jsonl:1", err)
	}
	if data, _ := os.ReadFile(path); !bytes.Equal(data, broken) {
		t.Error("the broken file was changed")
	}
}
