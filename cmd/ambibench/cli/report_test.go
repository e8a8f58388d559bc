package cli

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

// copyFixture puts the fixture's records, or data if given, in a fresh
// directory.
func copyFixture(t *testing.T, data []byte) string {
	t.Helper()
	if data == nil {
		var err error
		if data, err = os.ReadFile(filepath.Join("testdata", "report", "records.jsonl")); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "records.jsonl"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
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
	for _, tc := range []struct {
		why  string
		args []string
		want string // in the error or on stderr
	}{
		{"no DIR", []string{"report"}, "missing DIR"},
		{"DIR that is not there is named", []string{"report", "/nonexistent/run"}, "/nonexistent/run"},
		{"a file is not a DIR", []string{"report", filepath.Join(fixture, "records.jsonl")}, "is not a directory"},
		{"DIR without records names the file", []string{"report", empty}, filepath.Join(empty, "records.jsonl")},
		{"a broken line is named by file and line", []string{"report", broken}, `records.jsonl:2: field "episode"`},
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
