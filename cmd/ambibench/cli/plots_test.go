package cli

import (
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/results/reports"
)

// The map-size plot lands next to the report, or where --plots says, and
// the report links it from there; a report on stdout only and a run
// without semmap records write none.
func TestReportWritesMapSizePlot(t *testing.T) {
	t.Parallel()
	run := t.TempDir()
	// Twenty negation queries are the first two maps' ten each: two map
	// sizes, the least that makes a series.
	if _, stderr, err := runCLI(t, "run", "--track", "semmap", "--agents", "rules,random", "--tasks", "negation",
		"--episodes", "20", "--out", run); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr)
	}
	other := t.TempDir()
	for _, tc := range []struct {
		why      string
		args     []string
		plot     string // where the PNG must be; "" for none
		link     string // what the report links; "" for no link
		reportAt string // the report file to read the link from; "" for stdout
	}{
		{"by default next to DIR/report.md", nil, filepath.Join(run, reports.MapSizePlotFile), reports.MapSizePlotFile, filepath.Join(run, "report.md")},
		{"next to a report written elsewhere", []string{"--out", filepath.Join(other, "r", "report.md")},
			filepath.Join(other, "r", reports.MapSizePlotFile), reports.MapSizePlotFile, filepath.Join(other, "r", "report.md")},
		{"in --plots, linked relative to the report", []string{"--plots", filepath.Join(run, "figs")},
			filepath.Join(run, "figs", reports.MapSizePlotFile), "figs/" + reports.MapSizePlotFile, filepath.Join(run, "report.md")},
		{"none with the report on stdout only", []string{"--out", "-"}, "", "", ""},
		{"none with --plots -", []string{"--plots", "-"}, "", "", filepath.Join(run, "report.md")},
	} {
		t.Run(tc.why, func(t *testing.T) {
			for _, p := range []string{filepath.Join(run, reports.MapSizePlotFile), filepath.Join(run, "figs"), filepath.Join(other, "r")} {
				os.RemoveAll(p)
			}
			stdout, stderr, err := runCLI(t, append(append([]string{"report"}, tc.args...), run)...)
			if err != nil {
				t.Fatalf("report: %v\n%s", err, stderr)
			}
			report := stdout
			if tc.reportAt != "" {
				b, err := os.ReadFile(tc.reportAt)
				if err != nil {
					t.Fatal(err)
				}
				report = string(b)
			}
			if tc.plot == "" {
				if _, err := os.Stat(filepath.Join(run, reports.MapSizePlotFile)); err == nil {
					t.Errorf("a plot was written to the run directory")
				}
				if strings.Contains(report, "![Top-Any") {
					t.Errorf("the report links a plot that was not written")
				}
				return
			}
			f, err := os.Open(tc.plot)
			if err != nil {
				t.Fatalf("no plot: %v", err)
			}
			defer f.Close()
			if _, err := png.Decode(f); err != nil {
				t.Errorf("%s is not a PNG: %v", tc.plot, err)
			}
			if want := "![Top-Any against map size](" + tc.link + ")"; !strings.Contains(report, want) {
				t.Errorf("the report lacks %q", want)
			}
		})
	}
}

func TestReportWritesNoPlotForTabletop(t *testing.T) {
	t.Parallel()
	dir := copyFixture(t, nil)
	if _, stderr, err := runCLI(t, "report", dir); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, reports.MapSizePlotFile)); err == nil {
		t.Error("a tabletop run got a semmap plot")
	}
}

// Every plot the tracks present list, and only those with something to
// show, lands next to the report and is linked from it once; the plots of
// other tracks and those with nothing to show are neither written nor
// linked.
func TestReportWritesTrackPlots(t *testing.T) {
	t.Parallel()
	sized := t.TempDir()
	if _, stderr, err := runCLI(t, "run", "--track", "tabletop", "--agents", "rules,direct", "--model", "sim", "--tasks", "pick_place",
		"--perturbations", "none", "--scene-sizes", "6,12", "--episodes", "2", "--out", sized); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr)
	}
	all := []string{reports.RatesPlotFile, reports.TrialsPlotFile, reports.SceneSizePlotFile, reports.MapSizePlotFile}
	for _, tc := range []struct {
		why  string
		dir  string
		want []string // the plots written and linked
	}{
		{"tabletop without scene sizes", copyFixture(t, nil), []string{reports.RatesPlotFile}},
		{"tabletop with scene sizes", sized, []string{reports.RatesPlotFile, reports.SceneSizePlotFile}},
		{"household", householdFixture(t), []string{reports.TrialsPlotFile}},
	} {
		t.Run(tc.why, func(t *testing.T) {
			if _, stderr, err := runCLI(t, "report", tc.dir); err != nil {
				t.Fatalf("report: %v\n%s", err, stderr)
			}
			report, err := os.ReadFile(filepath.Join(tc.dir, "report.md"))
			if err != nil {
				t.Fatal(err)
			}
			for _, file := range all {
				want := slices.Contains(tc.want, file)
				f, err := os.Open(filepath.Join(tc.dir, file))
				if (err == nil) != want {
					t.Errorf("%s written: %v, want %v", file, err == nil, want)
				}
				if err == nil {
					if _, err := png.Decode(f); err != nil {
						t.Errorf("%s is not a PNG: %v", file, err)
					}
					f.Close()
				}
				link := "](" + file + ")"
				if n := strings.Count(string(report), link); n != b2i(want) {
					t.Errorf("the report links %s %d times, want %d", file, n, b2i(want))
				}
			}
		})
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
