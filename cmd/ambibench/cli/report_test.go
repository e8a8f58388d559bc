package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/results"
)

// testdata/report/records.jsonl is a small real run, kept as it was written:
//
//	ambibench run --agents oracle,rules,random,direct,sgcot,sgcot-full-graph,sgcot-no-edges \
//	  --tasks pick_place,handover --perturbations none,absence,multiplicity,partial_observability \
//	  --episodes 2 --out testdata/report
//
// Its report must not change unless the report does.
func TestReportGolden(t *testing.T) {
	t.Parallel()
	out, errOut, err := runCLI(t, "report", "--out", "-", filepath.Join("testdata", "report"))
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	golden(t, "report.golden", []byte(out))
	if _, err := os.Stat(filepath.Join("testdata", "report", "report.md")); err == nil {
		t.Error("--out - wrote testdata/report/report.md")
	}
}

// copyFixture puts the fixture's records and run.json, or data if given
// and the run.json of its records, in a fresh directory.
func copyFixture(t *testing.T, data []byte) string {
	t.Helper()
	dir := t.TempDir()
	if data == nil {
		copyDir(t, filepath.Join("testdata", "report"), dir)
		os.Remove(filepath.Join(dir, "report.md"))
		return dir
	}
	if err := results.WriteRunFile(dir, runFileOf(data)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "records.jsonl"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runFileOf is the run.json of the records in data, as run writes it:
// the track, seed, suite and schema of its first record, and the grid of
// them all. Lines that do not read are passed over, so that a fixture of
// broken records gets the run.json of its others.
func runFileOf(data []byte) results.RunFile {
	var recs []results.Record
	for _, line := range bytes.Split(data, []byte("\n")) {
		var r results.Record
		if json.Unmarshal(line, &r) == nil {
			recs = append(recs, r)
		}
	}
	rf := results.RunFile{Settings: map[string]string{}, Grid: gridOfRecords(recs)}
	if len(recs) > 0 {
		r := recs[0]
		rf.Settings = map[string]string{"track": r.Track, "seed": strconv.FormatUint(r.Seed, 10), "suite": strconv.Itoa(r.Suite), "schema": strconv.Itoa(results.SchemaVersion)}
	}
	return rf
}

func TestReportWritesWhereTold(t *testing.T) {
	t.Parallel()
	dir := copyFixture(t, nil)
	out, _, err := runCLI(t, "report", dir)
	if err != nil {
		t.Fatal(err)
	}
	if md, err := os.ReadFile(filepath.Join(dir, "report.md")); err != nil || string(md) != out {
		t.Errorf("DIR/report.md (err %v) is not what was printed", err)
	}
	// --out goes before or after DIR.
	for _, tc := range []struct {
		file string
		args []string
	}{
		{"before.md", []string{"report", "--out", filepath.Join(dir, "before.md"), dir}},
		{"after.md", []string{"report", dir, "--out", filepath.Join(dir, "after.md")}},
	} {
		got, _, err := runCLI(t, tc.args...)
		if err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if got != out {
			t.Errorf("%q printed another report", tc.args)
		}
		if md, err := os.ReadFile(filepath.Join(dir, tc.file)); err != nil || string(md) != out {
			t.Errorf("%q: %s (err %v) is not the report", tc.args, tc.file, err)
		}
	}
}

// The flags change the paired comparisons, and only them.
func TestReportPairsFlags(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "report")
	def, _, err := runCLI(t, "report", "--out", "-", dir)
	if err != nil {
		t.Fatal(err)
	}
	base, _, err := runCLI(t, "report", "--out", "-", "--baseline", "rules", dir)
	if err != nil {
		t.Fatal(err)
	}
	all, _, err := runCLI(t, "report", "--out", "-", "--all-pairs", dir)
	if err != nil {
		t.Fatal(err)
	}
	pairs := func(s string) int { return strings.Count(s[strings.Index(s, "## Paired"):], " | SR | ") }
	// Default: direct, sgcot-full-graph, sgcot-no-edges against sgcot.
	// --baseline rules: the six others. --all-pairs: 7·6/2.
	if got := []int{pairs(def), pairs(base), pairs(all)}; got[0] != 3 || got[1] != 6 || got[2] != 21 {
		t.Errorf("SR comparisons: default %d, --baseline rules %d, --all-pairs %d; want 3, 6, 21", got[0], got[1], got[2])
	}
	before := func(s string) string { return s[:strings.Index(s, "## Paired")] }
	if before(def) != before(base) || before(def) != before(all) {
		t.Error("the pair flags changed a table other than the paired comparisons")
	}
}

func TestReportBadInvocations(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	fixture := filepath.Join("testdata", "report")
	broken := copyFixture(t, []byte("{\"schema\":2,\"suite\":1,\"outcome\":\"scored\",\"track\":\"tabletop\",\"family\":\"pick_place\",\"perturbation\":\"none\",\"agent\":\"oracle\",\"episode\":0}\n{\"schema\":2,\"episode\":\"seven\"}\n"))
	blank := copyFixture(t, []byte("\n"))
	noRecords := copyFixture(t, nil)
	os.Remove(filepath.Join(noRecords, "records.jsonl"))
	// The fixture with its third record edited: what report would leave
	// out of every table, or count under a family of no table.
	edited := func(from, to string) string {
		dir := copyFixture(t, nil)
		path := filepath.Join(dir, "records.jsonl")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		if !bytes.Contains(lines[2], []byte(from)) {
			t.Fatalf("fixture line 3 holds no %s", from)
		}
		lines[2] = bytes.Replace(lines[2], []byte(from), []byte(to), 1)
		if err := os.WriteFile(path, bytes.Join(lines, nil), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	// The fixture with its run.json replaced by text.
	withRunFile := func(text string) string {
		dir := copyFixture(t, nil)
		if err := os.WriteFile(filepath.Join(dir, results.RunFileName), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	unknownTrack := copyFixture(t, nil)
	rf := runFileOf(nil)
	rf.Settings["track"] = "kitchen"
	if err := results.WriteRunFile(unknownTrack, rf); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		why  string
		args []string
		want string // in the error or on stderr
	}{
		{"no DIR", []string{"report"}, "missing DIR"},
		{"DIR that is not there is named, and said not to exist", []string{"report", "/nonexistent/run"}, "/nonexistent/run does not exist (want the DIR of ambibench run --out DIR)"},
		{"a file is not a DIR", []string{"report", filepath.Join(fixture, "records.jsonl")}, "is not a directory"},
		{"DIR without run.json is refused, as compare and merge refuse it", []string{"report", empty}, empty + " has no run.json"},
		{"DIR without records names the file", []string{"report", noRecords}, noRecords + " holds neither records.jsonl"},
		{"a record of a track other than run.json's is named by file and line", []string{"report", edited(`"track":"tabletop"`, `"track":"tabletopx"`)}, `records.jsonl:3: field "track": "tabletopx", but the run's run.json says track "tabletop"`},
		{"a record of a family outside the grid is named by file and line", []string{"report", edited(`"family":"pick_place"`, `"family":"pick_plce"`)}, `records.jsonl:3: field "family": "pick_plce" is not among the grid's families in the run's run.json (handover, pick_place)`},
		{"a record of a perturbation outside the grid is named by file and line", []string{"report", edited(`"perturbation":"none"`, `"perturbation":"nonee"`)}, `records.jsonl:3: field "perturbation": "nonee" is not among the grid's perturbations`},
		{"a record of another seed is named by file and line", []string{"report", edited(`"seed":1,`, `"seed":2,`)}, `records.jsonl:3: field "seed": 2, but the run's run.json says seed 1`},
		{"a run.json of a track this build lacks is named", []string{"report", unknownTrack}, `run.json: field "settings.track": "kitchen" is not a track of this build`},
		{"an empty run.json says so, not EOF", []string{"report", withRunFile("")}, "run.json: empty file"},
		{"a run.json with a null grid names the field", []string{"report", withRunFile(`{"settings":{},"grid":null}`)}, `run.json: field "grid": missing or null`},
		{"a run.json with a negative episode count names the field", []string{"report", withRunFile(`{"settings":{},"grid":{"agents":["oracle"],"episodes":-5}}`)}, `run.json: field "grid.episodes": -5 is negative`},
		{"a run.json of shard 0 of 0 names the field", []string{"report", withRunFile(`{"settings":{},"grid":{"agents":["oracle"],"episodes":2},"shard":{"index":0,"count":0,"order":{"agents":null,"cells":null}}}`)}, `run.json: field "shard.count": 0`},
		{"DyRef's cut of a tabletop run is refused, naming the track it is of", []string{"report", "--out", "-", "--cut", "dyref", fixture}, `cut "dyref" is of records of the household track, and these records are of the tabletop track`},
		{"a broken line is named by file and line", []string{"report", broken}, `records.jsonl:2: field "episode"`},
		// Was reported as a killed run's last line: a warning, exit 0,
		// a report of the records before the cut.
		{"a records.jsonl.gz cut mid-line is damaged, not a killed run", []string{"report", "--out", "-", gzipCut(t, copyFixture(t, nil), 10, 20)}, "records.jsonl.gz: its gzip stream is cut short"},
		{"a records.jsonl.gz cut at a line's end says so, not just EOF", []string{"report", "--out", "-", gzipCut(t, copyFixture(t, nil), 10, 0)}, "records.jsonl.gz: its gzip stream is cut short"},
		// records.jsonl was reported and the .gz passed over, unsaid.
		{"records.jsonl and records.jsonl.gz both are refused", []string{"report", "--out", "-", withGzip(t, copyFixture(t, nil))}, "holds both records.jsonl and records.jsonl.gz"},
		{"no records is no report", []string{"report", blank}, "holds no records"},
		{"unknown flag is named", []string{"report", "--bogus", fixture}, "bogus"},
		{"two DIRs", []string{"report", fixture, fixture}, "unexpected arguments"},
		{"unknown baseline lists the agents", []string{"report", "--out", "-", "--baseline", "clara", fixture}, `baseline agent "clara" has no records (agents: oracle, random, rules, direct`},
		{"baseline and all pairs conflict", []string{"report", "--baseline", "rules", "--all-pairs", fixture}, "one or the other"},
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
	if _, err := os.Stat(filepath.Join(broken, "report.md")); err == nil {
		t.Error("a failed report left report.md behind")
	}
}

// A run killed mid-write still gets a report of its whole records, with a
// warning that says what was dropped.
func TestReportOfKilledRun(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "report", "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	cut := append(bytes.Join(lines[:10], nil), lines[10][:20]...)
	dir := copyFixture(t, cut)
	out, errOut, err := runCLI(t, "report", "--out", "-", dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut, "truncated last line") || !strings.Contains(errOut, "10 whole records") {
		t.Errorf("stderr %q does not warn about the cut line", errOut)
	}
	if !strings.Contains(out, "10 records") {
		t.Errorf("report does not count the 10 whole records:\n%s", out)
	}
}

// The report of one shard's directory says, on stderr and under its
// title, that it is of that shard's part of the grid alone.
func TestReportSaysItIsOfAShard(t *testing.T) {
	t.Parallel()
	dirs := shardDirs(t, 2)
	out, errOut, err := runCLI(t, "report", "--out", "-", dirs[1])
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if want := dirs[1] + " is shard 2/2 of a run"; !strings.Contains(errOut, want) {
		t.Errorf("stderr %q lacks %q", errOut, want)
	}
	if want := "Shard 2 of 2 of a run: these tables are of its part of the grid alone"; !strings.Contains(out, want) {
		t.Errorf("the report lacks %q:\n%s", want, out)
	}
	whole, _, err := runCLI(t, "report", "--out", "-", filepath.Join("testdata", "report"))
	if err != nil || strings.Contains(whole, "Shard ") {
		t.Errorf("the report of a whole run (err %v) speaks of a shard", err)
	}
}

func TestReportHelpIsNotAnError(t *testing.T) {
	t.Parallel()
	out, _, err := runCLI(t, "report", "--help")
	if err != nil || !strings.Contains(out, "-baseline") || !strings.Contains(out, "DIR/records.jsonl") {
		t.Errorf("err %v, stdout %q", err, out)
	}
}

// FuzzParseInterspersed: any arguments parse or fail without a panic, and
// the positional arguments come back in their order, each one of the
// arguments given.
func FuzzParseInterspersed(f *testing.F) {
	for _, s := range []string{"DIR", "--out\x00x\x00DIR", "DIR\x00--out\x00x", "--\x00--out", "--all-pairs\x00a\x00b", "--out"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, joined string) {
		args := strings.Split(joined, "\x00")
		fs := flag.NewFlagSet("fuzz", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fs.String("out", "", "")
		fs.Bool("all-pairs", false, "")
		pos, err := parseInterspersed(fs, args)
		if err != nil {
			return
		}
		i := 0
		for _, p := range pos {
			for i < len(args) && args[i] != p {
				i++
			}
			if i == len(args) {
				t.Fatalf("positional %q of %q is not among the arguments, in order", p, pos)
			}
			i++
		}
	})
}
