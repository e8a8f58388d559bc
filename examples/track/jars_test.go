package jars

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/cmd/ambibench/cli"
	"github.com/ambibench/ambibench/results"
)

func runCLI(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := cli.Run(&out, &errOut, args)
	return out.String(), errOut.String(), err
}

// The track, registered by this package alone, is in the list, runs with
// its own flag, keeps that flag's setting in run.json, resumes, refuses
// its flag on another track, and its records get its own report section.
func TestToyTrackThroughTheCommand(t *testing.T) {
	t.Parallel()
	out, _, err := runCLI(t, "list")
	if err != nil || !strings.Contains(out, "jars ") {
		t.Fatalf("list: %v\n%s", err, out)
	}
	dir := t.TempDir()
	out, errOut, err := runCLI(t, "run", "--track", "jars", "--agents", "counter", "--marbles", "9", "--episodes", "20", "--out", dir)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, errOut)
	}
	if !strings.Contains(out, "| counter |") || !strings.Contains(out, "grouped") || !strings.Contains(out, "SR 1.00") {
		t.Errorf("run table:\n%s", out)
	}
	f, err := os.Open(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := results.ReadRecords(f, "records.jsonl")
	f.Close()
	if err != nil || len(recs) != 40 {
		t.Fatalf("%d records, %v; want 20 per view", len(recs), err)
	}
	for _, r := range recs {
		if r.Track != Name || !r.Success || r.Objects < 1 || r.Objects > 9 {
			t.Errorf("record %s: success %v, %d marbles", r.Key(), r.Success, r.Objects)
		}
	}
	rf, _, err := results.ReadRunFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rf.Settings["marbles"] != "9" || rf.Settings["track"] != Name {
		b, _ := json.Marshal(rf.Settings)
		t.Errorf("run.json settings %s: want marbles 9 on track jars", b)
	}
	if _, _, err := runCLI(t, "run", "--track", "jars", "--agents", "counter", "--marbles", "3", "--episodes", "20", "--out", dir); err == nil || !strings.Contains(err.Error(), "marbles") {
		t.Errorf("a rerun with another --marbles: %v, want the setting named", err)
	}
	if _, _, err := runCLI(t, "run", "--marbles", "3", "--agents", "rules", "--episodes", "1"); err == nil || !strings.Contains(err.Error(), "--marbles belongs to --track jars") {
		t.Errorf("--marbles on the tabletop: %v", err)
	}
	out, errOut, err = runCLI(t, "report", "--out", "-", dir)
	if err != nil {
		t.Fatalf("report: %v\n%s", err, errOut)
	}
	for _, want := range []string{"## Success by jar size", "| 9 | 1.00 |", "Success rate (SR) by ambiguity type"} {
		if !strings.Contains(out, want) {
			t.Errorf("report has no %q:\n%s", want, out)
		}
	}
	// compare pairs the track's episodes like any other's: the same run
	// again passes the gate, --exact too.
	again := t.TempDir()
	if _, errOut, err := runCLI(t, "run", "--track", "jars", "--agents", "counter", "--marbles", "9", "--episodes", "20", "--out", again); err != nil {
		t.Fatalf("run: %v\n%s", err, errOut)
	}
	if out, errOut, err := runCLI(t, "compare", "--exact", dir, again); err != nil || !strings.Contains(out, "counter") {
		t.Errorf("compare --exact of two equal runs: %v\n%s%s", err, out, errOut)
	}
	// Sharded in three and merged, it is the same run.
	var shards []string
	for i := 1; i <= 3; i++ {
		shard := filepath.Join(t.TempDir(), "shard")
		if _, errOut, err := runCLI(t, "run", "--track", "jars", "--agents", "counter", "--marbles", "9", "--episodes", "20", "--shard", fmt.Sprintf("%d/3", i), "--out", shard); err != nil {
			t.Fatalf("shard %d: %v\n%s", i, err, errOut)
		}
		shards = append(shards, shard)
	}
	merged := filepath.Join(t.TempDir(), "merged")
	if _, errOut, err := runCLI(t, append([]string{"merge", "--out", merged}, shards...)...); err != nil {
		t.Fatalf("merge: %v\n%s", err, errOut)
	}
	if out, errOut, err := runCLI(t, "compare", "--exact", dir, merged); err != nil {
		t.Errorf("compare --exact of the merged shards with the whole run: %v\n%s%s", err, out, errOut)
	}
}

// The same seed gives the same records at any concurrency.
func TestToyTrackIsDeterministic(t *testing.T) {
	t.Parallel()
	var runs [][]results.Record
	for _, conc := range []int{1, 3} {
		recs, err := bench.Run(t.Context(), bench.Options{Track: &Track{Marbles: 5}, Seed: 4, Agents: []string{"counter"}, Episodes: 30, Concurrency: conc}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, recs)
	}
	for i := range runs[0] {
		a, b := runs[0][i], runs[1][i]
		a.WallMS, b.WallMS = 0, 0
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if !bytes.Equal(ja, jb) {
			t.Fatalf("record %d differs:\n%s\n%s", i, ja, jb)
		}
	}
}

// The track's Go benchmark runs through bench.Benchmark as the built-in
// tracks' do.
func BenchmarkJars(b *testing.B) {
	bench.Benchmark(b, bench.Options{Track: &Track{Marbles: 6}, Seed: 1, Agents: []string{"counter"}})
}

func TestToyTrackBenchmark(t *testing.T) {
	t.Parallel()
	r := testing.Benchmark(BenchmarkJars)
	if r.N == 0 {
		t.Fatal("the benchmark did not run")
	}
}
