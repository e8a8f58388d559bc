package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
)

const mergeUsage = `Usage: ambibench merge --out OUT DIR...

Joins the directories of the shards of one run (ambibench run --shard i/n
--out DIR, for i from 1 to n) into OUT, a directory of the whole run:
OUT/records.jsonl holds every shard's records in the order the unsharded
run writes them, and is byte for byte that run's file apart from the
timings (wall_ms, latency_p50_ms, latency_p95_ms); OUT/run.json is the
unsharded run's, and OUT/summary.md the summary it writes. When the shards
kept transcripts (run --transcripts), OUT/transcripts.jsonl holds every
shard's calls once: the calls of no record first (clara's calibration
split, which each shard made, once), then each episode's, in the records'
order; the lines of an episode a shard holds no record of are left out,
and the images the calls showed are copied to OUT/images. An episode that
ended in an infrastructure error stays one, so that running the unsharded
command on OUT (without --shard) plays it again. Report on OUT with
ambibench report OUT.

Refused, with the reason named: a directory that is not a shard, or
named twice, shards of different settings, grids or shard counts, a
run.json that does not read (named with its field), a shard without
records.jsonl (its run stopped before its first episode), a record that
is not of its shard's run (another seed, a family outside the grid, …;
named by file and line) or an episode recorded twice, a shard given twice
or an episode in two directories (overlapping shards), and a shard of
1..n not given (missing), or an OUT that already holds a run.

Flags:
`

// mergeCmd joins shard directories into one run directory.
func mergeCmd(stdout, stderr io.Writer, args []string) error {
	fset := flag.NewFlagSet("ambibench merge", flag.ContinueOnError)
	fset.SetOutput(stderr)
	out := fset.String("out", "", "the `dir` to write the merged run to (new, or empty)")
	fset.Usage = func() {
		fmt.Fprint(fset.Output(), mergeUsage)
		fset.PrintDefaults()
	}
	var dirs []string
	if done, err := parseFlags(fset, stdout, stderr, func() (err error) { dirs, err = parseInterspersed(fset, args); return err }); done {
		return err
	}
	switch {
	case *out == "":
		return fmt.Errorf("merge: missing --out OUT, the directory to write the merged run to")
	case len(dirs) == 0:
		return fmt.Errorf("merge: no shard directories (want ambibench merge --out OUT DIR...)")
	}
	if err := namedOnce(*out, dirs); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	var shards []results.ShardDir
	for _, d := range dirs {
		s, release, err := readShardDir(d)
		if err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		defer release()
		shards = append(shards, s)
	}
	rf, recs, err := results.MergeShards(shards)
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}

	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	release, err := lockDir(*out)
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	defer release()
	for _, name := range []string{recordsFileName, results.RunFileName, summaryFileName, transcriptFileName} {
		if _, err := os.Stat(filepath.Join(*out, name)); !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("merge: %s already holds a run (%s); merge into a new directory", *out, name)
		}
	}
	// The transcripts and the summary first, records and run.json last:
	// a merge that fails leaves no directory that looks like a run.
	byIndex := slices.Clone(shards)
	slices.SortFunc(byIndex, func(a, b results.ShardDir) int { return a.Run.Shard.Index - b.Run.Shard.Index })
	var ordered []string
	for _, s := range byIndex {
		ordered = append(ordered, s.Dir)
	}
	pos := make(map[string]int, len(recs))
	for i, r := range recs {
		pos[r.Key()] = i
	}
	with, err := mergeTranscripts(*out, ordered, pos)
	if err != nil {
		return fmt.Errorf("merge: transcripts: %w", err)
	}
	if len(with) > 0 && len(with) < len(shards) {
		fmt.Fprintf(stderr, "ambibench: merge: only %d of the %d shards kept transcripts (%s): %s holds their calls alone\n",
			len(with), len(shards), strings.Join(with, ", "), filepath.Join(*out, transcriptFileName))
	}
	summary, note, err := mergedSummary(byIndex, recs)
	if err != nil {
		return fmt.Errorf("merge: summary: %w", err)
	}
	if note != "" {
		fmt.Fprintf(stderr, "ambibench: merge: %s\n", note)
	}
	if err := os.WriteFile(filepath.Join(*out, summaryFileName), []byte(summary), 0o644); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	path := filepath.Join(*out, recordsFileName)
	if err := results.RewriteRecords(path, recs); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	if err := results.WriteRunFile(*out, rf); err != nil {
		return fmt.Errorf("merge: write %s: %w", results.RunFileName, err)
	}
	o := tallyOutcomes(recs, 0)
	fmt.Fprintf(stdout, "merged %d shards into %s: %d records, %d infrastructure %s\n", len(shards), path, len(recs), o.infra, plural(o.infra, "error", "errors"))
	if o.infra > 0 {
		fmt.Fprintf(stderr, "ambibench: merge: %d %s ended in infrastructure errors; running the unsharded command (without --shard) with --out %s plays just those\n",
			o.infra, plural(o.infra, "episode", "episodes"), *out)
	}
	return nil
}

// namedOnce refuses a shard directory named twice (by the same path or
// by two paths to one directory), and the output directory named as a
// shard: each would otherwise be refused later for a reason that is not
// the real one (the directory locked by this very merge).
func namedOnce(out string, dirs []string) error {
	same := func(a, b string) bool {
		if filepath.Clean(a) == filepath.Clean(b) {
			return true
		}
		x, errX := os.Stat(a)
		y, errY := os.Stat(b)
		return errX == nil && errY == nil && os.SameFile(x, y)
	}
	for i, d := range dirs {
		if same(d, out) {
			return fmt.Errorf("--out %s is also one of the shard directories", out)
		}
		for _, e := range dirs[:i] {
			if same(d, e) {
				if d == e {
					return fmt.Errorf("shard directory %s is named twice; name each shard's directory once", d)
				}
				return fmt.Errorf("shard directories %s and %s are one directory, named twice; name each shard's directory once", e, d)
			}
		}
	}
	return nil
}

// mergedSummary is OUT/summary.md of a merged run, as run writes it for
// the whole run: the header and the tail of a shard's summary.md (the
// settings line and, say, a dataset's warnings, which hold for every
// shard and which run makes from flags merge does not have), and the
// tables of the merged records. The header and tail are taken from the
// first shard (by index) whose summary.md is, around its tables, what
// run writes for that shard's records; the tables' order (agents, then
// perturbations) is the one that makes them so. When no shard's does (a
// shard killed before writing it), the header is made from run.json and
// note says so.
func mergedSummary(shards []results.ShardDir, recs []results.Record) (summary, note string, err error) {
	first := shards[0].Run
	t, err := bench.NewTrack(first.Settings["track"])
	if err != nil {
		return "", "", err
	}
	order := first.Shard.Order
	var byCells []string
	for _, c := range order.Cells {
		if !slices.Contains(byCells, c.Perturbation) {
			byCells = append(byCells, c.Perturbation)
		}
	}
	var candidates []bench.Options
	for _, agents := range [][]string{order.Agents, nil} {
		for _, perts := range [][]string{nil, byCells} {
			candidates = append(candidates, bench.Options{Track: t, Agents: agents, Perturbations: perts})
		}
	}
	for _, s := range shards {
		data, err := os.ReadFile(filepath.Join(s.Dir, summaryFileName))
		if err != nil {
			continue
		}
		text := string(data)
		head, ok := summaryHead(text)
		if !ok {
			continue
		}
		for _, opts := range candidates {
			tables, err := summaryTables(s.Records, opts)
			if err != nil {
				return "", "", err
			}
			if tail, ok := strings.CutPrefix(text, head+tables); ok {
				whole, err := summaryTables(recs, opts)
				if err != nil {
					return "", "", err
				}
				return head + whole + tail, "", nil
			}
		}
	}
	opts := bench.Options{Track: t, Agents: order.Agents, Perturbations: byCells}
	whole, err := summaryTables(recs, opts)
	if err != nil {
		return "", "", err
	}
	head := fmt.Sprintf("# ambibench %s summary\n\nSuite version %s. Seed %s, %d episodes per cell and agent at most, merged from %d shards.\n\n",
		t.Name(), first.Settings["suite"], first.Settings["seed"], first.Grid.Episodes, len(shards))
	return head + whole, fmt.Sprintf("no shard's %s is what run writes for its records (a shard stopped before writing it?), so the merged one's settings line is made from %s", summaryFileName, results.RunFileName), nil
}

// summaryHead is the title and the settings line of a summary.md: its
// first two paragraphs.
func summaryHead(text string) (string, bool) {
	i := strings.Index(text, "\n\n")
	if i < 0 {
		return "", false
	}
	j := strings.Index(text[i+2:], "\n\n")
	if j < 0 {
		return "", false
	}
	return text[:i+2+j+2], true
}

// readShardDir reads one shard's run.json and records, holding its lock
// so that a shard still running is not merged half done.
func readShardDir(dir string) (results.ShardDir, func(), error) {
	rf, ok, err := results.ReadRunFile(dir)
	if err != nil {
		return results.ShardDir{}, nil, err
	}
	if !ok {
		return results.ShardDir{}, nil, fmt.Errorf("%s: no %s (want the --out directory of ambibench run --shard i/n)", dir, results.RunFileName)
	}
	release, err := lockDir(dir)
	if err != nil {
		return results.ShardDir{}, nil, err
	}
	path := filepath.Join(dir, recordsFileName)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		// run makes the file before its first episode, even for a shard
		// with none: one without it stopped before (a bad flag, a model
		// that did not open), or is not a shard's directory.
		release()
		return results.ShardDir{}, nil, fmt.Errorf("%s: no %s: the shard's run stopped before its first episode; run it again (the same command, with its --shard) before merging", dir, recordsFileName)
	}
	if err != nil {
		release()
		return results.ShardDir{}, nil, err
	}
	recs, err := results.ReadRecordsFunc(f, path, checkRun(rf))
	f.Close()
	if err != nil {
		release()
		if errors.Is(err, results.ErrTruncated) {
			return results.ShardDir{}, nil, fmt.Errorf("%w: the shard's run was killed; run it again to finish it before merging", err)
		}
		return results.ShardDir{}, nil, err
	}
	return results.ShardDir{Dir: dir, Run: rf, Records: recs}, release, nil
}
