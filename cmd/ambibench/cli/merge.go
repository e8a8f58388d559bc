package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ambibench/ambibench/results"
)

const mergeUsage = `Usage: ambibench merge --out OUT DIR...

Joins the directories of the shards of one run (ambibench run --shard i/n
--out DIR, for i from 1 to n) into OUT, a directory of the whole run:
OUT/records.jsonl holds every shard's records in the order the unsharded
run writes them, and is byte for byte that run's file apart from the
timings (wall_ms, latency_p50_ms, latency_p95_ms); OUT/run.json is the
unsharded run's. An episode that ended in an infrastructure error stays
one, so that running the unsharded command on OUT (without --shard) plays
it again. Report on OUT with ambibench report OUT.

Refused, with the reason named: a directory that is not a shard, shards of
different settings, grids or shard counts, a shard given twice or an
episode in two directories (overlapping shards), and a shard of 1..n not
given (missing), or an OUT that already holds a run.

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
	outAbs, _ := filepath.Abs(*out)
	var shards []results.ShardDir
	for _, d := range dirs {
		if abs, _ := filepath.Abs(d); abs == outAbs {
			return fmt.Errorf("merge: --out %s is also one of the shard directories", *out)
		}
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
	for _, name := range []string{recordsFileName, results.RunFileName} {
		if _, err := os.Stat(filepath.Join(*out, name)); !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("merge: %s already holds a run (%s); merge into a new directory", *out, name)
		}
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
		return results.ShardDir{Dir: dir, Run: rf}, release, nil // a shard with no episode played yet
	}
	if err != nil {
		release()
		return results.ShardDir{}, nil, err
	}
	recs, err := results.ReadRecords(f, path)
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
