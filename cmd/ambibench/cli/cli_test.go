package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/perturb"
	"github.com/ambibench/ambibench/tasks"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/bench"
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
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"help.golden", []string{"help"}},
		// The families and perturbations are named, so that one added to
		// the registries leaves the table as it is.
		{"run_small.golden", []string{"run", "--agents", "oracle,rules,random", "--episodes", "4", "--seed", "11", "--concurrency", "2",
			"--tasks", "pick_place,long_horizon,spatial,handover",
			"--perturbations", "none,absence,multiplicity,underspecified,partial_observability,scene_graph_noise,execution_noise"}},
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

// The list matches its golden file in the entries the file has; an entry
// registered since (a perturbation, a task family, an agent, a track of a
// new file), and a heading whose entries are all new (the agents of a new
// track), are left to TestListShowsTheRegistries, and the columns'
// widths, which a longer new name moves, are not compared.
func TestListGolden(t *testing.T) {
	t.Parallel()
	out, _, err := runCLI(t, "list")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "list.golden")
	if *update {
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	known := map[string]bool{}
	for _, line := range strings.Split(string(want), "\n") {
		if f := strings.Fields(line); strings.HasPrefix(line, "  ") && len(f) > 0 {
			known[f[0]] = true
		}
	}
	// A block (a heading and its entries) whose entries are all new, the
	// agents of a new track say, goes whole; in the others, the new
	// entries go.
	var kept []string
	for _, block := range strings.Split(out, "\n\n") {
		var lines []string
		entries, fresh := 0, 0
		for _, line := range strings.Split(block, "\n") {
			if f := strings.Fields(line); strings.HasPrefix(line, "  ") && len(f) > 0 {
				entries++
				if !known[f[0]] {
					fresh++
					continue
				}
			}
			lines = append(lines, line)
		}
		if entries > 0 && fresh == entries {
			continue
		}
		kept = append(kept, strings.Join(lines, "\n"))
	}
	squeeze := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	if squeeze(strings.Join(kept, "\n\n")) != squeeze(string(want)) {
		t.Errorf("list differs from %s (go test -update to accept):\n--- got\n%s\n--- want\n%s", path, out, want)
	}
}

// Every registered track, task family, perturbation and agent is in the
// list, with its description, read from the registries.
func TestListShowsTheRegistries(t *testing.T) {
	t.Parallel()
	out, _, err := runCLI(t, "list")
	if err != nil {
		t.Fatal(err)
	}
	has := func(name, desc string) {
		t.Helper()
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) > 0 && f[0] == name && strings.Contains(line, desc) {
				return
			}
		}
		t.Errorf("list has no line for %s (%q)", name, desc)
	}
	for _, tr := range bench.Tracks() {
		has(tr.Name(), tr.Summary())
	}
	for _, f := range tasks.All() {
		has(f.Name(), f.Description())
	}
	for _, p := range perturb.ForTabletop() {
		has(p.Name(), p.Description())
	}
	for _, p := range perturb.ForHousehold() {
		has(p.Name(), perturb.HouseholdDescription(p))
	}
	for _, a := range agents.All() {
		has(a.Name, a.Description)
	}
	// Each agent is listed under the tracks it plays, and no agent claims
	// a track it cannot play: the reference agents name the built-in
	// tracks, not "every track".
	heading := ""
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "AGENTS (") {
			heading = strings.TrimSuffix(strings.TrimPrefix(line, "AGENTS ("), ")")
			continue
		}
		if line == "" || !strings.HasPrefix(line, "  ") {
			heading = ""
		}
		f := strings.Fields(line)
		if heading == "" || len(f) == 0 {
			continue
		}
		a, ok := agents.Lookup(f[0])
		if !ok || strings.Join(a.Tracks, ", ") != heading {
			t.Errorf("agent %s listed under %q, plays %v", f[0], heading, a.Tracks)
		}
	}
	if strings.Contains(out, "every track") || strings.Contains(out, "all tracks") {
		t.Error("an agent of the built-in registry claims every track")
	}
	for _, want := range []string{"QUERY TYPES (semmap", "  negation ", "INPUT MODES (semmap", "  uncertainty ", "AGENTS (tabletop, household, semmap)\n  oracle "} {
		if !strings.Contains(out, want) {
			t.Errorf("list has no %q", want)
		}
	}
}

func TestBadInvocations(t *testing.T) {
	t.Parallel()
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
		{"unknown perturbation", []string{"run", "--perturbations", "no-such-perturbation"}, `unknown perturbation "no-such-perturbation"`},
		{"stray argument", []string{"run", "extra"}, "unexpected arguments"},
		{"bad scene size names the flag", []string{"run", "--scene-sizes", "6,huge"}, `--scene-sizes "6,huge"`},
		{"too large a scene names the limit", []string{"run", "--scene-sizes", "100"}, "to 48 objects"},
		{"list takes nothing", []string{"list", "x"}, "list takes no arguments"},
		{"semmap's second dimension is --modes, not --perturbations", []string{"run", "--track", "semmap", "--perturbations", "absence"},
			"the semmap track takes no perturbations; its second dimension is the input modes (--modes)"},
		{"--modes on the tabletop would be ignored", []string{"run", "--modes", "certainty"}, "--modes belongs to --track semmap"},
		{"--trials on the tabletop would be ignored", []string{"run", "--trials", "3"}, "--trials belongs to --track household"},
		{"--scene-sizes on semmap would be ignored", []string{"run", "--track", "semmap", "--scene-sizes", "6"}, "--scene-sizes belongs to --track tabletop"},
		{"a bad --model is refused even when no agent uses a model", []string{"run", "--agents", "oracle", "--episodes", "1", "--model", "nosuch:x"}, `unknown kind "nosuch"`},
		{"a negative count of episodes", []string{"run", "--episodes", "-2"}, "--episodes -2"},
		{"semmap names the unknown subcommand", []string{"semmap", "nosuch"}, `semmap: unknown subcommand "nosuch"`},
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

// Every command's --help prints its usage to stdout and exits 0, as the
// top-level help does; only a bad flag prints the usage to stderr.
func TestHelpGoesToStdout(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string // in stdout
	}{
		{[]string{"run", "--help"}, "-concurrency"},
		{[]string{"run", "-h"}, "-concurrency"},
		{[]string{"report", "--help"}, "Usage: ambibench report"},
		{[]string{"serve-sim", "--help"}, "Usage: ambibench serve-sim"},
		{[]string{"train-router", "--help"}, "Usage: ambibench train-router"},
		{[]string{"list", "--help"}, "Usage: ambibench list"},
		{[]string{"semmap", "--help"}, "Usage: ambibench semmap export"},
		{[]string{"semmap", "export", "--help"}, "Usage: ambibench semmap export"},
		{[]string{"show", "--help"}, "Usage: ambibench show [--images OUT] DIR KEY"},
	} {
		var o, e bytes.Buffer
		code := Main(&o, &e, tc.args)
		if code != 0 || !strings.Contains(o.String(), tc.want) || e.Len() != 0 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 0 and %q on stdout alone", tc.args, code, o.String(), e.String(), tc.want)
		}
	}
	var o, e bytes.Buffer
	if code := Main(&o, &e, []string{"run", "--bogus"}); code != 2 || o.Len() != 0 || !strings.Contains(e.String(), "Usage: ambibench run") {
		t.Errorf("run --bogus: exit %d, stdout %q, stderr %q; want exit 2 and the usage on stderr", code, o.String(), e.String())
	}
}

// run --help names every track in the help of --track.
func TestRunHelpListsTheTracks(t *testing.T) {
	t.Parallel()
	out, _, err := runCLI(t, "run", "--help")
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(out, "-track")
	if i < 0 {
		t.Fatalf("no -track in\n%s", out)
	}
	line, _, _ := strings.Cut(out[i:], "\n  -")
	for _, tr := range bench.TrackNames() {
		if !strings.Contains(line, tr) {
			t.Errorf("the help of -track does not name %s: %q", tr, line)
		}
	}
}

// A good --model that no agent of the run uses is not opened, and the
// run says so instead of passing over it.
func TestRunWarnsOfAnUnusedModel(t *testing.T) {
	t.Parallel()
	_, errOut, err := runCLI(t, "run", "--agents", "oracle", "--episodes", "1", "--model", "gemini:gemini-2.5-flash")
	if err != nil {
		t.Fatalf("%v (a spec that is not opened needs no key)", err)
	}
	if !strings.Contains(errOut, "--model gemini:gemini-2.5-flash: no agent of this run uses a model") {
		t.Errorf("stderr %q has no warning", errOut)
	}
	if _, errOut, _ := runCLI(t, "run", "--agents", "oracle", "--episodes", "1"); strings.Contains(errOut, "warning") {
		t.Errorf("a warning without --model: %q", errOut)
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
