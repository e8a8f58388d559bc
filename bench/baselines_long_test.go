//go:build long

package bench_test

import (
	"bytes"
	"compress/gzip"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/ambibench/ambibench/cmd/ambibench/cli"
	"github.com/ambibench/ambibench/results"
)

var updateBaselines = flag.Bool("update-baselines", false, "rewrite results/baselines from the default suite (make baselines)")

// baselineDir is where the stored reference runs live.
const baselineDir = "../results/baselines"

// baselineRuns are the default suite on the simulated model: the runs of
// make bench, each a directory of results/baselines.
var baselineRuns = []struct {
	name string
	args []string
}{
	{"tabletop", []string{"--track", "tabletop", "--agents", "all", "--model", "sim", "--episodes", "100"}},
	{"scene-size", []string{"--track", "tabletop", "--model", "sim", "--agents", "sgcot,sgcot-full-graph,direct", "--tasks", "pick_place",
		"--perturbations", "none", "--scene-sizes", "6,12,24,48", "--episodes", "50"}},
	{"household", []string{"--track", "household", "--agents", "oracle,rules,random,react,reflexion,react-text,reflexion-text,dyref,dyref-ambiguity,reflect-all,no-reflect", "--model", "sim"}},
	{"semmap", []string{"--track", "semmap", "--agents", "all", "--modes", "certainty,uncertainty", "--model", "sim"}},
}

// TestBaselines plays the default suite on the simulated model and holds
// every record, timings aside, to the stored reference run in
// results/baselines/<run>/records.jsonl.gz, and the run's settings to its
// run.json: a change that moves any score fails here, with the records
// that moved named, until the baselines are regenerated (make baselines)
// and the diff explained.
func TestBaselines(t *testing.T) {
	t.Parallel()
	for _, run := range baselineRuns {
		t.Run(run.name, func(t *testing.T) {
			dir := t.TempDir()
			var out, errOut bytes.Buffer
			args := append([]string{"run", "--quiet", "--out", dir}, run.args...)
			if err := cli.Run(&out, &errOut, args); err != nil {
				t.Fatalf("ambibench %v: %v\n%s", args, err, errOut.String())
			}
			got := readStripped(t, filepath.Join(dir, "records.jsonl"), false)
			gotRun, err := os.ReadFile(filepath.Join(dir, "run.json"))
			if err != nil {
				t.Fatal(err)
			}
			stored := filepath.Join(baselineDir, run.name)
			if *updateBaselines {
				writeBaseline(t, stored, got, gotRun)
				return
			}
			want := readStripped(t, filepath.Join(stored, "records.jsonl.gz"), true)
			wantRun, err := os.ReadFile(filepath.Join(stored, "run.json"))
			if err != nil {
				t.Fatalf("%v (make baselines writes it)", err)
			}
			if !bytes.Equal(gotRun, wantRun) {
				t.Errorf("%s/run.json differs from this run's:\n--- stored\n%s\n--- now\n%s", stored, wantRun, gotRun)
			}
			compareBaseline(t, stored, want, got)
		})
	}
}

// readStripped reads a records file, with its timings zeroed: the one
// part of a record that differs from run to run.
func readStripped(t *testing.T, path string, gzipped bool) []results.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (make baselines writes it)", err)
	}
	defer f.Close()
	var r io.Reader = f
	if gzipped {
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		r = zr
	}
	recs, err := results.ReadRecords(r, path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range recs {
		recs[i].WallMS, recs[i].LatencyP50MS, recs[i].LatencyP95MS = 0, 0, 0
	}
	return recs
}

func writeBaseline(t *testing.T, dir string, recs []results.Record, runFile []byte) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	w := results.NewWriter(zw)
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "records.jsonl.gz"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "run.json"), runFile, 0o644); err != nil {
		t.Fatal(err)
	}
}

// compareBaseline pairs the stored records with this run's by key and
// names the records that moved, field by field, those that are new and
// those that are gone, then sums up (diffBaseline).
func compareBaseline(t *testing.T, stored string, want, got []results.Record) {
	t.Helper()
	for _, line := range diffBaseline(want, got).report(stored, 8) {
		t.Error(line)
	}
}
