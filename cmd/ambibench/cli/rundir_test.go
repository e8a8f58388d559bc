package cli

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm/cassette"
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
		{"asking the other robot first changes the two-robot prompts", tabletop, []string{"--ask-robot-first"}, "ask_robot_first: (unset) in the directory, true now"},
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

// An episode that ended in an infrastructure error (here a recording of
// the cassette emptied: that episode's failure, naming the file, not the
// whole replay's) is played again by the rerun in its place:
// records.jsonl is then in grid order, the file a run without the failure
// writes, and the transcript holds the episode's calls once, not its
// failed call beside them.
func TestRerunOfInfraErrorsKeepsGridOrder(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	tapes := filepath.Join(tmp, "tapes")
	args := []string{"run", "--quiet", "--agents", "direct", "--tasks", "pick_place", "--perturbations", "none,absence", "--episodes", "3"}
	recorded := filepath.Join(tmp, "recorded")
	if _, stderr, err := runCLI(t, append(args, "--model", "record:"+tapes+"=sim", "--out", recorded)...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	// Away goes the recording of the first episode's first call: its
	// request holds the instruction.
	first := readRecords(t, recorded)[0]
	entries, err := os.ReadDir(tapes)
	if err != nil {
		t.Fatal(err)
	}
	var lost string
	for _, e := range entries {
		// A recording is compressed: read what it holds.
		data, _ := cassette.ReadFile(filepath.Join(tapes, e.Name()))
		if bytes.Contains(data, []byte(first.Instruction)) {
			lost = filepath.Join(tapes, e.Name())
			break
		}
	}
	if lost == "" {
		t.Fatalf("no recording holds the first episode's instruction %q", first.Instruction)
	}
	recording, err := os.ReadFile(lost)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lost, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	replay := append(args, "--model", "replay:"+tapes, "--transcripts")
	dir := filepath.Join(tmp, "replayed")
	var infra *exitError
	_, stderr, err := runCLI(t, append(replay, "--out", dir)...)
	if !errors.As(err, &infra) || infra.code != exitInfra || !strings.Contains(stderr, lost+": empty (0 bytes), not a recording") {
		t.Fatalf("replay with an empty recording: %v, want exit %d and the file named\n%s", err, exitInfra, stderr)
	}
	if err := os.WriteFile(lost, recording, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, err := runCLI(t, append(replay, "--out", dir)...); err != nil || !strings.Contains(stderr, "1 episodes that ended in infrastructure errors run again") {
		t.Fatalf("rerun: %v\n%s", err, stderr)
	}
	clean := filepath.Join(tmp, "clean")
	if _, stderr, err := runCLI(t, append(replay, "--out", clean)...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if got, want := recordsBytes(t, dir), recordsBytes(t, clean); !bytes.Equal(got, want) {
		t.Errorf("records after the rerun:\n%s\nwant those of a run without the failure:\n%s", got, want)
	}
	checkCallsOnce(t, dir, 0)
}

// A run killed with episodes in flight leaves their calls in the
// transcript and no record; resumed, it plays them again and the
// transcript holds each kept episode's calls once (show prints each call
// once), and clara's calibration split, which the resumed run makes
// again, once.
func TestResumeKeepsEachCallOnce(t *testing.T) {
	t.Parallel()
	// clara last, so that the episodes the kill takes are clara's, and
	// the resumed run calibrates again.
	args := []string{"run", "--quiet", "--agents", "direct,clara", "--tasks", "pick_place", "--perturbations", "none,absence", "--episodes", "3", "--transcripts"}
	dir := t.TempDir()
	if _, stderr, err := runCLI(t, append(args, "--out", dir)...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	_, calls := transcriptCalls(t, dir)
	calib := calls["calibration/clara/sim"]
	checkCallsOnce(t, dir, calib)
	// The state of a kill: the last three records never written (the
	// third cut short), and a transcript line cut short.
	path := filepath.Join(dir, recordsFileName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	n := len(lines) - 1 // the last element is empty
	if err := os.WriteFile(path, append(bytes.Join(lines[:n-3], nil), lines[n-3][:30]...), 0o644); err != nil {
		t.Fatal(err)
	}
	tf, err := os.OpenFile(filepath.Join(dir, transcriptFileName), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	tf.WriteString(`{"episode":"calibration/clara/sim","model":"sim","requ`)
	tf.Close()
	if _, stderr, err := runCLI(t, append(args, "--out", dir)...); err != nil || !strings.Contains(stderr, "resuming") {
		t.Fatalf("resume: %v\n%s", err, stderr)
	}
	if got := len(readRecords(t, dir)); got != n {
		t.Fatalf("%d records after the resume, want %d", got, n)
	}
	checkCallsOnce(t, dir, calib)
	last := readRecords(t, dir)[n-1]
	out, _, err := runCLI(t, "show", dir, last.PlainKey())
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(out, "=== call "); got != last.Calls {
		t.Errorf("show prints %d calls of %s, whose record made %d:\n%s", got, last.PlainKey(), last.Calls, out)
	}
}

// A resumed run, and show, refuse a records file that holds an episode
// twice or a record of another run than run.json's, naming the line:
// before, the run kept the first of two and played on, and show printed
// one of them.
func TestResumeRefusesRecordsOfAnotherRun(t *testing.T) {
	t.Parallel()
	args := []string{"run", "--quiet", "--agents", "oracle", "--tasks", "pick_place", "--perturbations", "none", "--episodes", "3"}
	for _, tc := range []struct {
		why  string
		edit func(lines [][]byte) [][]byte
		want string
	}{
		{"an episode twice", func(l [][]byte) [][]byte { return append(l, l[0]) },
			`records.jsonl:4: episode "tabletop"/"pick_place"/"none"/"oracle"/""/1/0 appears twice, first at line 1`},
		// Found by the job (a bit a job), or for a record of no job of
		// the run by its key, and named as a reading of every key names it.
		{"an episode twice, the first an infrastructure error", func(l [][]byte) [][]byte {
			infra := bytes.Replace(l[1], []byte(`"outcome":"scored",`), []byte(`"outcome":"infra_error","error_kind":"timeout",`), 1)
			return append([][]byte{l[0], infra, l[2]}, l[1])
		}, `records.jsonl:4: episode "tabletop"/"pick_place"/"none"/"oracle"/""/1/1 appears twice, first at line 2`},
		{"a record of no job of the run twice", func(l [][]byte) [][]byte {
			other := bytes.Replace(l[2], []byte(`"agent":"oracle",`), []byte(`"agent":"oracle","model":"x",`), 1)
			return append(l, other, other)
		}, `records.jsonl:5: episode "tabletop"/"pick_place"/"none"/"oracle"/"x"/1/2 appears twice, first at line 4`},
		{"a record of another seed", func(l [][]byte) [][]byte {
			l[1] = bytes.Replace(l[1], []byte(`"seed":1,`), []byte(`"seed":2,`), 1)
			return l
		}, `records.jsonl:2: field "seed": 2, but the run's run.json says seed 1`},
	} {
		dir := t.TempDir()
		if _, stderr, err := runCLI(t, append(args, "--out", dir)...); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		path := filepath.Join(dir, recordsFileName)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		edited := bytes.Join(tc.edit(lines[:len(lines)-1]), nil) // the last is empty
		if err := os.WriteFile(path, edited, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := runCLI(t, append(args, "--out", dir)...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: resume gave %v, want %q", tc.why, err, tc.want)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(after, edited) {
			t.Errorf("%s: the refused resume changed records.jsonl", tc.why)
		}
		if tc.why == "an episode twice" {
			if _, _, err := runCLI(t, "show", dir); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: show gave %v, want %q", tc.why, err, tc.want)
			}
		}
	}
}

// A resumed run puts records.jsonl in grid order whatever order the
// earlier records were left in: each record of a job of the run at its
// place, the new ones among them, and a record of no job of it (an agent
// no longer asked for) after the record it followed. Without a new
// record, the file is left as it is.
func TestResumePutsRecordsInGridOrder(t *testing.T) {
	t.Parallel()
	grid := []string{"run", "--quiet", "--tasks", "pick_place", "--perturbations", "none,absence", "--episodes", "3"}
	tmp := t.TempDir()
	fresh := filepath.Join(tmp, "fresh")
	if _, stderr, err := runCLI(t, append(grid, "--agents", "oracle,rules", "--out", fresh)...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	pos := map[string]int{}
	for i, r := range readRecords(t, fresh) {
		pos[r.Key()] = i
	}
	for _, reverse := range []bool{false, true} {
		dir := filepath.Join(tmp, fmt.Sprint("reverse-", reverse))
		if _, stderr, err := runCLI(t, append(grid, "--agents", "oracle,rules,random", "--out", dir)...); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		// Two episodes of the agents asked for again lost, the first of
		// them, and random's records, of no job of the resumed run, kept.
		var prior []results.Record
		var lost []string
		for i, r := range readRecords(t, dir) {
			if i == 0 || i == 4 {
				lost = append(lost, r.Key())
				continue
			}
			prior = append(prior, r)
		}
		if reverse {
			slices.Reverse(prior)
		}
		path := filepath.Join(dir, recordsFileName)
		if err := results.RewriteRecords(path, prior); err != nil {
			t.Fatal(err)
		}
		_, stderr, err := runCLI(t, append(grid, "--agents", "oracle,rules", "--out", dir)...)
		if err != nil || !strings.Contains(stderr, fmt.Sprintf("resuming: %d records already", len(prior))) {
			t.Fatalf("resume: %v\n%s", err, stderr)
		}
		got := readRecords(t, dir)
		// What the rewrite into grid order makes of the earlier records
		// and the new ones after them (in grid order): a stable sort by
		// the place of each.
		type placed struct {
			key       string
			at, after int
		}
		var all []placed
		last := -1
		for _, r := range prior {
			if p, ok := pos[r.Key()]; ok {
				all, last = append(all, placed{r.Key(), p, 0}), p
			} else {
				all = append(all, placed{r.Key(), last, 1})
			}
		}
		for _, k := range lost {
			all = append(all, placed{k, pos[k], 0})
		}
		slices.SortStableFunc(all, func(a, b placed) int { return cmp.Or(a.at-b.at, a.after-b.after) })
		var want, keys []string
		for _, p := range all {
			want = append(want, p.key)
		}
		for _, r := range got {
			keys = append(keys, r.Key())
		}
		if !slices.Equal(keys, want) {
			t.Errorf("reverse %v: records after the resume\n%q\nwant\n%q", reverse, keys, want)
		}
		// Resumed again, with nothing to play, the file stays as it is.
		before, _ := os.ReadFile(path)
		if _, stderr, err := runCLI(t, append(grid, "--agents", "oracle,rules", "--out", dir)...); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
			t.Errorf("reverse %v: a resume with nothing to play changed records.jsonl", reverse)
		}
		sum, _ := os.ReadFile(filepath.Join(dir, summaryFileName))
		if want, _ := os.ReadFile(filepath.Join(fresh, summaryFileName)); !bytes.Equal(sum, want) {
			t.Errorf("reverse %v: summary after the resume:\n%s\nwant the fresh run's:\n%s", reverse, sum, want)
		}
	}
}

// A run refused once it has read the directory (a model that will not
// open, a transcript with a damaged line) leaves every file as it found
// it: before, run.json had already taken the refused run's grid (a shard
// then could not be merged) and the records of infrastructure errors had
// been dropped to be played again by a run that never played.
func TestRefusedRunLeavesDirectory(t *testing.T) {
	t.Parallel()
	base := []string{"run", "--quiet", "--track", "tabletop", "--agents", "oracle,direct", "--tasks", "pick_place", "--perturbations", "none,absence", "--episodes", "2", "--perception", "detector"}
	snapshot := func(dir string) map[string]string {
		files := map[string]string{}
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() {
				continue
			}
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			files[e.Name()] = string(data)
		}
		return files
	}
	// A store lacking some recordings: replaying it records
	// infrastructure errors, which a resumed run would drop and play.
	tapes := filepath.Join(t.TempDir(), "tapes")
	if _, stderr, err := runCLI(t, append(base, "--model", "record:"+tapes+"=sim", "--out", t.TempDir())...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	gappy := filepath.Join(t.TempDir(), "gappy")
	if err := os.CopyFS(gappy, os.DirFS(tapes)); err != nil {
		t.Fatal(err)
	}
	zst, _ := filepath.Glob(filepath.Join(gappy, "*.zst"))
	for _, p := range zst[:len(zst)/2] {
		os.Remove(p)
	}
	for _, tc := range []struct {
		why     string
		first   []string // the run whose directory the second is refused on
		again   []string
		damage  func(t *testing.T, dir string)
		wantErr string
	}{
		{"a shard's grid cannot take a model that did not open", []string{"--model", "sim", "--shard", "2/2"},
			[]string{"--model", "replay:" + filepath.Join(t.TempDir(), "none"), "--shard", "2/2"}, nil, "replay"},
		{"--fresh discards the run only once the new one can play", []string{"--model", "sim"},
			[]string{"--model", "replay:" + filepath.Join(t.TempDir(), "none"), "--fresh"}, nil, "replay"},
		{"infrastructure errors are dropped only by a run that plays them again", []string{"--model", "replay:" + gappy, "--transcripts"},
			[]string{"--model", "replay:" + tapes, "--transcripts"}, func(t *testing.T, dir string) {
				p := filepath.Join(dir, transcriptFileName)
				data, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				lines := strings.SplitAfter(string(data), "\n")
				lines[2] = "{bad\n"
				if err := os.WriteFile(p, []byte(strings.Join(lines, "")), 0o644); err != nil {
					t.Fatal(err)
				}
			}, transcriptFileName + ":3"},
	} {
		t.Run(tc.why, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			runCLI(t, append(append(base[:len(base):len(base)], tc.first...), "--out", dir)...)
			if _, err := os.Stat(filepath.Join(dir, recordsFileName)); err != nil {
				t.Fatal(err)
			}
			if tc.damage != nil {
				tc.damage(t, dir)
				if !strings.Contains(snapshot(dir)[recordsFileName], results.OutcomeInfraError) {
					t.Fatal("the first run recorded no infrastructure error")
				}
			}
			before := snapshot(dir)
			_, stderr, err := runCLI(t, append(append(base[:len(base):len(base)], tc.again...), "--out", dir)...)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("run again: %v, want an error naming %q\n%s", err, tc.wantErr, stderr)
			}
			after := snapshot(dir)
			for name, data := range before {
				if after[name] != data {
					t.Errorf("%s changed by a refused run", name)
				}
			}
			for name := range after {
				if _, ok := before[name]; !ok {
					t.Errorf("%s made by a refused run", name)
				}
			}
		})
	}
}
