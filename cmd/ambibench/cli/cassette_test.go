package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The cassette subcommand on stores a run recorded: verify reads them,
// merge joins two shards' stores and compacts the result, which replays
// the run's records; a damaged file fails verify, named.
func TestCassetteCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	grid := []string{"--agents", "direct,sgcot", "--tasks", "pick_place", "--perturbations", "none,absence", "--episodes", "4", "--quiet"}
	var stores []string
	for _, shard := range []string{"1/2", "2/2"} {
		tapes := filepath.Join(dir, "tapes"+shard[:1])
		stores = append(stores, tapes)
		args := append([]string{"run", "--model", "record:" + tapes + "=sim", "--shard", shard, "--out", filepath.Join(dir, "run"+shard[:1])}, grid...)
		if _, errOut, err := runCLI(t, args...); err != nil {
			t.Fatalf("recording shard %s: %v\n%s", shard, err, errOut)
		}
		if out, _, err := runCLI(t, "cassette", "verify", tapes); err != nil || !strings.Contains(out, tapes+": ") {
			t.Fatalf("cassette verify %s: %v\n%s", tapes, err, out)
		}
	}
	merged := filepath.Join(dir, "merged")
	out, errOut, err := runCLI(t, append([]string{"cassette", "merge", merged}, stores...)...)
	if err != nil || !strings.Contains(out, "merged into "+merged) {
		t.Fatalf("cassette merge: %v\n%s%s", err, out, errOut)
	}
	args := append([]string{"run", "--model", "replay:" + merged, "--out", filepath.Join(dir, "replay")}, grid...)
	if _, errOut, err := runCLI(t, args...); err != nil {
		t.Fatalf("replaying the merged store: %v\n%s", err, errOut)
	}
	names, _ := filepath.Glob(filepath.Join(merged, "*.zst"))
	if len(names) == 0 {
		t.Fatal("the merged store holds no .zst recording")
	}
	os.WriteFile(names[0], []byte("not zstd"), 0o644)
	_, _, err = runCLI(t, "cassette", "verify", merged)
	if err == nil || !strings.Contains(err.Error(), names[0]+": not a zstd frame") {
		t.Errorf("verify of a damaged store: %v, want the file named", err)
	}
	if _, _, err := runCLI(t, "cassette", "merge", merged); err == nil {
		t.Error("merge with no input: no error")
	}
}

// The cassette subcommand refuses what is not a readable store with an
// error naming it, exit 2, and merge leaves no OUT when it copies
// nothing.
func TestCassetteRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tapes, rundir := filepath.Join(dir, "tapes"), filepath.Join(dir, "run")
	grid := []string{"--agents", "direct", "--tasks", "pick_place", "--perturbations", "none,absence", "--episodes", "2", "--quiet"}
	if _, errOut, err := runCLI(t, append([]string{"run", "--model", "record:" + tapes + "=sim", "--out", rundir}, grid...)...); err != nil {
		t.Fatalf("recording: %v\n%s", err, errOut)
	}
	seeds, _ := filepath.Glob(filepath.Join(tapes, "dict", "*.zdict"))
	if len(seeds) != 1 {
		t.Fatalf("the store holds dictionaries %v, want the one seed it was recorded with", seeds)
	}
	// copyStore copies tapes and damages the copy's dictionary.
	copyStore := func(t *testing.T, damage func(dict string)) (string, string) {
		c := filepath.Join(t.TempDir(), "tapes")
		if err := os.CopyFS(c, os.DirFS(tapes)); err != nil {
			t.Fatal(err)
		}
		dict := filepath.Join(c, "dict", filepath.Base(seeds[0]))
		damage(dict)
		return c, dict
	}
	lost := func(t *testing.T) (string, string) {
		return copyStore(t, func(dict string) { os.Remove(dict) })
	}
	notDict := func(t *testing.T) (string, string) {
		return copyStore(t, func(dict string) { os.WriteFile(dict, []byte("not a dictionary"), 0o644) })
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	fixed := func(name string) func(*testing.T) (string, string) {
		return func(*testing.T) (string, string) { return name, name }
	}
	for _, tc := range []struct {
		why   string
		sub   string                                 // verify, compact or merge (into a new OUT)
		store func(t *testing.T) (dir, named string) // the store given, and the file the error must name once
		want  string
	}{
		// A missing dictionary is os.ErrNotExist, which was taken for a
		// recording deleted since listed: each was skipped, exit 0.
		{"verify: a store's seed dictionary lost", "verify", lost, "is missing: "},
		{"compact: a store's seed dictionary lost", "compact", lost, "is missing: "},
		{"merge: a store's seed dictionary lost", "merge", lost, "is missing: "},
		// Once with the count of recordings, not a line a recording.
		{"verify: a store's seed dictionary damaged", "verify", notDict, "not a zstd dictionary"},
		{"merge: a store's seed dictionary damaged", "merge", notDict, "not a zstd dictionary"},
		// Merge made OUT before it opened its inputs.
		{"merge: an input not there", "merge", fixed(filepath.Join(dir, "none")), "no such cassette store"},
		// "open FILE/dict/current: not a directory".
		{"verify: a file", "verify", fixed(file), "is not a directory"},
		{"merge: a file", "merge", fixed(file), "is not a directory"},
		// run.json was read as a recording: `no "model"`.
		{"verify: a run's directory", "verify", fixed(rundir), "is not a cassette store"},
		{"merge: a run's directory", "merge", fixed(rundir), "is not a cassette store"},
	} {
		t.Run(tc.why, func(t *testing.T) {
			store, named := tc.store(t)
			args := []string{"cassette", tc.sub, store}
			out := filepath.Join(t.TempDir(), "out")
			if tc.sub == "merge" {
				args = []string{"cassette", "merge", out, store}
			}
			_, _, err := runCLI(t, args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%v: %v, want an error saying %q", args, err, tc.want)
			}
			if n := strings.Count(err.Error(), named); n != 1 {
				t.Errorf("%v named %s %d times, want once:\n%v", args, named, n, err)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%v failed but made %s", args, out)
			}
		})
	}
	// A run recorded into its own store: its run.json, records.jsonl and
	// summary.md are no recordings, and were read as damaged ones.
	same := filepath.Join(dir, "same")
	if _, errOut, err := runCLI(t, append([]string{"run", "--model", "record:" + same + "=sim", "--out", same}, grid...)...); err != nil {
		t.Fatalf("recording into the run's directory: %v\n%s", err, errOut)
	}
	if out, _, err := runCLI(t, "cassette", "verify", same); err != nil {
		t.Errorf("cassette verify of a store in its run's directory: %v\n%s", err, out)
	}
}

// A temporary file a recorder killed mid-write left in the store is
// said by verify (exit 0: no recording is lost), not passed over.
func TestCassetteVerifySaysUnfinishedRecordings(t *testing.T) {
	t.Parallel()
	tapes := filepath.Join(t.TempDir(), "tapes")
	if _, stderr, err := runCLI(t, "run", "--quiet", "--track", "tabletop", "--agents", "direct", "--tasks", "pick_place",
		"--perturbations", "none", "--episodes", "1", "--perception", "detector", "--model", "record:"+tapes+"=sim", "--out", t.TempDir()); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	zst, _ := filepath.Glob(filepath.Join(tapes, "*.zst"))
	if len(zst) == 0 {
		t.Fatal("no recording")
	}
	cut := filepath.Join(tapes, "."+filepath.Base(zst[0])+".123456.tmp")
	if err := os.WriteFile(cut, []byte("(\xb5/\xfd"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := runCLI(t, "cassette", "verify", tapes)
	if err != nil {
		t.Fatalf("verify: %v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "1 temporary file of recordings never finished ("+cut) || !strings.Contains(out, fmt.Sprintf("%d recordings", len(zst))) {
		t.Errorf("verify said\n%s%s\nwant the %d recordings and the unfinished one named", out, stderr, len(zst))
	}
}
