package cli

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/results"
)

// writeRun writes a run directory: run.json with settings and the grid
// of recs, and recs (gzipped when gz is set).
func writeRun(t testing.TB, settings map[string]string, recs []results.Record, gz bool) string {
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

// gzipCut replaces dir's records.jsonl by a records.jsonl.gz whose
// gzip stream stops, flushed, after the first whole lines and part bytes
// of the next: a stored baseline copied in part. It returns dir.
func gzipCut(t testing.TB, dir string, whole, part int) string {
	t.Helper()
	path := filepath.Join(dir, recordsFileName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(bytes.Join(lines[:whole], nil))
	zw.Write(lines[whole][:part])
	if err := zw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+".gz", z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	return dir
}

// withGzip adds a records.jsonl.gz of dir's records.jsonl beside it.
func withGzip(t testing.TB, dir string) string {
	t.Helper()
	path := filepath.Join(dir, recordsFileName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(data)
	zw.Close()
	if err := os.WriteFile(path+".gz", z.Bytes(), 0o644); err != nil {
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
		// Was read as a killed run's last line: a warning, the pairs of
		// the records before it compared, exit 1 or 0.
		{why: "a records.jsonl.gz cut mid-line is damaged, not a killed run", new: gzipCut(t, writeRun(t, compareSettings, compareRecs("sim"), false), 200, 30), code: 2,
			err: "records.jsonl.gz: its gzip stream is cut short"},
		{why: "a records.jsonl.gz cut at a line's end says so, not just EOF", new: gzipCut(t, writeRun(t, compareSettings, compareRecs("sim"), false), 200, 0), code: 2,
			err: "records.jsonl.gz: its gzip stream is cut short"},
		// records.jsonl was read and the .gz passed over, unsaid.
		{why: "records.jsonl and records.jsonl.gz both are refused", new: withGzip(t, writeRun(t, compareSettings, compareRecs("sim"), false)), code: 2,
			err: "holds both records.jsonl and records.jsonl.gz"},
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

// TestCompareReadsSideBySide: compare reads both runs at once, but says
// what reading BASE whole and then NEW said: BASE's error first wherever
// it is, the notes of lines cut short in that order, and the same output
// whatever order the runs' records come in.
func TestCompareReadsSideBySide(t *testing.T) {
	t.Parallel()
	recs := compareRecs("sim")
	base := writeRun(t, compareSettings, recs, false)
	// cut drops the last bytes of a run's records: a killed run's last
	// line, which is noted and left out.
	cut := func(dir string) string {
		path := filepath.Join(dir, recordsFileName)
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(path, info.Size()-20); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	// BASE's bad last line is further on than the records a reader reads
	// ahead of the comparison.
	var many []results.Record
	for k := range 8 {
		for _, r := range recs {
			r.Agent += strconv.Itoa(k)
			many = append(many, r)
		}
	}
	badLast := slices.Clone(many)
	badLast[len(badLast)-1].Seed = 2
	badFirst := slices.Clone(recs)
	badFirst[0].Seed = 2
	const (
		noteBase = "records.jsonl:400: truncated last line"
		badSeed  = `field "seed": 2, but the run's run.json says seed 1`
	)
	run := func(args ...string) (code int, stdout, stderr string) {
		var out, err bytes.Buffer
		code = Main(&out, &err, append([]string{"compare"}, args...))
		return code, out.String(), err.String()
	}
	t.Run("BASE's last record is bad and NEW is missing: BASE's error", func(t *testing.T) {
		t.Parallel()
		code, _, stderr := run(writeRun(t, compareSettings, badLast, false), filepath.Join(t.TempDir(), "none"))
		if code != 2 || !strings.Contains(stderr, "compare: BASE: ") || !strings.Contains(stderr, "records.jsonl:3200: "+badSeed) || strings.Contains(stderr, "does not exist") {
			t.Errorf("exit %d, stderr %q; want BASE's line 3200 alone", code, stderr)
		}
	})
	t.Run("both cut short: BASE's note, then NEW's", func(t *testing.T) {
		t.Parallel()
		b, n := cut(writeRun(t, compareSettings, recs, false)), cut(writeRun(t, compareSettings, recs, false))
		code, _, stderr := run(b, n)
		if i, j := strings.Index(stderr, b+"/"+noteBase), strings.Index(stderr, n+"/"+noteBase); code != 0 || i < 0 || j < i {
			t.Errorf("exit %d, stderr %q; want BASE's note, then NEW's", code, stderr)
		}
	})
	t.Run("NEW's first record is bad, BASE cut short: BASE's note, then NEW's error", func(t *testing.T) {
		t.Parallel()
		b := cut(writeRun(t, compareSettings, recs, false))
		code, _, stderr := run(b, writeRun(t, compareSettings, badFirst, false))
		want := "ambibench: compare: " + b + "/" + noteBase
		if code != 2 || !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, "compare: NEW: ") || !strings.Contains(stderr, "records.jsonl:1: "+badSeed) {
			t.Errorf("exit %d, stderr %q; want %q, then NEW's line 1", code, stderr, want)
		}
	})
	t.Run("BASE's last record is bad, NEW cut short: BASE's error alone", func(t *testing.T) {
		t.Parallel()
		code, _, stderr := run(writeRun(t, compareSettings, badLast, false), cut(writeRun(t, compareSettings, many, false)))
		if code != 2 || strings.Contains(stderr, "truncated") || !strings.Contains(stderr, "compare: BASE: ") {
			t.Errorf("exit %d, stderr %q; want BASE's error alone", code, stderr)
		}
	})
	t.Run("records in another order: the same comparison", func(t *testing.T) {
		t.Parallel()
		flipped := compareRecs("sim")
		for i := range flipped {
			if flipped[i].Perturbation == "none" && flipped[i].Episode%3 == 0 {
				flipped[i].Success = !flipped[i].Success
			}
		}
		same := writeRun(t, compareSettings, flipped, false)
		shuffled := slices.Clone(flipped)
		rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		for _, flags := range [][]string{nil, {"--exact"}} {
			code, want, wantErr := run(append(slices.Clone(flags), base, same)...)
			if code != 1 || !strings.Contains(want, "worse") {
				t.Fatalf("%v: exit %d, stdout %s", flags, code, tail(want))
			}
			reversed := slices.Clone(flipped)
			slices.Reverse(reversed)
			for _, other := range []string{writeRun(t, compareSettings, reversed, false), writeRun(t, compareSettings, shuffled, false)} {
				gotCode, got, gotErr := run(append(slices.Clone(flags), base, other)...)
				got = strings.ReplaceAll(got, other, same)
				gotErr = strings.ReplaceAll(gotErr, other, same)
				if gotCode != code || got != want || gotErr != wantErr {
					t.Errorf("%v: NEW in another order: exit %d, stdout\n%s\nstderr %s\nwant exit %d,\n%s\n%s", flags, gotCode, got, gotErr, code, want, wantErr)
				}
			}
		}
	})
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

// TestCheckRunBits: compare's check of each record, a bit an episode,
// refuses what checkRun refuses, with the same error, on random runs
// with episodes twice, episodes under two models or two seeds (which are
// not the same episode to OnceEach, but set the same bit), repeats, and
// gzipped records, which the check reads again when a bit is set twice.
func TestCheckRunBits(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(36, 3))
	refused := 0
	for trial := range 200 {
		settings := map[string]string{"suite": "1", "schema": "2", "track": "tabletop"}
		if trial%2 == 0 {
			settings["seed"] = "1"
		}
		var recs []results.Record
		for _, agent := range []string{"direct", "sgcot"} {
			for _, pert := range []string{"absence", "none"} {
				for ep := range 1 + rng.IntN(6) {
					for rep := range 2 {
						recs = append(recs, results.Record{Schema: 2, Suite: 1, Outcome: results.OutcomeScored, Track: "tabletop", Family: "pick_place",
							Perturbation: pert, Agent: agent, Model: "sim", Seed: 1, Episode: ep, Repeat: rep})
					}
				}
			}
		}
		rng.Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
		for range rng.IntN(4) {
			r := recs[rng.IntN(len(recs))]
			switch rng.IntN(3) {
			case 0:
				r.Model = "sim:weak"
			case 1:
				if settings["seed"] == "" {
					r.Seed = 2
				}
			}
			at := rng.IntN(len(recs) + 1)
			recs = slices.Insert(recs, at, r)
		}
		dir := writeRun(t, settings, recs, trial%3 == 0)
		rf, _, err := results.ReadRunFile(dir)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, recordsFileName)
		if trial%3 == 0 {
			path += ".gz"
		}
		scan := func(check func(int, results.Record) error) (int, error) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			r, err := recordsReader(f, path)
			if err != nil {
				t.Fatal(err)
			}
			return results.ScanRecords(r, path, check, func(results.Record) error { return nil })
		}
		wantN, wantErr := scan(checkRun(rf))
		gotN, gotErr := scan(checkRunBits(rf, path))
		if gotN != wantN || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("trial %d: checkRunBits passes %d records, %v; checkRun %d, %v", trial, gotN, gotErr, wantN, wantErr)
		}
		if wantErr != nil {
			refused++
		}
	}
	if refused < 20 || refused > 180 {
		t.Errorf("%d of 200 runs refused: the trials do not try both ways", refused)
	}
}
