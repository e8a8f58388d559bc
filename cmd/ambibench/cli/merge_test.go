package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
)

// TestMergeHelperProcess is the ambibench command when the test binary is
// run by runProcess: its arguments follow "--".
func TestMergeHelperProcess(t *testing.T) {
	// Not parallel: it is the child process of the merge tests, and writes to the process's stdout.
	if os.Getenv("AMBIBENCH_CLI_HELPER") != "1" {
		t.Skip("the ambibench command, for the tests that run it as a process")
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	os.Exit(Main(os.Stdout, os.Stderr, args))
}

// runProcess runs the ambibench command in a process of its own (the
// test binary, as TestMergeHelperProcess).
func runProcess(t *testing.T, args ...string) (stderr string, err error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestMergeHelperProcess$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), "AMBIBENCH_CLI_HELPER=1")
	var e bytes.Buffer
	cmd.Stderr = &e
	err = cmd.Run()
	return e.String(), err
}

// timings are the fields of a record that may differ between two runs of
// one episode.
var timings = regexp.MustCompile(`,"(latency_p50_ms|latency_p95_ms)":[-+.eE0-9]+|"wall_ms":[-+.eE0-9]+`)

// recordsBytes is dir/records.jsonl with the timings taken out.
func recordsBytes(t *testing.T, dir string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, recordsFileName))
	if err != nil {
		t.Fatal(err)
	}
	return timings.ReplaceAll(data, []byte(`"wall_ms":0`))
}

// runShards runs the shards of args 1 to n, each in a process of its own
// and all at once, into base-1 ... base-n.
func runShards(t *testing.T, args []string, base string, n int) []string {
	t.Helper()
	var dirs []string
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := 1; i <= n; i++ {
		dir := fmt.Sprintf("%s-%d", base, i)
		dirs = append(dirs, dir)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if stderr, err := runProcess(t, append(args, "--shard", fmt.Sprintf("%d/%d", i, n), "--out", dir)...); err != nil {
				errs[i-1] = fmt.Errorf("shard %d/%d: %v\n%s", i, n, err, stderr)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return dirs
}

// Four shards, run as separate processes and merged, are the unsharded
// run: records byte for byte apart from timings, in the same order, and
// the same run.json, on each of the three tracks.
func TestFourShardsMergedEqualUnsharded(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		track string
		args  []string
	}{
		{"tabletop", []string{"run", "--quiet", "--agents", "oracle,rules,direct", "--model", "sim", "--episodes", "6"}},
		{"household", []string{"run", "--quiet", "--track", "household", "--agents", "oracle,rules,reflexion", "--episodes", "2"}},
		{"semmap", []string{"run", "--quiet", "--track", "semmap", "--agents", "all", "--modes", "certainty,uncertainty", "--episodes", "2"}},
	} {
		t.Run(tc.track, func(t *testing.T) {
			tmp := t.TempDir()
			whole := filepath.Join(tmp, "whole")
			if stderr, err := runProcess(t, append(tc.args, "--out", whole)...); err != nil {
				t.Fatalf("unsharded run: %v\n%s", err, stderr)
			}
			dirs := runShards(t, tc.args, filepath.Join(tmp, "shard"), 4)
			merged := filepath.Join(tmp, "merged")
			if stderr, err := runProcess(t, append([]string{"merge", "--out", merged}, dirs...)...); err != nil {
				t.Fatalf("merge: %v\n%s", err, stderr)
			}
			want, got := recordsBytes(t, whole), recordsBytes(t, merged)
			if n := bytes.Count(want, []byte("\n")); n < 40 {
				t.Fatalf("the unsharded run has %d records; the test wants a grid worth sharding", n)
			}
			if !bytes.Equal(got, want) {
				wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
				for i := range min(len(wl), len(gl)) {
					if wl[i] != gl[i] {
						t.Fatalf("merged records.jsonl differs from the unsharded run's at line %d (of %d and %d):\nunsharded: %s\nmerged:    %s", i+1, len(wl), len(gl), wl[i], gl[i])
					}
				}
				t.Fatalf("merged records.jsonl has %d lines, the unsharded run's %d", len(gl), len(wl))
			}
			wantRun, _ := os.ReadFile(filepath.Join(whole, results.RunFileName))
			gotRun, _ := os.ReadFile(filepath.Join(merged, results.RunFileName))
			if !bytes.Equal(gotRun, wantRun) {
				t.Errorf("merged run.json differs from the unsharded run's:\n%s\nwant:\n%s", gotRun, wantRun)
			}
			// Every shard did part of the work, about a quarter.
			total := bytes.Count(want, []byte("\n"))
			for _, d := range dirs {
				if n := bytes.Count(recordsBytes(t, d), []byte("\n")); n < total/4 || n > total/4+1 {
					t.Errorf("%s holds %d of %d records, want %d or %d", d, n, total, total/4, total/4+1)
				}
			}
		})
	}
}

// shardRun is a small tabletop grid to shard in the tests of refusals.
var shardRun = []string{"run", "--quiet", "--agents", "oracle,rules", "--tasks", "pick_place", "--episodes", "3"}

// shardDirs runs shardRun's n shards in this process into tmp/shard-i.
func shardDirs(t *testing.T, n int, extra ...string) []string {
	t.Helper()
	tmp := t.TempDir()
	var dirs []string
	for i := 1; i <= n; i++ {
		dir := filepath.Join(tmp, fmt.Sprintf("shard-%d", i))
		if _, stderr, err := runCLI(t, append(append(shardRun, extra...), "--shard", fmt.Sprintf("%d/%d", i, n), "--out", dir)...); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		dirs = append(dirs, dir)
	}
	return dirs
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
}

// merge refuses shards that do not make one run, naming why.
func TestMergeRefuses(t *testing.T) {
	t.Parallel()
	dirs := shardDirs(t, 4)
	tmp := t.TempDir()
	again := filepath.Join(tmp, "again")
	copyDir(t, dirs[0], again)
	// Shards 1 and 3 with their labels swapped in run.json.
	relabel := func(from string, index int) string {
		dir := filepath.Join(tmp, fmt.Sprintf("relabelled-%d", index))
		copyDir(t, from, dir)
		rf, _, err := results.ReadRunFile(dir)
		if err != nil {
			t.Fatal(err)
		}
		rf.Shard.Index = index
		if err := results.WriteRunFile(dir, rf); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	as3, as1 := relabel(dirs[0], 3), relabel(dirs[2], 1)
	seed2 := shardDirs(t, 4, "--seed", "2")
	more := shardDirs(t, 4, "--episodes", "4")
	three := shardDirs(t, 3)
	whole := filepath.Join(tmp, "whole")
	if _, stderr, err := runCLI(t, append(shardRun, "--out", whole)...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	// Shard 3 with its second record's seed changed: the merged run would
	// mix seeds and miss that episode.
	otherSeed := filepath.Join(tmp, "other-seed")
	copyDir(t, dirs[2], otherSeed)
	recs := readRecords(t, otherSeed)
	recs[1].Seed = 2
	if err := results.RewriteRecords(filepath.Join(otherSeed, recordsFileName), recs); err != nil {
		t.Fatal(err)
	}
	// Shard 3 without its records: a shard whose run stopped before its
	// first episode.
	noRecords := filepath.Join(tmp, "no-records")
	copyDir(t, dirs[2], noRecords)
	if err := os.Remove(filepath.Join(noRecords, recordsFileName)); err != nil {
		t.Fatal(err)
	}
	// Shard 3 with a run.json that says shard 0 of 0.
	shard0 := filepath.Join(tmp, "shard-0-of-0")
	copyDir(t, dirs[2], shard0)
	data, err := os.ReadFile(filepath.Join(shard0, results.RunFileName))
	if err != nil {
		t.Fatal(err)
	}
	// Shard 2 with its first record again at its end: an episode twice,
	// and a file out of job order.
	twice := filepath.Join(tmp, "twice")
	copyDir(t, dirs[1], twice)
	recs = readRecords(t, twice)
	if err := results.RewriteRecords(filepath.Join(twice, recordsFileName), append(recs, recs[0])); err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte(`"index": 3,
    "count": 4,`), []byte(`"index": 0,
    "count": 0,`), 1)
	if err := os.WriteFile(filepath.Join(shard0, results.RunFileName), data, 0o644); err != nil {
		t.Fatal(err)
	}
	// Two shards that kept transcripts and the images their calls
	// showed, the second with a file in place of its images directory:
	// the merge fails once the first shard's images are copied.
	shown := shardDirs(t, 2, "--agents", "sgcot", "--model", "sim", "--transcripts", "--perturbations", "none,absence")
	if ims, _ := os.ReadDir(filepath.Join(shown[0], "images")); len(ims) == 0 {
		t.Fatalf("%s keeps no images to copy", shown[0])
	}
	imagesFile := filepath.Join(tmp, "images-file")
	copyDir(t, shown[1], imagesFile)
	os.RemoveAll(filepath.Join(imagesFile, "images"))
	os.WriteFile(filepath.Join(imagesFile, "images"), nil, 0o644)
	for _, tc := range []struct {
		why  string
		dirs []string
		want string
		// emptyOut: OUT is there, empty, before the merge, and must be
		// left so (OUT is otherwise new, and must not be made).
		emptyOut bool
	}{
		// The images were copied into OUT before the failure and stayed,
		// so OUT was not removed.
		{"a shard whose images are a file fails after another's images are copied", []string{shown[0], imagesFile}, filepath.Join(imagesFile, "images") + ": not a directory", false},
		{"a merge into an empty OUT that fails after copying images leaves it empty", []string{shown[0], imagesFile}, filepath.Join(imagesFile, "images") + ": not a directory", true},
		// The lock file was removed only from an OUT merge made.
		{"a merge into an empty OUT refused at a record leaves it empty", []string{dirs[0], dirs[1], otherSeed, dirs[3]}, filepath.Join(otherSeed, recordsFileName) + `:2: field "seed"`, true},
		{"a shard that holds a record of another seed is named by file and line", []string{dirs[0], dirs[1], otherSeed, dirs[3]},
			filepath.Join(otherSeed, recordsFileName) + `:2: field "seed": 2, but the run's run.json says seed 1`, false},
		{"a shard without records.jsonl", []string{dirs[0], dirs[1], noRecords, dirs[3]}, noRecords + ": no records.jsonl: the shard's run stopped before its first episode", false},
		{"a run.json of shard 0 of 0 names the file and the field", []string{dirs[0], dirs[1], shard0, dirs[3]}, filepath.Join(shard0, results.RunFileName) + `: field "shard.count": 0`, false},
		{"one directory named twice is said to be, not to be in use by this merge", []string{dirs[0], dirs[0], dirs[1], dirs[2], dirs[3]}, "shard directory " + dirs[0] + " is named twice", false},
		{"one directory named twice by two paths", []string{dirs[0], dirs[1], dirs[2], dirs[3], dirs[3] + string(filepath.Separator) + "."}, "are one directory, named twice", false},
		{"a shard given twice", []string{dirs[0], dirs[1], dirs[2], dirs[3], again}, "overlapping shards: " + dirs[0] + " and " + again + " are both shard 1/4", false},
		{"an episode in two directories", []string{dirs[0], dirs[1], as3, dirs[3]}, "overlapping shards: episode \"tabletop\"/\"pick_place\"/\"none\"/\"oracle\"/\"\"/1/0 is in " + dirs[0] + " and in " + as3, false},
		{"a directory that holds another shard's episodes, named by file and line", []string{as1, dirs[1], as3, dirs[3]}, filepath.Join(as1, recordsFileName) + ":1: misplaced record: " + as1 + " is shard 1/4 but holds episode", false},
		{"a missing shard", []string{dirs[0], dirs[1], dirs[3]}, "missing shard: shard 3/4 of the run is not among the directories given", false},
		{"two missing shards", []string{dirs[1]}, "missing shards: shard 1/4, 3/4, 4/4", false},
		{"different settings", []string{dirs[0], dirs[1], seed2[2], dirs[3]}, "mismatched shards: " + dirs[0] + " and " + seed2[2] + " were run with different settings:\n  seed: 1 in " + dirs[0] + ", 2 in " + seed2[2], false},
		{"different grids", []string{dirs[0], dirs[1], more[2], dirs[3]}, "mismatched shards: " + dirs[0] + " and " + more[2] + " are shards of different grids\n  episodes: 3 in " + dirs[0] + ", 4 in " + more[2], false},
		{"different shard counts", []string{dirs[0], three[1], dirs[2], dirs[3]}, "mismatched shards: " + dirs[0] + " is shard 1/4, " + three[1] + " is shard 2/3: different shard counts", false},
		{"a directory that is no shard", []string{dirs[0], whole}, whole + ": not a shard", false},
		// The refusal is the one a reading of every shard's records in
		// turn, then of their run.json files, then of each record's place
		// finds first, whichever record the merge stops at.
		{"a bad record is named before a missing shard", []string{dirs[0], otherSeed}, filepath.Join(otherSeed, recordsFileName) + `:2: field "seed"`, false},
		{"a bad record is named before a shard that does not open", []string{dirs[0], otherSeed, noRecords, dirs[3]}, filepath.Join(otherSeed, recordsFileName) + `:2: field "seed"`, false},
		{"a bad record is named before an episode in two directories", []string{dirs[0], as3, dirs[1], otherSeed}, filepath.Join(otherSeed, recordsFileName) + `:2: field "seed"`, false},
		{"an episode twice in one shard's file", []string{dirs[0], twice, dirs[2], dirs[3]},
			fmt.Sprintf("%s:%d: episode %s appears twice, first at line 1", filepath.Join(twice, recordsFileName), len(recs)+1, recs[0].Key()), false},
	} {
		out := filepath.Join(t.TempDir(), "merged")
		if tc.emptyOut {
			if err := os.Mkdir(out, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		_, _, err := runCLI(t, append([]string{"merge", "--out", out}, tc.dirs...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: merge gave %v, want an error with %q", tc.why, err, tc.want)
		}
		if !tc.emptyOut {
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s: merge refused but made %s", tc.why, out)
			}
		} else if left, err := os.ReadDir(out); err != nil || len(left) > 0 {
			t.Errorf("%s: merge refused but left %s holding %v (%v), not empty as it was", tc.why, out, left, err)
		}
	}
	// An OUT that holds a run is not written over.
	if _, _, err := runCLI(t, append([]string{"merge", "--out", whole}, dirs...)...); err == nil || !strings.Contains(err.Error(), "already holds a run") {
		t.Errorf("merge into a run's directory: %v, want a refusal", err)
	}
	for _, args := range [][]string{{"merge"}, {"merge", "--out", filepath.Join(tmp, "x")}} {
		if _, _, err := runCLI(t, args...); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}

// A shard's directory resumes as that shard only.
func TestShardDirResumesAsItsShard(t *testing.T) {
	t.Parallel()
	dirs := shardDirs(t, 4)
	tmp := t.TempDir()
	whole := filepath.Join(tmp, "whole")
	if _, stderr, err := runCLI(t, append(shardRun, "--out", whole)...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	path := filepath.Join(dirs[1], results.RunFileName)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--shard", "3/4", "--out", dirs[1]}, path + " holds shard 2/4 of a run, not 3/4: pass --shard 2/4 to resume it"},
		{[]string{"--shard", "2/5", "--out", dirs[1]}, path + " holds shard 2/4 of a run, not 2/5"},
		{[]string{"--out", dirs[1]}, path + " holds shard 2/4 of a run: pass --shard 2/4 to resume it"},
		{[]string{"--shard", "2/4", "--episodes", "5", "--out", dirs[1]}, path + " holds shard 2/4 of a run with another grid"},
		{[]string{"--shard", "1/4", "--out", whole}, filepath.Join(whole, results.RunFileName) + " holds a whole run, not a shard"},
		{[]string{"--shard", "5/4"}, "--shard 5/4: index must be between 1 and 4"},
		{[]string{"--shard", "2"}, `--shard "2": want i/n`},
	} {
		_, _, err := runCLI(t, append(shardRun, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want an error with %q", tc.args, err, tc.want)
		}
	}
	// The same shard resumes, playing nothing new.
	if _, stderr, err := runCLI(t, append(shardRun, "--shard", "2/4", "--out", dirs[1])...); err != nil || !strings.Contains(stderr, "resuming") {
		t.Errorf("resuming shard 2/4: %v\n%s", err, stderr)
	}
}

// An infra-error record in a shard stays one in the merged directory, and
// the unsharded command on that directory plays just it again.
func TestMergeKeepsInfraErrors(t *testing.T) {
	t.Parallel()
	dirs := shardDirs(t, 2)
	path := filepath.Join(dirs[1], recordsFileName)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := results.ReadRecords(f, path)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	lost := &recs[1]
	lost.Outcome, lost.ErrorKind, lost.Error = results.OutcomeInfraError, "timeout", "timeout: no reply"
	lost.Success, lost.ADA, lost.Steps = false, false, 0
	if err := results.RewriteRecords(path, recs); err != nil {
		t.Fatal(err)
	}
	merged := filepath.Join(t.TempDir(), "merged")
	stdout, stderr, err := runCLI(t, append([]string{"merge", "--out", merged}, dirs...)...)
	if err != nil || !strings.Contains(stdout, "1 infrastructure error") || !strings.Contains(stderr, "without --shard") {
		t.Fatalf("merge: %v\n%s%s", err, stdout, stderr)
	}
	mpath := filepath.Join(merged, recordsFileName)
	mf, err := os.Open(mpath)
	if err != nil {
		t.Fatal(err)
	}
	got, err := results.ReadRecords(mf, mpath)
	mf.Close()
	if err != nil {
		t.Fatal(err)
	}
	infra := 0
	for _, r := range got {
		if r.Outcome == results.OutcomeInfraError {
			infra++
			if r.Key() != lost.Key() {
				t.Errorf("infra error on %s, want %s", r.Key(), lost.Key())
			}
		}
	}
	if infra != 1 {
		t.Errorf("merged directory holds %d infra errors, want 1", infra)
	}
	_, stderr, err = runCLI(t, append(shardRun, "--out", merged)...)
	if err != nil || !strings.Contains(stderr, "1 episodes that ended in infrastructure errors run again") {
		t.Errorf("resuming the merged directory: %v\n%s", err, stderr)
	}
	// Played again, the episode is in its place in grid order, not at the
	// end: the file is the unsharded run's.
	whole := filepath.Join(t.TempDir(), "whole")
	if _, stderr, err := runCLI(t, append(shardRun, "--out", whole)...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !bytes.Equal(recordsBytes(t, merged), recordsBytes(t, whole)) {
		t.Errorf("after the rerun, records.jsonl is not the unsharded run's:\n%s\nwant:\n%s", recordsBytes(t, merged), recordsBytes(t, whole))
	}
}

// transcriptCalls reads dir's transcripts.jsonl as the calls it holds,
// each line without its latencies, and counts the lines by episode.
func transcriptCalls(t *testing.T, dir string) (lines []string, byEpisode map[string]int) {
	t.Helper()
	byEpisode = map[string]int{}
	err := scanTranscript(filepath.Join(dir, transcriptFileName), func(line []byte, n int, ep string, partial bool) error {
		if partial {
			return fmt.Errorf("line %d is partial", n)
		}
		lines = append(lines, string(latencies.ReplaceAll(bytes.TrimSpace(line), nil)))
		byEpisode[ep]++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return lines, byEpisode
}

// checkCallsOnce fails unless dir's transcript holds, for each record,
// exactly its calls, and for the calibration split exactly calib lines.
func checkCallsOnce(t *testing.T, dir string, calib int) {
	t.Helper()
	_, by := transcriptCalls(t, dir)
	for _, r := range readRecords(t, dir) {
		if by[r.Key()] != r.Calls {
			t.Errorf("%s: the transcript holds %d calls of %s, whose record made %d", dir, by[r.Key()], r.Key(), r.Calls)
		}
		delete(by, r.Key())
	}
	if by["calibration/clara/sim"] != calib {
		t.Errorf("%s: the transcript holds %d calls of the calibration split, want %d", dir, by["calibration/clara/sim"], calib)
	}
	delete(by, "calibration/clara/sim")
	if len(by) > 0 {
		t.Errorf("%s: the transcript holds calls of no record: %v", dir, by)
	}
}

// runWholeAndShards runs args in this process with --out tmp/whole, and
// as n shards with --out tmp/shard-i, and returns the directories.
func runWholeAndShards(t *testing.T, args []string, tmp string, n int) (whole string, shards []string) {
	t.Helper()
	whole = filepath.Join(tmp, "whole")
	if _, stderr, err := runCLI(t, append(args, "--out", whole)...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for i := 1; i <= n; i++ {
		dir := filepath.Join(tmp, fmt.Sprintf("shard-%d", i))
		if _, stderr, err := runCLI(t, append(args, "--shard", fmt.Sprintf("%d/%d", i, n), "--out", dir)...); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		shards = append(shards, dir)
	}
	return whole, shards
}

// merge writes the shards' transcripts, each call once (clara's
// calibration split, which every shard made, once too) in an order the
// shards alone fix, and the summary the unsharded run writes.
func TestMergeWritesTranscriptsAndSummary(t *testing.T) {
	t.Parallel()
	args := []string{"run", "--quiet", "--agents", "clara,direct", "--tasks", "pick_place,handover",
		"--perturbations", "none,partial_observability,absence", "--episodes", "2", "--transcripts"}
	tmp := t.TempDir()
	whole, dirs := runWholeAndShards(t, args, tmp, 3)
	merged := filepath.Join(tmp, "merged")
	if _, stderr, err := runCLI(t, append([]string{"merge", "--out", merged}, dirs...)...); err != nil || stderr != "" {
		t.Fatalf("merge: %v\n%s", err, stderr)
	}
	want, err := os.ReadFile(filepath.Join(whole, summaryFileName))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(merged, summaryFileName)); err != nil || !bytes.Equal(got, want) {
		t.Errorf("merged summary.md (err %v):\n%s\nwant the unsharded run's:\n%s", err, got, want)
	}
	_, calls := transcriptCalls(t, whole)
	calib := calls["calibration/clara/sim"]
	if calib == 0 {
		t.Fatal("the unsharded run's transcript holds no calibration call; the test wants clara's")
	}
	checkCallsOnce(t, merged, calib)
	wl, _ := transcriptCalls(t, whole)
	ml, _ := transcriptCalls(t, merged)
	slices.Sort(wl)
	slices.Sort(ml)
	if !slices.Equal(ml, wl) {
		t.Errorf("the merged transcript's calls (%d lines) are not the unsharded run's (%d lines)", len(ml), len(wl))
	}
	// The same shards, named in another order, merge to the same bytes.
	again := filepath.Join(tmp, "again")
	if _, stderr, err := runCLI(t, "merge", "--out", again, dirs[2], dirs[0], dirs[1]); err != nil {
		t.Fatalf("merge: %v\n%s", err, stderr)
	}
	a, _ := os.ReadFile(filepath.Join(merged, transcriptFileName))
	b, _ := os.ReadFile(filepath.Join(again, transcriptFileName))
	if !bytes.Equal(a, b) {
		t.Error("the shards named in another order merge to another transcript")
	}
	// Shards without their summaries: the header is made from run.json,
	// and merge says so.
	for _, d := range dirs {
		os.Remove(filepath.Join(d, summaryFileName))
	}
	bare := filepath.Join(tmp, "bare")
	_, stderr, err := runCLI(t, append([]string{"merge", "--out", bare}, dirs...)...)
	if err != nil || !strings.Contains(stderr, "no shard's summary.md is what run writes for its records") {
		t.Fatalf("merge of shards without summaries: %v\n%s", err, stderr)
	}
	got, _ := os.ReadFile(filepath.Join(bare, summaryFileName))
	// The tables are the unsharded run's; what run writes after them
	// (clara's fitted threshold) no merge can know, and the note says so.
	tables, tail, ok := bytes.Cut(want[bytes.Index(want, []byte("ADA / SR")):], []byte("\n## Calibration"))
	if !ok {
		t.Fatalf("the unsharded run's summary gives no calibration after its tables:\n%s", want)
	}
	if !bytes.Contains(got, []byte(fmt.Sprintf("Suite version %d. Seed 1, 2 episodes per cell and agent at most, merged from 3 shards.", bench.SuiteVersion))) ||
		!bytes.HasSuffix(got, tables) || !bytes.Contains(tail, []byte("| clara/sim | 160 |")) {
		t.Errorf("merged summary without the shards':\n%s", got)
	}
	if !strings.Contains(stderr, "the thresholds fitted on the calibration split") {
		t.Errorf("merge's note does not say the calibration is left out:\n%s", stderr)
	}
}

// A shard that played no clara episode fitted no threshold, so its
// summary has no calibration after its tables; a merge of it with one
// that did still writes the unsharded run's summary, calibration and all.
// Two agents and one episode of one cell: round-robin, shard 1 holds
// direct's episode alone and shard 2 clara's.
func TestMergeKeepsTheCalibrationOfAnyShard(t *testing.T) {
	t.Parallel()
	args := []string{"run", "--quiet", "--agents", "direct,clara", "--tasks", "pick_place", "--perturbations", "none", "--episodes", "1"}
	tmp := t.TempDir()
	whole, dirs := runWholeAndShards(t, args, tmp, 2)
	first, _ := os.ReadFile(filepath.Join(dirs[0], summaryFileName))
	second, _ := os.ReadFile(filepath.Join(dirs[1], summaryFileName))
	if bytes.Contains(first, []byte("## Calibration")) || !bytes.Contains(second, []byte("## Calibration")) {
		t.Fatalf("want shard 1 without a calibration and shard 2 with one; the test's grid no longer splits so:\n%s\n----\n%s", first, second)
	}
	merged := filepath.Join(tmp, "merged")
	if _, stderr, err := runCLI(t, append([]string{"merge", "--out", merged}, dirs...)...); err != nil || stderr != "" {
		t.Fatalf("merge: %v\n%s", err, stderr)
	}
	want, _ := os.ReadFile(filepath.Join(whole, summaryFileName))
	if got, err := os.ReadFile(filepath.Join(merged, summaryFileName)); err != nil || !bytes.Equal(got, want) {
		t.Errorf("merged summary.md (err %v):\n%s\nwant the unsharded run's:\n%s", err, got, want)
	}
}

// A shard that holds no job of its grid (an Indexed Job of more shards
// than jobs) printed "No results." and nothing else (issue 33): it now
// says why it is empty, still writes its directory, and merges with the
// shards that hold the jobs into the unsharded run's records.
func TestEmptyShardSaysSoAndMerges(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	grid := []string{"run", "--agents", "oracle", "--tasks", "spatial", "--perturbations", "none", "--episodes", "2", "--quiet"}
	whole := filepath.Join(tmp, "whole")
	if _, stderr, err := runCLI(t, append(grid, "--out", whole)...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	var dirs []string
	for i := 1; i <= 3; i++ {
		dir := filepath.Join(tmp, fmt.Sprint("s", i))
		_, stderr, err := runCLI(t, append(grid, "--shard", fmt.Sprintf("%d/3", i), "--out", dir)...)
		if err != nil {
			t.Fatalf("shard %d/3: %v\n%s", i, err, stderr)
		}
		empty := strings.Contains(stderr, "this shard holds none of the grid's 2 jobs")
		if empty != (i == 3) {
			t.Errorf("shard %d/3 of 2 jobs: says it is empty %v, want %v\n%s", i, empty, i == 3, stderr)
		}
		dirs = append(dirs, dir)
	}
	merged := filepath.Join(tmp, "merged")
	if _, stderr, err := runCLI(t, append([]string{"merge", "--out", merged}, dirs...)...); err != nil {
		t.Fatalf("merge: %v\n%s", err, stderr)
	}
	if got, want := recordsBytes(t, merged), recordsBytes(t, whole); !bytes.Equal(got, want) {
		t.Errorf("merged records differ from the unsharded run's:\n got %s\nwant %s", got, want)
	}
}

// mergedByJob is what merge writes of the shards in dirs (in the order
// given): every record, placed by its job in the run's order, and the
// records of one job in the order their shard's file holds them.
func mergedByJob(t *testing.T, dirs []string) []results.Record {
	t.Helper()
	type placed struct {
		rec results.Record
		k   int
	}
	var all []placed
	for _, d := range dirs {
		rf, _, err := results.ReadRunFile(d)
		if err != nil {
			t.Fatal(err)
		}
		locate := rf.Shard.Order.Locate()
		for _, r := range readRecords(t, d) {
			k, ok := locate(r)
			if !ok {
				t.Fatalf("%s: %s is not in the grid", d, r.Key())
			}
			all = append(all, placed{r, k})
		}
	}
	slices.SortStableFunc(all, func(a, b placed) int { return a.k - b.k })
	var recs []results.Record
	for _, p := range all {
		recs = append(recs, p.rec)
	}
	return recs
}

// encoded is recs as records.jsonl holds them.
func encoded(t *testing.T, recs []results.Record) []byte {
	t.Helper()
	var b bytes.Buffer
	w := results.NewWriter(&b)
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

// transcriptEpisodes are the episodes of the records in dir's transcript,
// in the order their lines come, each once.
func transcriptEpisodes(t *testing.T, dir string) []string {
	t.Helper()
	var eps []string
	err := scanTranscript(filepath.Join(dir, transcriptFileName), func(line []byte, n int, ep string, partial bool) error {
		if ofRecord(ep) && (len(eps) == 0 || eps[len(eps)-1] != ep) {
			eps = append(eps, ep)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return eps
}

// checkTranscriptOrder fails unless the transcript of dir holds each
// record's calls once, the episodes in the records' order.
func checkTranscriptOrder(t *testing.T, dir string) {
	t.Helper()
	var withCalls []string
	for _, r := range readRecords(t, dir) {
		if r.Calls > 0 {
			withCalls = append(withCalls, r.Key())
		}
	}
	if eps := transcriptEpisodes(t, dir); !slices.Equal(eps, withCalls) {
		t.Errorf("%s: the transcript's episodes come in the order\n%q\nwant the records'\n%q", dir, eps, withCalls)
	}
	checkCallsOnce(t, dir, 0)
}

// Shards whose files are not in job order merge as those in order do:
// two models' records in one directory (run again on it with another
// --model, its file holds the first model's records, then the
// second's), and a file in reverse. Records of one job stay in their
// file's order, and the transcript follows the merged records.
func TestMergeReadsShardsOutOfOrder(t *testing.T) {
	t.Parallel()
	args := []string{"run", "--quiet", "--agents", "oracle,direct", "--tasks", "pick_place,handover",
		"--perturbations", "none,absence", "--episodes", "3", "--transcripts"}
	tmp := t.TempDir()
	var dirs []string
	for i := 1; i <= 2; i++ {
		dir := filepath.Join(tmp, fmt.Sprintf("shard-%d", i))
		for _, model := range []string{"sim", "sim:weak"} {
			if _, stderr, err := runCLI(t, append(args, "--model", model, "--shard", fmt.Sprintf("%d/2", i), "--out", dir)...); err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
		}
		dirs = append(dirs, dir)
	}
	for _, d := range dirs {
		recs := readRecords(t, d)
		if recs[0].Model != "" || recs[len(recs)-1].Model != "sim:weak" || !slices.ContainsFunc(recs, func(r results.Record) bool { return r.Model == "sim" }) {
			t.Fatalf("%s does not hold two models' records, the second's last", d)
		}
	}
	want := encoded(t, mergedByJob(t, dirs))
	merged := filepath.Join(tmp, "merged")
	if _, stderr, err := runCLI(t, append([]string{"merge", "--out", merged}, dirs...)...); err != nil {
		t.Fatalf("merge: %v\n%s", err, stderr)
	}
	got, err := os.ReadFile(filepath.Join(merged, recordsFileName))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("merged records.jsonl:\n%s\nwant, by job and in each file's order:\n%s", got, want)
	}
	checkTranscriptOrder(t, merged)

	// The second shard's file in reverse: the records of each job too.
	reversed := filepath.Join(tmp, "reversed")
	copyDir(t, dirs[1], reversed)
	recs := readRecords(t, reversed)
	slices.Reverse(recs)
	if err := results.RewriteRecords(filepath.Join(reversed, recordsFileName), recs); err != nil {
		t.Fatal(err)
	}
	again := filepath.Join(tmp, "again")
	if _, stderr, err := runCLI(t, "merge", "--out", again, reversed, dirs[0]); err != nil {
		t.Fatalf("merge: %v\n%s", err, stderr)
	}
	got, err = os.ReadFile(filepath.Join(again, recordsFileName))
	if err != nil {
		t.Fatal(err)
	}
	if want := encoded(t, mergedByJob(t, []string{reversed, dirs[0]})); !bytes.Equal(got, want) {
		t.Errorf("merged with a file in reverse:\n%s\nwant:\n%s", got, want)
	}
	// The transcript follows the records, now the second model's first.
	checkTranscriptOrder(t, again)
	a, _ := os.ReadFile(filepath.Join(merged, summaryFileName))
	b, _ := os.ReadFile(filepath.Join(again, summaryFileName))
	if !bytes.Equal(a, b) {
		t.Errorf("the summary of a file in reverse:\n%s\nwant:\n%s", b, a)
	}
}

// A record's key reads back into the fields it names; what is no key
// does not read.
func TestParseKey(t *testing.T) {
	t.Parallel()
	for _, r := range []results.Record{
		{Track: "tabletop", Family: "pick_place", Perturbation: "none", Agent: "oracle", Seed: 1, Episode: 0},
		{Track: "tabletop", Family: "pick/place", Perturbation: "a\"b", Agent: "direct", Model: "members sim:weak,sim; chooser sim", Seed: 1 << 63, Episode: 41, SceneSize: 24, Repeat: 2},
		{Track: "semmap", Family: "f", Perturbation: "p", Agent: "a", Model: "m", Seed: 7, Episode: 3, Repeat: 1},
	} {
		got, ok := parseKey(r.Key())
		if !ok || got.Key() != r.Key() || got.Family != r.Family || got.Model != r.Model || got.Seed != r.Seed || got.SceneSize != r.SceneSize || got.Repeat != r.Repeat {
			t.Errorf("parseKey(%s) = %+v, %v", r.Key(), got, ok)
		}
	}
	for _, bad := range []string{"", "calibration/clara/sim", `"tabletop"/"f"/"p"/"a"/"m"/1`, `"tabletop"/"f"/"p"/"a"/"m"/1/01`,
		`"tabletop"/"f"/"p"/"a"/"m"/1/2/n=0`, `"tabletop"/"f"/"p"/"a"/"m"/1/2/r=1/n=3`, `"tabletop"/"f"/"p"/"a"/"m"/-1/2`, `"tabletop"/"f"/"p"/"a"/"m"/1/2/x`} {
		if r, ok := parseKey(bad); ok {
			t.Errorf("parseKey(%q) = %+v, want no key", bad, r)
		}
	}
}

// Shards that hold two models' records (each run again with another
// --model) merge into the summary the unsharded directory's last run
// wrote, of its model, whichever order the models ran in; with no shard's
// summary to go by, each model's tables are apart. Before, the merged
// summary put both models' episodes in one row under the agent's name.
func TestMergeKeepsModelsApart(t *testing.T) {
	t.Parallel()
	args := []string{"run", "--quiet", "--track", "tabletop", "--agents", "oracle,direct", "--tasks", "pick_place",
		"--perturbations", "none,absence", "--episodes", "3", "--perception", "detector"}
	// The third pair's specs are not the names their records carry
	// (record:DIR=SPEC's are SPEC's): before, the merged tables matched
	// records to specs and held none of them.
	cas := t.TempDir()
	for _, order := range [][]string{{"sim", "sim:weak"}, {"sim:weak", "sim"}, {"record:" + cas + "=sim:weak", "record:" + cas + "=sim"}} {
		t.Run(strings.Join(order, ","), func(t *testing.T) {
			t.Parallel()
			tmp := t.TempDir()
			whole := filepath.Join(tmp, "whole")
			var dirs []string
			for i := 1; i <= 2; i++ {
				dirs = append(dirs, filepath.Join(tmp, fmt.Sprintf("shard-%d", i)))
			}
			for _, m := range order {
				if _, stderr, err := runCLI(t, append(args, "--model", m, "--out", whole)...); err != nil {
					t.Fatalf("%v\n%s", err, stderr)
				}
				for i, dir := range dirs {
					if _, stderr, err := runCLI(t, append(args, "--model", m, "--shard", fmt.Sprintf("%d/2", i+1), "--out", dir)...); err != nil {
						t.Fatalf("%v\n%s", err, stderr)
					}
				}
			}
			want, err := os.ReadFile(filepath.Join(whole, summaryFileName))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(want), fmt.Sprintf(modelOfSummary, order[1])) {
				t.Fatalf("the unsharded summary does not name its model %s:\n%s", order[1], want)
			}
			merged := filepath.Join(tmp, "merged")
			if _, stderr, err := runCLI(t, append([]string{"merge", "--out", merged}, dirs...)...); err != nil || stderr != "" {
				t.Fatalf("merge: %v\n%s", err, stderr)
			}
			if got, err := os.ReadFile(filepath.Join(merged, summaryFileName)); err != nil || !bytes.Equal(got, want) {
				t.Errorf("merged summary.md (err %v):\n%s\nwant the unsharded run's:\n%s", err, got, want)
			}
			for _, dir := range dirs {
				os.Remove(filepath.Join(dir, summaryFileName))
			}
			bare := filepath.Join(tmp, "bare")
			if _, stderr, err := runCLI(t, append([]string{"merge", "--out", bare}, dirs...)...); err != nil {
				t.Fatalf("merge: %v\n%s", err, stderr)
			}
			got, err := os.ReadFile(filepath.Join(bare, summaryFileName))
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range order {
				if m, _ = modelKey(m); !strings.Contains(string(got), "## Model `"+m+"`") {
					t.Errorf("merged summary.md without shards' summaries has no tables of model %s:\n%s", m, got)
				}
			}
			if strings.Contains(string(got), "(n=6)") {
				t.Errorf("merged summary.md pools the two models' 3 episodes a cell:\n%s", got)
			}
		})
	}
}

// A shard stopped part way merges (the unsharded command on OUT plays
// the rest), and merge says so: before, OUT passed for the whole run.
func TestMergeSaysAShardIsIncomplete(t *testing.T) {
	t.Parallel()
	dirs := shardDirs(t, 2)
	path := filepath.Join(dirs[1], recordsFileName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	if err := os.WriteFile(path, bytes.Join(lines[:3], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	_, stderr, err := runCLI(t, "merge", "--out", out, dirs[0], dirs[1])
	if err != nil {
		t.Fatalf("merge: %v\n%s", err, stderr)
	}
	if want := fmt.Sprintf("%s, shard 2/2, holds 3 of its %d jobs", dirs[1], len(lines)-1); !strings.Contains(stderr, want) {
		t.Errorf("stderr %q, want it to say %q", stderr, want)
	}
	if _, stderr, err := runCLI(t, "merge", "--out", filepath.Join(t.TempDir(), "whole"), dirs[0]); err == nil || stderr != "" {
		// A missing shard stays refused: only a shard present and part
		// done is merged.
		t.Errorf("merge of one shard of two: %v, stderr %q", err, stderr)
	}
}
