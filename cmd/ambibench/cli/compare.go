package cli

import (
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/compare"
	"github.com/ambibench/ambibench/results/stats"
)

// exitRegression is the exit status of a compare that found a gated
// regression (or, with --exact, any difference).
const exitRegression = 1

const compareUsage = `Usage: ambibench compare [flags] BASE NEW

Compares two runs on the same episodes: BASE and NEW are run directories
(records.jsonl, or records.jsonl.gz, beside run.json), as ambibench run
--out writes them, or stored baselines in the same layout. Episodes pair by
track, family, perturbation, agent, seed, episode and scene size; the
models may differ, and are what is compared. For each agent and cell
(family x perturbation) it prints the pairs, both rates, the difference,
McNemar's exact p from the discordant pairs, that p after Holm's
correction over all the comparisons made, and a verdict. A cell is scored
by SR and ADA, or by Top1 when its records are queries (semmap).

Exit status: 0 when no gated comparison is worse; 1 when one is (Holm p
below --alpha and a drop of --min-effect or more), or with --exact when a
scored field of any pair differs; 2 on bad input: episodes that do not
pair, settings in run.json that make the episodes differ (each named),
other suite versions without --allow-suite-mismatch.

Pairs where either side ended in an infrastructure error are left out and
counted. Agents or cells in one run only are named and left out.

Flags:
`

// compareCmd is "ambibench compare BASE NEW".
func compareCmd(stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("ambibench compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	alpha := fs.Float64("alpha", 0.05, "significance level of the Holm-corrected p-values")
	minEffect := fs.Float64("min-effect", 0.05, "smallest drop of a rate (absolute: 0.05 is five points) that fails the gate")
	agents := fs.String("agents", "", "comma-separated `agents` that are gated (default all; all are compared)")
	metrics := fs.String("metrics", "", "comma-separated `metrics` that are gated: "+strings.Join(stats.MetricNames, ", ")+" (default each cell's: SR and ADA, Top1 for semmap queries)")
	format := fs.String("format", "text", "output `format`: text, or markdown for a pull-request comment")
	exact := fs.Bool("exact", false, "fail (exit 1) on any difference in a scored field of any pair: for the simulated model, whose runs are deterministic")
	allowSuite := fs.Bool("allow-suite-mismatch", false, "compare runs of different suite versions")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), compareUsage)
		fs.PrintDefaults()
	}
	var pos []string
	if done, err := parseFlags(fs, stdout, stderr, func() (err error) { pos, err = parseInterspersed(fs, args); return err }); done {
		return err
	}
	if len(pos) != 2 {
		return fmt.Errorf("compare: want two directories, BASE and NEW, got %d argument(s) %q (see ambibench compare --help)", len(pos), pos)
	}
	if *format != "text" && *format != "markdown" {
		return fmt.Errorf("compare: --format %q: want text or markdown", *format)
	}
	if !(*alpha > 0 && *alpha < 1) {
		return fmt.Errorf("compare: --alpha %g: want a level between 0 and 1", *alpha)
	}
	if !(*minEffect >= 0 && *minEffect <= 1) {
		return fmt.Errorf("compare: --min-effect %g: want a rate between 0 and 1", *minEffect)
	}
	opts := compare.Options{Alpha: *alpha, MinEffect: *minEffect, Agents: splitList(*agents), Metrics: splitList(*metrics)}
	for _, m := range opts.Metrics {
		if !slices.Contains(stats.MetricNames, m) {
			return fmt.Errorf("compare: --metrics: unknown metric %q (have %s)", m, strings.Join(stats.MetricNames, ", "))
		}
	}
	baseRun, base, err := readRun(pos[0], "compare", "comparing", nil, stderr)
	if err != nil {
		return fmt.Errorf("compare: BASE: %w", err)
	}
	newRun, recs, err := readRun(pos[1], "compare", "comparing", nil, stderr)
	if err != nil {
		return fmt.Errorf("compare: NEW: %w", err)
	}
	compared, err := compare.Settings(baseRun, newRun, *allowSuite)
	if err != nil {
		return fmt.Errorf("compare %s %s: %w", pos[0], pos[1], err)
	}
	for _, a := range opts.Agents {
		if !slices.ContainsFunc(base, func(r results.Record) bool { return r.Agent == a }) &&
			!slices.ContainsFunc(recs, func(r results.Record) bool { return r.Agent == a }) {
			return fmt.Errorf("compare: --agents: no records of agent %q in either run", a)
		}
	}
	res, err := compare.Runs(base, recs, opts)
	if err != nil {
		return fmt.Errorf("compare %s %s: %w", pos[0], pos[1], err)
	}
	var b strings.Builder
	if *format == "markdown" {
		fmt.Fprintf(&b, "BASE `%s`, NEW `%s`", pos[0], pos[1])
	} else {
		fmt.Fprintf(&b, "BASE %s, NEW %s", pos[0], pos[1])
	}
	for _, c := range compared {
		fmt.Fprintf(&b, "; %s %s in BASE, %s in NEW", c.Name, c.Old, c.New)
	}
	b.WriteString("\n\n")
	if *format == "markdown" {
		err = compare.WriteMarkdown(&b, res)
	} else {
		err = compare.WriteText(&b, res)
	}
	if err != nil {
		return err
	}
	var diffs []compare.FieldDiff
	if *exact {
		diffs = compare.ExactDiff(base, recs)
		if len(diffs) == 0 {
			b.WriteString("\n--exact: every pair is equal in every scored field\n")
		} else {
			fmt.Fprintf(&b, "\n--exact: %d difference(s) in scored fields, the first:\n", len(diffs))
			for _, d := range diffs[:min(len(diffs), 5)] {
				b.WriteString("  " + d.String() + "\n")
			}
		}
	}
	if _, err := io.WriteString(stdout, b.String()); err != nil {
		return err
	}
	if f := res.Failures(); len(f) > 0 {
		c := f[0]
		return &exitError{code: exitRegression, err: fmt.Errorf("compare: %d gated comparison(s) significantly worse, first %s on %s %s: %s %.3f -> %.3f (p=%.2g, Holm p=%.2g)",
			len(f), c.Agent, c.Track, c.Cell(), c.Metric, c.RateA().Value(), c.RateB().Value(), c.P, c.Holm)}
	}
	if len(diffs) > 0 {
		return &exitError{code: exitRegression, err: fmt.Errorf("compare --exact: %d difference(s) in scored fields, first %s", len(diffs), diffs[0])}
	}
	return nil
}

// readRun reads a run directory or a stored baseline for the command cmd
// ("compare"), which verb says what it does with the records
// ("comparing"), and returns its records: [scanRun], holding them.
func readRun(dir, cmd, verb string, vet func(results.RunFile) error, stderr io.Writer) (results.RunFile, []results.Record, error) {
	var recs []results.Record
	rf, _, err := scanRun(dir, cmd, verb, vet, stderr, func(r results.Record) error {
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		return rf, nil, err
	}
	return rf, recs, nil
}

// scanRun reads a run directory or a stored baseline for the command cmd
// ("compare"), which verb says what it does with the records
// ("comparing"): run.json, which must be there and read (and pass vet,
// if given), and records.jsonl or, failing that, records.jsonl.gz,
// handing each record in turn to each and keeping none. Each record is
// checked against run.json ([results.RunFile.CheckRecord]) and an
// episode recorded twice is refused ([results.OnceEach]), the error
// naming the file and line. A last line cut short by a killed run is
// noted on stderr, and the records before it are read. It returns
// run.json and the number of records.
func scanRun(dir, cmd, verb string, vet func(results.RunFile) error, stderr io.Writer, each func(results.Record) error) (results.RunFile, int, error) {
	if info, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return results.RunFile{}, 0, fmt.Errorf("%s does not exist (want the DIR of ambibench run --out DIR)", dir)
	} else if err != nil {
		return results.RunFile{}, 0, err
	} else if !info.IsDir() {
		return results.RunFile{}, 0, fmt.Errorf("%s is not a directory (want the DIR of ambibench run --out DIR, or a stored baseline)", dir)
	}
	rf, ok, err := results.ReadRunFile(dir)
	if err != nil {
		return results.RunFile{}, 0, err
	}
	if !ok {
		return results.RunFile{}, 0, fmt.Errorf("%s has no %s, so the run its records belong to is unknown (want the DIR of ambibench run --out DIR, which writes it)", dir, results.RunFileName)
	}
	if vet != nil {
		if err := vet(rf); err != nil {
			return results.RunFile{}, 0, fmt.Errorf("%s: %w", filepath.Join(dir, results.RunFileName), err)
		}
	}
	path := filepath.Join(dir, recordsFileName)
	f, err := os.Open(path)
	var r io.Reader = f
	if errors.Is(err, os.ErrNotExist) {
		path += ".gz"
		f, err = os.Open(path)
		if errors.Is(err, os.ErrNotExist) {
			return rf, 0, fmt.Errorf("%s holds neither %s nor %s.gz", dir, recordsFileName, recordsFileName)
		}
		if err == nil {
			zr, zerr := gzip.NewReader(f)
			if zerr != nil {
				f.Close()
				return rf, 0, fmt.Errorf("%s: %w", path, zerr)
			}
			r = zr
		}
	}
	if err != nil {
		return rf, 0, err
	}
	defer f.Close()
	n, err := results.ScanRecords(r, path, checkRun(rf), each)
	switch {
	case errors.Is(err, results.ErrTruncated):
		fmt.Fprintf(stderr, "ambibench: %s: %v; %s the %d whole records before it\n", cmd, err, verb, n)
	case err != nil:
		return rf, 0, err
	}
	if n == 0 {
		return rf, 0, fmt.Errorf("%s holds no records", path)
	}
	return rf, n, nil
}

// checkRun is the check of each record of a run whose run.json is rf:
// it belongs to the run, and no episode is recorded twice.
func checkRun(rf results.RunFile) func(int, results.Record) error {
	once := results.OnceEach()
	return func(line int, r results.Record) error {
		if err := rf.CheckRecord(r); err != nil {
			return err
		}
		return once(line, r)
	}
}
