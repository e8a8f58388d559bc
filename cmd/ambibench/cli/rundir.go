package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
)

const (
	lockFileName    = ".lock"
	recordsFileName = "records.jsonl"
)

// runDir is an open run directory: locked, its settings checked, its
// records read.
type runDir struct {
	dir     string
	w       *results.Writer
	prior   []results.Record // records kept from earlier runs
	dropped int              // infra-error records dropped to run again
	run     results.RunFile  // run.json as this run wrote it
	release func()
	closer  io.Closer
}

func (d *runDir) Close() {
	if d.closer != nil {
		d.closer.Close()
	}
	d.release()
}

// openRunDir makes dir one run: it takes the lock, starts afresh when
// fresh is set, refuses settings that differ from those of the run
// already there (naming each), and records the grown grid in run.json.
// The records are opened apart, with openRecords, once the run knows
// their keys.
//
// shard is the part of the grid this run plays (nil: all of it). A
// shard's directory holds that shard alone, and its grid cannot grow: a
// different --shard, a missing one, or one on an unsharded directory is
// refused and named, since the records would then belong to other shards.
func openRunDir(dir string, settings map[string]string, grid results.Grid, shard *results.RunShard, fresh bool) (*runDir, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	release, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	d := &runDir{dir: dir, release: release}
	fail := func(err error) (*runDir, error) {
		d.Close()
		return nil, err
	}
	if fresh {
		for _, name := range []string{recordsFileName, results.RunFileName, "summary.md", "transcripts.jsonl"} {
			if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fail(fmt.Errorf("--fresh: %w", err))
			}
		}
	}
	rf, ok, err := results.ReadRunFile(dir)
	if err != nil {
		return fail(err)
	}
	records, err := os.Stat(filepath.Join(dir, recordsFileName))
	hasRecords := err == nil && records.Size() > 0
	// A run.json without records is a run that stopped before its first
	// episode (a bad flag, a model that would not open): nothing to keep
	// apart from, so this run's settings replace it.
	if ok && hasRecords {
		if changes := rf.Changes(settings); len(changes) > 0 {
			return fail(&results.SettingsError{Dir: dir, Changes: changes})
		}
		if err := sameShard(dir, rf.Shard, shard); err != nil {
			return fail(err)
		}
		grid = rf.Grid.Union(grid)
	} else if !ok && hasRecords {
		return fail(fmt.Errorf("%s holds records but no %s, so the settings they were made with are unknown; use a new --out, or pass --fresh to discard them", dir, results.RunFileName))
	}
	d.run = results.RunFile{Settings: settings, Grid: grid, Shard: shard}
	if err := d.run.Check(); err != nil {
		return fail(fmt.Errorf("%s: %w", filepath.Join(dir, results.RunFileName), err))
	}
	if err := results.WriteRunFile(dir, d.run); err != nil {
		return fail(fmt.Errorf("write %s: %w", results.RunFileName, err))
	}
	return d, nil
}

// openRecords opens records.jsonl for appending. The records of the keys
// in want (called only when the file holds an infrastructure failure)
// that ended in an infrastructure failure are dropped from the file, so
// that this run plays them again and the file keeps one record per
// episode. A record that does not belong to the run of run.json (another
// seed, a family outside its grid, …) or an episode recorded twice is
// refused, naming its line, rather than kept or left out in silence.
func (d *runDir) openRecords(want func() map[string]bool) error {
	path := filepath.Join(d.dir, recordsFileName)
	w, prior, closer, err := results.OpenAppendFunc(path, checkRun(d.run))
	if err != nil {
		return err
	}
	keep := slices.DeleteFunc(slices.Clone(prior), func(r results.Record) bool {
		return r.Outcome == results.OutcomeInfraError && want()[r.Key()]
	})
	if len(keep) < len(prior) {
		closer.Close()
		if err := results.RewriteRecords(path, keep); err != nil {
			return err
		}
		d.dropped = len(prior) - len(keep)
		if w, prior, closer, err = results.OpenAppendFunc(path, checkRun(d.run)); err != nil {
			return err
		}
	}
	d.w, d.prior, d.closer = w, prior, closer
	return nil
}

// putInGridOrder keeps records.jsonl in grid order once this run has
// added records (added of them) to those an earlier one left: the
// episodes an earlier run ended in infrastructure errors are played again
// after the others (openRecords dropped their records), and a grown grid
// adds cells after those played, so the new records, appended, may belong
// before old ones. The file is then read back and rewritten (whole, then
// renamed) with every record of this run's jobs at its place in their
// order, so that it is the file a run without the failures or the pauses
// writes. A record of no job of this run (another model's, an agent no
// longer asked for) stays after the record it followed. A file already
// in order is left as it is. A fresh run, whose records are written in
// order, reads nothing back.
func (d *runDir) putInGridOrder(jobs *bench.Grid, opts bench.Options, added int) error {
	if added == 0 || len(d.prior) == 0 {
		return nil
	}
	if d.closer != nil {
		if err := d.closer.Close(); err != nil {
			return err
		}
		d.closer, d.w = nil, nil
	}
	path := filepath.Join(d.dir, recordsFileName)
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	all, err := results.ReadRecords(f, path)
	f.Close()
	if err != nil {
		return err
	}
	pos := make(map[string]int, jobs.Len())
	i := 0
	for j := range jobs.All() {
		pos[j.Key(opts.Seed, opts.ModelFor(j.Agent))] = i
		i++
	}
	type place struct{ at, after, i int }
	places := make([]place, len(all))
	last := -1
	for i, r := range all {
		if p, ok := pos[r.Key()]; ok {
			places[i], last = place{p, 0, i}, p
		} else {
			places[i] = place{last, 1, i}
		}
	}
	sorted := slices.SortedStableFunc(slices.Values(places), func(a, b place) int {
		if a.at != b.at {
			return a.at - b.at
		}
		return a.after - b.after
	})
	if slices.Equal(sorted, places) {
		return nil
	}
	recs := make([]results.Record, len(sorted))
	for k, p := range sorted {
		recs[k] = all[p.i]
	}
	return results.RewriteRecords(path, recs)
}

// gridOf is the grid g covers, as run.json records it; models are the
// specs the run's workflows are driven by. It is read off g's cells,
// without a pass over its jobs.
func gridOf(g *bench.Grid, models ...string) results.Grid {
	var out results.Grid
	if needsModel(g.Agents()) {
		out.Models = models
	}
	o := g.Order()
	out.Agents = o.Agents
	for _, c := range o.Cells {
		out.Families = append(out.Families, c.Family)
		out.Perturbations = append(out.Perturbations, c.Perturbation)
		if c.SceneSize != 0 {
			out.SceneSizes = append(out.SceneSizes, c.SceneSize)
		}
		out.Episodes = max(out.Episodes, c.Episodes)
	}
	out.Repeats = o.Repeats
	return out.Union(results.Grid{})
}

// sameShard refuses to resume the run in dir, which holds shard was, as
// shard now.
func sameShard(dir string, was, now *results.RunShard) error {
	path := filepath.Join(dir, results.RunFileName)
	switch {
	case was == nil && now == nil:
		return nil
	case was == nil:
		return fmt.Errorf("%s holds a whole run, not a shard: --shard %d/%d would mix one shard's records into it; use a new --out", path, now.Index, now.Count)
	case now == nil:
		return fmt.Errorf("%s holds shard %d/%d of a run: pass --shard %d/%d to resume it, or use a new --out", path, was.Index, was.Count, was.Index, was.Count)
	case was.Index != now.Index || was.Count != now.Count:
		return fmt.Errorf("%s holds shard %d/%d of a run, not %d/%d: pass --shard %d/%d to resume it, or use a new --out", path, was.Index, was.Count, now.Index, now.Count, was.Index, was.Count)
	case !was.Order.Equal(now.Order):
		return fmt.Errorf("%s holds shard %d/%d of a run with another grid; a shard's grid cannot change, since the jobs would be dealt to the shards anew: run the directory's grid, or use a new --out", path, was.Index, was.Count)
	}
	return nil
}
