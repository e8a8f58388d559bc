package cli

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm/cassette"
	"github.com/ambibench/ambibench/results"
)

// A run with --repeats 2 recorded into a cassette, the replay of that
// cassette (and of a merged and compacted copy of it) and the same run
// against the simulated model write the same records, timings apart, and
// none fails as infrastructure: each repeat is recorded and served under
// a key of its own, though it sends the very request of repeat 0.
func TestCassetteRepeats(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tapes, merged := filepath.Join(dir, "tapes"), filepath.Join(dir, "merged")
	grid := []string{"--track", "tabletop", "--agents", "direct,sgcot", "--episodes", "2", "--repeats", "2", "--concurrency", "4", "--quiet"}
	if testing.Short() {
		// Under the race detector (make test-long's -short pass) the
		// four runs of the whole grid took over a minute: one agent and
		// one episode a cell still record, merge and replay two repeats
		// on four workers.
		grid[3], grid[5] = "direct", "1"
	}
	run := func(model, out string) []results.Record {
		t.Helper()
		args := append([]string{"run", "--model", model, "--out", filepath.Join(dir, out)}, grid...)
		if _, errOut, err := runCLI(t, args...); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, errOut)
		}
		recs := readRepeatRecords(t, filepath.Join(dir, out))
		slices.SortFunc(recs, func(a, b results.Record) int { return strings.Compare(a.Key(), b.Key()) })
		for _, r := range recs {
			if r.Outcome == results.OutcomeInfraError {
				t.Errorf("%s: %s: infrastructure error: %s", out, r.Key(), r.Error)
			}
		}
		return recs
	}
	plain := run("sim", "plain")
	if !slices.ContainsFunc(plain, func(r results.Record) bool { return r.Repeat == 1 }) {
		t.Fatal("the run wrote no record of repeat 1")
	}
	rec := run("record:"+tapes+"=sim", "rec")
	if out, _, err := runCLI(t, "cassette", "verify", tapes); err != nil {
		t.Fatalf("cassette verify: %v\n%s", err, out)
	}
	if out, errOut, err := runCLI(t, "cassette", "merge", merged, tapes); err != nil {
		t.Fatalf("cassette merge: %v\n%s%s", err, out, errOut)
	}
	rep := run("replay:"+tapes, "rep")
	repMerged := run("replay:"+merged, "rep-merged")
	for name, recs := range map[string][]results.Record{"recorded": rec, "replayed": rep, "replayed from the merged store": repMerged} {
		if !reflect.DeepEqual(recs, plain) {
			t.Errorf("the %s run's records differ from the plain run's", name)
			for i := range min(len(recs), len(plain)) {
				if !reflect.DeepEqual(recs[i], plain[i]) {
					t.Logf("first difference, %s:\n%+v\n%+v", recs[i].Key(), recs[i], plain[i])
					break
				}
			}
		}
	}
	// Repeat 1's recordings say so; repeat 0's are as they always were.
	names, _ := filepath.Glob(filepath.Join(tapes, "*.zst"))
	var withRepeat, without int
	for _, name := range names {
		data, err := cassette.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var head struct {
			Repeat *int `json:"repeat"`
		}
		if err := json.Unmarshal(data, &head); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		switch {
		case head.Repeat == nil:
			without++
		case *head.Repeat == 1:
			withRepeat++
		}
	}
	if withRepeat == 0 || without == 0 || withRepeat+without != len(names) {
		t.Errorf("of %d recordings, %d of repeat 1 and %d of repeat 0; want some of each and no other", len(names), withRepeat, without)
	}
}
