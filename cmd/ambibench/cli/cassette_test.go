package cli

import (
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
