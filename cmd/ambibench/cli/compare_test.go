package cli

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/results"
)

// writeRun writes a run directory: run.json with settings and the grid
// of recs, and recs (gzipped when gz is set).
func writeRun(t *testing.T, settings map[string]string, recs []results.Record, gz bool) string {
	t.Helper()
	dir := t.TempDir()
	if err := results.WriteRunFile(dir, results.RunFile{Settings: settings, Grid: gridOfRecords(recs)}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := results.NewWriter(&buf)
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	data, name := buf.Bytes(), recordsFileName
	if gz {
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(data)
		zw.Close()
		data, name = z.Bytes(), recordsFileName+".gz"
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// gridOfRecords is the grid of run.json that covers recs.
func gridOfRecords(recs []results.Record) results.Grid {
	var g results.Grid
	for _, r := range recs {
		g.Agents = append(g.Agents, r.Agent)
		g.Families = append(g.Families, r.Family)
		g.Perturbations = append(g.Perturbations, r.Perturbation)
		if r.SceneSize != 0 {
			g.SceneSizes = append(g.SceneSizes, r.SceneSize)
		}
		g.Episodes = max(g.Episodes, r.Episode+1)
		if r.Repeat > 0 {
			g.Repeats = max(g.Repeats, r.Repeat+1)
		}
	}
	return g.Union(results.Grid{})
}

// compareRecs are two agents on two cells, 100 episodes each, 80 won.
func compareRecs(model string) []results.Record {
	var out []results.Record
	for _, agent := range []string{"direct", "sgcot"} {
		for _, pert := range []string{"absence", "none"} {
			for i := range 100 {
				out = append(out, results.Record{Schema: results.SchemaVersion, Suite: 1, Outcome: results.OutcomeScored,
					Track: "tabletop", Family: "pick_place", Perturbation: pert, Agent: agent, Model: model, Seed: 1, Episode: i,
					Success: i%5 != 0, ADA: i%5 != 0, ToolCalls: map[string]int{}})
			}
		}
	}
	return out
}

var compareSettings = map[string]string{"suite": "1", "schema": "2", "track": "tabletop", "seed": "1", "step_limit": "40"}

func TestCompareCmd(t *testing.T) {
	t.Parallel()
	base := writeRun(t, compareSettings, compareRecs("sim"), false)
	// The README's power size, 0.26, dropped on sgcot's absence cell: 26
	// of its 80 successes (SR and ADA) turned to failures.
	dropped := compareRecs("sim:salt=1")
	flipped := 0
	for i := range dropped {
		r := &dropped[i]
		if r.Agent == "sgcot" && r.Perturbation == "absence" && r.Success && flipped < 26 {
			r.Success, r.ADA = false, false
			flipped++
		}
	}
	infra := compareRecs("sim")
	infra[3].Outcome, infra[3].ErrorKind = results.OutcomeInfraError, "timeout"
	oneFlip := compareRecs("sim")
	oneFlip[7].Success = !oneFlip[7].Success
	otherSeed := map[string]string{}
	for k, v := range compareSettings {
		otherSeed[k] = v
	}
	otherSeed["seed"] = "2"
	otherSuite := map[string]string{}
	for k, v := range compareSettings {
		otherSuite[k] = v
	}
	otherSuite["suite"] = "2"
	// The records of those runs say what their run.json does.
	with := func(change func(*results.Record)) []results.Record {
		recs := compareRecs("sim")
		for i := range recs {
			change(&recs[i])
		}
		return recs
	}
	seed2 := with(func(r *results.Record) { r.Seed = 2 })
	suite2 := with(func(r *results.Record) { r.Suite = 2 })
	for _, tc := range []struct {
		why      string
		new      string
		flags    []string
		code     int
		out, err string
	}{
		{why: "two identical runs pass", new: writeRun(t, compareSettings, compareRecs("sim"), false), code: 0, out: "PASS"},
		{why: "a stored baseline's records.jsonl.gz is read as well", new: writeRun(t, compareSettings, compareRecs("sim"), true), code: 0, out: "PASS"},
		{why: "a drop of the power size on one agent's cell fails, naming agent, cell and p", new: writeRun(t, compareSettings, dropped, false), code: 1,
			err: "first sgcot on tabletop pick_place/absence: SR 0.800 -> 0.540 (p=3e-08, Holm p=2.4e-07)"},
		{why: "the same drop on an agent that is not gated passes", new: writeRun(t, compareSettings, dropped, false), flags: []string{"--agents", "direct"}, code: 0, out: "worse (not gated)"},
		{why: "episodes that do not pair exit 2 with the reason", new: writeRun(t, compareSettings, compareRecs("sim")[:150], false), code: 2,
			err: "episodes that do not pair: direct tabletop pick_place/none: 100 episodes in BASE and 50 in NEW, 50 only in BASE"},
		{why: "a different seed exits 2 naming it", new: writeRun(t, otherSeed, seed2, false), code: 2, err: "seed: 1 in BASE, 2 in NEW"},
		{why: "another suite version is refused", new: writeRun(t, otherSuite, suite2, false), code: 2, err: "--allow-suite-mismatch"},
		{why: "another suite version, allowed", new: writeRun(t, otherSuite, suite2, false), flags: []string{"--allow-suite-mismatch"}, code: 0, out: "suite 1 in BASE, 2 in NEW"},
		{why: "infra pairs are left out and counted", new: writeRun(t, compareSettings, infra, false), code: 0, out: "399 paired episodes; 1 pair left out for infrastructure errors (0 in BASE, 1 in NEW)"},
		{why: "--exact fails on a single flipped field", new: writeRun(t, compareSettings, oneFlip, false), flags: []string{"--exact"}, code: 1,
			err: "tabletop/pick_place/absence/direct/sim/1/7: success is true in BASE, false in NEW"},
		{why: "--exact passes identical records", new: writeRun(t, compareSettings, compareRecs("sim"), false), flags: []string{"--exact"}, code: 0, out: "every pair is equal"},
		{why: "an unknown metric is refused", new: base, flags: []string{"--metrics", "SPL"}, code: 2, err: `unknown metric "SPL"`},
		{why: "a directory without run.json is refused", new: t.TempDir(), code: 2, err: "has no run.json"},
		{why: "an episode recorded twice is refused, naming both lines, rather than paired by its later line", new: writeRun(t, compareSettings, append(compareRecs("sim"), compareRecs("sim")[5]), false), code: 2,
			err: "records.jsonl:401: episode \"tabletop\"/\"pick_place\"/\"absence\"/\"direct\"/\"sim\"/1/5 appears twice, first at line 6"},
		{why: "a record of another seed than run.json's is refused, naming its line", new: writeRun(t, compareSettings, append(compareRecs("sim")[:399], func() results.Record { r := compareRecs("sim")[399]; r.Seed = 2; return r }()), false), code: 2,
			err: `records.jsonl:400: field "seed": 2, but the run's run.json says seed 1`},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(&stdout, &stderr, append(append([]string{"compare"}, tc.flags...), base, tc.new))
		if code != tc.code || !strings.Contains(stdout.String(), tc.out) || !strings.Contains(stderr.String(), tc.err) {
			t.Errorf("%s: exit %d, want %d (and %q in stdout, %q in stderr)\nstdout: %s\nstderr: %s", tc.why, code, tc.code, tc.out, tc.err, tail(stdout.String()), stderr.String())
		}
	}
}

func tail(s string) string {
	if len(s) > 600 {
		return "…" + s[len(s)-600:]
	}
	return s
}

// TestCompareMarkdown is the golden file of --format markdown, a drop on
// one cell: the table a pull-request comment shows.
func TestCompareMarkdown(t *testing.T) {
	t.Parallel()
	recs := compareRecs("sim")
	dropped := compareRecs("sim:salt=1")
	for i := range dropped {
		if dropped[i].Agent == "sgcot" && dropped[i].Perturbation == "absence" && dropped[i].Episode < 40 {
			dropped[i].Success = false
		}
	}
	base, new := writeRun(t, compareSettings, recs, false), writeRun(t, compareSettings, dropped, false)
	var stdout, stderr bytes.Buffer
	if code := Main(&stdout, &stderr, []string{"compare", "--format", "markdown", base, new}); code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stderr.String())
	}
	got := strings.NewReplacer(base, "BASE_DIR", new, "NEW_DIR").Replace(stdout.String())
	golden(t, "compare.md", []byte(got))
}

func TestCompareHelp(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	if code := Main(&stdout, &stderr, []string{"compare", "--help"}); code != 0 || !strings.Contains(stdout.String(), "Usage: ambibench compare [flags] BASE NEW") {
		t.Errorf("exit %d, stdout %q", code, stdout.String())
	}
	if code := Main(&stdout, &stderr, []string{"compare", "onlyone"}); code != 2 {
		t.Errorf("one argument: exit %d, want 2", code)
	}
	_ = fmt.Sprint
}
