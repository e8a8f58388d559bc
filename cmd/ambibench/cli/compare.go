package cli

import (
	"bytes"
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
(records.jsonl, or records.jsonl.gz, beside run.json; not both), as
ambibench run --out writes them, or stored baselines in the same layout.
A records.jsonl whose last line a killed run cut short is read up to it,
with a note; a records.jsonl.gz cut short or damaged is bad input (no run
appends to one). Episodes pair by
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
other suite versions without --allow-suite-mismatch, records that do not
read.

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
	// Both runs are read side by side, each by a goroutine of its own,
	// and paired as they come: two runs of one grid are in one order, so
	// the stream holds a record until the other run's next one, not the
	// runs.
	stream := compare.NewStream(opts)
	if *exact {
		stream.Exact(exactShown)
	}
	baseRun, newRun, err := pairRuns(pos[0], pos[1], stream, stderr)
	if err != nil {
		return err
	}
	compared, err := compare.Settings(baseRun, newRun, *allowSuite)
	if err != nil {
		return fmt.Errorf("compare %s %s: %w", pos[0], pos[1], err)
	}
	for _, a := range opts.Agents {
		if !stream.HasAgent(a) {
			return fmt.Errorf("compare: --agents: no records of agent %q in either run", a)
		}
	}
	res, err := stream.Result()
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
	var ndiffs int
	var diffs []compare.FieldDiff
	if *exact {
		ndiffs, diffs = stream.ExactDiffs()
		if ndiffs == 0 {
			b.WriteString("\n--exact: every pair is equal in every scored field\n")
		} else {
			fmt.Fprintf(&b, "\n--exact: %d difference(s) in scored fields, the first:\n", ndiffs)
			for _, d := range diffs {
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
	if ndiffs > 0 {
		return &exitError{code: exitRegression, err: fmt.Errorf("compare --exact: %d difference(s) in scored fields, first %s", ndiffs, diffs[0])}
	}
	return nil
}

// exactShown is how many of --exact's differences compare shows.
const exactShown = 5

// pairRuns reads the records of the runs in the directories base and new
// side by side into stream (as [scanRun] does, with [checkRunBits], each
// in a goroutine of its own), a record of BASE, then one of NEW, and
// returns their run.json. Its
// errors and notes are those of reading BASE whole and then NEW: an
// error of BASE comes first wherever it is, so when NEW fails first BASE
// is still read to its end.
func pairRuns(base, new string, stream *compare.Stream, stderr io.Writer) (baseRun, newRun results.RunFile, err error) {
	stop := make(chan struct{})
	b, n := scanRunAsync(base, stop), scanRunAsync(new, stop)
	defer func() {
		close(stop)
		for range b.batches {
		}
		for range n.batches {
		}
	}()
	var bs, ns []results.Record
	bOpen, nOpen, nFailed := true, true, false
	for bOpen || nOpen {
		if bOpen && len(bs) == 0 {
			bs, bOpen = <-b.batches
		}
		if nOpen && len(ns) == 0 {
			ns, nOpen = <-n.batches
		}
		// err is set once the channel is closed, and read only then.
		if !bOpen && b.err != nil {
			break // BASE's error is the one given, whatever NEW holds
		}
		if !nOpen && n.err != nil {
			nFailed = true // given unless BASE has an error: read BASE on, but pair no more
		}
		if len(bs) > 0 {
			if !nFailed {
				stream.AddBase(bs[0])
			}
			bs = bs[1:]
		}
		if len(ns) > 0 {
			stream.AddNew(ns[0])
			ns = ns[1:]
		}
	}
	stderr.Write(b.notes.Bytes())
	if b.err != nil {
		return baseRun, newRun, fmt.Errorf("compare: BASE: %w", b.err)
	}
	stderr.Write(n.notes.Bytes())
	if n.err != nil {
		return baseRun, newRun, fmt.Errorf("compare: NEW: %w", n.err)
	}
	return b.rf, n.rf, nil
}

// scanBatch is how many records a run's reader hands over at a time.
const scanBatch = 256

// asyncScan is a run read by [scanRunAsync]: its records come in batches
// until the channel closes, and then rf, err and notes (what scanRun
// wrote to stderr) are set.
type asyncScan struct {
	batches chan []results.Record
	rf      results.RunFile
	err     error
	notes   bytes.Buffer
}

var errScanStopped = errors.New("stopped")

// scanRunAsync reads the run in dir for compare in a goroutine: [scanRun],
// its records sent in batches, until stop closes.
func scanRunAsync(dir string, stop <-chan struct{}) *asyncScan {
	s := &asyncScan{batches: make(chan []results.Record, 2)}
	go func() {
		defer close(s.batches)
		batch := make([]results.Record, 0, scanBatch)
		send := func() error {
			select {
			case <-stop:
				return errScanStopped
			default:
			}
			select {
			case s.batches <- batch:
				batch = make([]results.Record, 0, scanBatch)
				return nil
			case <-stop:
				return errScanStopped
			}
		}
		s.rf, _, s.err = scanRunChecked(dir, "compare", "comparing", nil, &s.notes, checkRunBits, func(r results.Record) error {
			batch = append(batch, r)
			if len(batch) == scanBatch {
				return send()
			}
			return nil
		})
		if s.err == nil && len(batch) > 0 {
			send()
		}
	}()
	return s
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
// if given), and records.jsonl or records.jsonl.gz (not both: which
// holds the run would be a guess), handing each record in turn to each
// and keeping none. Each record is checked against run.json
// ([results.RunFile.CheckRecord]) and an episode recorded twice is
// refused ([results.OnceEach]), the error naming the file and line. A
// last line of records.jsonl cut short by a killed run is noted on
// stderr, and the records before it are read; a records.jsonl.gz cut
// short or damaged is an error (no run appends to one). It returns
// run.json and the number of records.
func scanRun(dir, cmd, verb string, vet func(results.RunFile) error, stderr io.Writer, each func(results.Record) error) (results.RunFile, int, error) {
	return scanRunChecked(dir, cmd, verb, vet, stderr, func(rf results.RunFile, _ string) func(int, results.Record) error { return checkRun(rf) }, each)
}

// scanRunChecked is [scanRun] with the check of each record made by
// check from run.json and the path of the records.
func scanRunChecked(dir, cmd, verb string, vet func(results.RunFile) error, stderr io.Writer,
	check func(rf results.RunFile, path string) func(int, results.Record) error, each func(results.Record) error) (results.RunFile, int, error) {
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
	if errors.Is(err, os.ErrNotExist) {
		path += ".gz"
		f, err = os.Open(path)
		if errors.Is(err, os.ErrNotExist) {
			return rf, 0, fmt.Errorf("%s holds neither %s nor %s.gz", dir, recordsFileName, recordsFileName)
		}
	} else if _, gzErr := os.Stat(path + ".gz"); gzErr == nil {
		if err == nil {
			f.Close()
		}
		return rf, 0, fmt.Errorf("%s holds both %s and %s.gz, and which holds the run is unknown; move one of them away", dir, recordsFileName, recordsFileName)
	}
	if err != nil {
		return rf, 0, err
	}
	defer f.Close()
	r, err := recordsReader(f, path)
	if err != nil {
		return rf, 0, err
	}
	n, err := results.ScanRecords(r, path, check(rf, path), each)
	if gzErr := gzipDamage(r); gzErr != nil {
		// The scanner hands on the records the stream held before it
		// broke, and what it ends with reads as a killed run's last
		// line; but no run appends to a .gz, which is written whole.
		return rf, 0, gzErr
	}
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

// recordsReader reads the records of f, opened at path: through gzip
// when the path ends in .gz, as a *gzipRecords (see gzipDamage).
func recordsReader(f *os.File, path string) (io.Reader, error) {
	if !strings.HasSuffix(path, ".gz") {
		return f, nil
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: not a whole gzip file (%v): a damaged or partly copied file; gzip its records.jsonl again", path, err)
	}
	return &gzipRecords{path: path, zr: zr}, nil
}

// gzipRecords reads a records.jsonl.gz, keeping the error its stream
// broke with, if any.
type gzipRecords struct {
	path string
	zr   *gzip.Reader
	err  error
}

func (g *gzipRecords) Read(p []byte) (int, error) {
	n, err := g.zr.Read(p)
	if err != nil && err != io.EOF {
		how := "is damaged"
		if errors.Is(err, io.ErrUnexpectedEOF) {
			how = "is cut short"
		}
		g.err = fmt.Errorf("%s: its gzip stream %s (%v): a damaged or partly copied file, not a killed run's (no run appends to a .gz); gzip its records.jsonl again", g.path, how, err)
		err = g.err
	}
	return n, err
}

// gzipDamage is the error the gzip stream of r, from recordsReader,
// broke with: nil when r is no .gz's or read whole.
func gzipDamage(r io.Reader) error {
	if g, ok := r.(*gzipRecords); ok {
		return g.err
	}
	return nil
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

// checkRunBits is [checkRun] in a bit an episode rather than
// [results.OnceEach]'s 24 bytes, for the records at path: a record
// checked belongs to the grid of run.json, so its agent and cell and its
// episode and repeat are a bit of a set per agent and cell. Only when a
// bit is set twice (an episode twice, or twice under two models or
// seeds, which OnceEach lets pass) does it turn to OnceEach, given the
// lines before it first (read again from path), so that the first
// episode recorded twice is refused exactly as checkRun refuses it,
// naming both lines.
func checkRunBits(rf results.RunFile, path string) func(int, results.Record) error {
	repeats := max(rf.Grid.Repeats, 1)
	type cell struct {
		track, family, perturbation, agent string
		size                               int
	}
	seen := map[cell]*[]uint64{}
	var last cell
	var bits *[]uint64 // last's: a run's records come a cell at a time
	// firstTime sets the record's bit and reports whether it was clear.
	firstTime := func(r results.Record) bool {
		if r.Episode < 0 || r.Repeat < 0 || r.Repeat >= repeats || r.Episode >= maxBits/repeats {
			return false // not a grid's: let OnceEach judge
		}
		if c := (cell{r.Track, r.Family, r.Perturbation, r.Agent, r.SceneSize}); bits == nil || c != last {
			if bits = seen[c]; bits == nil {
				bits = new([]uint64)
				seen[c] = bits
			}
			last = c
		}
		i := r.Episode*repeats + r.Repeat
		w, bit := i/64, uint64(1)<<(i%64)
		if w >= len(*bits) {
			*bits = append(*bits, make([]uint64, w+1-len(*bits))...)
		}
		if (*bits)[w]&bit != 0 {
			return false
		}
		(*bits)[w] |= bit
		return true
	}
	var once func(int, results.Record) error
	return func(line int, r results.Record) error {
		if err := rf.CheckRecord(r); err != nil {
			return err
		}
		if once == nil {
			if firstTime(r) {
				return nil
			}
			once = results.OnceEach()
			if err := replayOnce(path, line, once); err != nil {
				return err
			}
		}
		return once(line, r)
	}
}

// maxBits bounds the episodes (times repeats) of an agent and cell that
// checkRunBits keeps as bits, to 2 MiB a cell; a record past it is
// checked by OnceEach.
const maxBits = 1 << 24

var errReplayed = errors.New("replayed")

// replayOnce gives once the records of path before line.
func replayOnce(path string, line int, once func(int, results.Record) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r, err := recordsReader(f, path)
	if err != nil {
		return err
	}
	_, err = results.ScanRecords(r, path, func(l int, rec results.Record) error {
		if l >= line {
			return errReplayed
		}
		return once(l, rec)
	}, func(results.Record) error { return nil })
	if errors.Is(err, errReplayed) {
		return nil
	}
	if err := gzipDamage(r); err != nil {
		return err
	}
	if err == nil || errors.Is(err, results.ErrTruncated) {
		return fmt.Errorf("%s changed while it was read (line %d is gone)", path, line)
	}
	return err
}
