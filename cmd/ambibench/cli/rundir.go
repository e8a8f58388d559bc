package cli

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
)

const (
	lockFileName    = ".lock"
	recordsFileName = "records.jsonl"
)

// runDir is an open run directory: locked, its settings checked, its
// records read (a record at a time: what the run needs of them is kept,
// not they).
type runDir struct {
	dir     string
	w       *results.Writer
	prior   int             // records kept from earlier runs
	dropped int             // infra-error records dropped to run again
	run     results.RunFile // run.json as this run writes it
	release func()
	closer  io.Closer
	// fresh: the files of an earlier run are discarded (--fresh), at
	// commit; until then they are not read.
	fresh bool
	// What commit does to the transcript, which checkTranscript found:
	// the lines to drop, and the calls of no record already there.
	transcriptDrop  int
	transcriptPrior map[[sha256.Size]byte]int

	// job places a record at its job's position in this run's grid, or
	// says it is of no job of it.
	job func(*results.Record) (int, bool)
	// done holds the jobs of this run that earlier runs recorded, by
	// position, and others the keys (hashed) of the records kept that are
	// of no job of this run (another model's, an agent no longer asked
	// for): the transcript keeps their calls too.
	done   bitset
	others map[[2]uint64]bool
	hash   keyHash
	// inOrder says whether the records kept are in this run's grid order
	// (see putInGridOrder), last is the place of the last of them, and
	// end the size of the file they make, which this run appends to.
	inOrder bool
	last    int
	end     int64
}

func (d *runDir) Close() {
	if d.closer != nil {
		d.closer.Close()
	}
	d.release()
}

// openRunDir makes dir one run: it takes the lock, starts afresh when
// fresh is set, refuses settings that differ from those of the run
// already there (naming each), and grows the grid. The records are read
// apart, with openRecords, once the run knows their keys, and the
// transcript with checkTranscript; no file of the directory changes
// until commit, once all of that and the model have been found good, so
// that a run refused (a model that will not open, a damaged transcript)
// leaves the directory as it was.
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
	d := &runDir{dir: dir, release: release, fresh: fresh}
	fail := func(err error) (*runDir, error) {
		d.Close()
		return nil, err
	}
	var rf results.RunFile
	var ok, hasRecords bool
	if !fresh {
		if rf, ok, err = results.ReadRunFile(dir); err != nil {
			return fail(err)
		}
		records, err := os.Stat(filepath.Join(dir, recordsFileName))
		hasRecords = err == nil && records.Size() > 0
	}
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
	return d, nil
}

// commit makes the directory this run's, once everything it was given
// has been read and found good: the files of an earlier run removed
// (--fresh), run.json written with the grown grid, the records of
// infrastructure errors to play again dropped, records.jsonl opened for
// appending (a last line cut short by a kill cut off), and, with a sink,
// the transcript's stale lines dropped and the file opened into it.
func (d *runDir) commit(sink *transcriptSink) error {
	if d.fresh {
		for _, name := range []string{recordsFileName, results.RunFileName, "summary.md", transcriptFileName} {
			if err := os.Remove(filepath.Join(d.dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("--fresh: %w", err)
			}
		}
	}
	if err := results.WriteRunFile(d.dir, d.run); err != nil {
		return fmt.Errorf("write %s: %w", results.RunFileName, err)
	}
	path := filepath.Join(d.dir, recordsFileName)
	if d.dropped > 0 {
		if err := d.dropInfraErrors(path); err != nil {
			return err
		}
	}
	w, closer, err := results.AppendTo(path)
	if err != nil {
		return err
	}
	d.w, d.closer = w, closer
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	d.end = info.Size()
	if sink != nil {
		return d.openTranscript(sink)
	}
	return nil
}

// openRecords reads the records already in records.jsonl a record at a
// time, changing nothing (commit does). The records of this run's jobs
// (jobs of opts) that ended in an infrastructure failure are counted to
// be dropped from the file, so that this run plays them again and the
// file keeps one record per episode; each other record of a job of this
// run is handed to prior (the summary adds it up) and its job marked
// done. A record that does not belong to the run of run.json (another
// seed, a family outside its grid, …) or an episode recorded twice is
// refused, naming its line, rather than kept or left out in silence.
func (d *runDir) openRecords(jobs *bench.Grid, opts bench.Options, prior func(*results.Record)) error {
	path := filepath.Join(d.dir, recordsFileName)
	d.job = jobPlacer(jobs, opts)
	d.done, d.others, d.hash = newBitset(jobs.Len()), map[[2]uint64]bool{}, newKeyHash()
	d.inOrder, d.last = true, -1
	if d.fresh {
		return nil
	}
	place := d.placer()
	// An episode twice is found by the job it is of, or among the others,
	// without a hash of every key (results.OnceEach, 24 bytes a record):
	// on finding one, the file is read again with that check, for its
	// message.
	var twice bool
	seen := newBitset(jobs.Len()) // done, and the jobs of the records dropped
	check := func(_ int, r results.Record) error { return d.run.CheckRecord(r) }
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open results: %w", err)
	}
	defer f.Close()
	_, err = results.ScanRecords(f, path, check, func(r results.Record) error {
		i, ok := d.job(&r)
		switch {
		case ok && seen.has(i):
			twice = true
			return errStop
		case ok && r.Outcome == results.OutcomeInfraError:
			seen.set(i)
			d.dropped++
			return nil
		case ok:
			seen.set(i)
			d.done.set(i)
			prior(&r)
		default:
			h := d.hash.of(r.Key())
			if d.others[h] {
				twice = true
				return errStop
			}
			d.others[h] = true
		}
		d.prior++
		if at := place(&r); at < d.last {
			d.inOrder = false
		} else {
			d.last = at
		}
		return nil
	})
	if twice {
		return d.twice(path)
	}
	// A last line cut short by a kill is the one error a resumed run
	// reads past: commit cuts it off.
	if err != nil && !errors.Is(err, results.ErrTruncated) {
		return fmt.Errorf("open results: %w", err)
	}
	return nil
}

// kept reports whether records.jsonl keeps a record whose key is key
// (the name of its episode's transcript lines), from what openRecords
// kept of the records: the job it is of, or its key's hash.
func (d *runDir) kept(key string) bool {
	if r, ok := parseKey(key); ok {
		if k, ok := d.job(&r); ok {
			return d.done.has(k)
		}
	}
	return d.others[d.hash.of(key)]
}

// twice is the error of records.jsonl at path holding an episode twice:
// the file read again with every check, which names the line.
func (d *runDir) twice(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = results.ScanRecords(f, path, checkRun(d.run), func(results.Record) error { return nil })
	return fmt.Errorf("open results: %w", cmp.Or(err, fmt.Errorf("%s: an episode recorded twice", path)))
}

// dropInfraErrors rewrites records.jsonl at path (whole, then renamed)
// without the records of this run's jobs that ended in infrastructure
// failures.
func (d *runDir) dropInfraErrors(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	err = rewriteFile(path, func(out io.Writer) error {
		w := results.NewWriter(struct{ io.Writer }{out}) // flushed at the end, not a record at a time
		_, err := results.ScanRecords(f, path, nil, func(r results.Record) error {
			if _, ok := d.job(&r); ok && r.Outcome == results.OutcomeInfraError {
				return nil
			}
			return w.Write(r)
		})
		return err
	})
	if err != nil {
		return fmt.Errorf("rewrite results %s: %w", path, err)
	}
	return nil
}

// syncedFile syncs the file to stable storage before closing it.
type syncedFile struct{ *os.File }

func (f syncedFile) Close() error { return errors.Join(f.Sync(), f.File.Close()) }

// placer gives the place in this run's grid order of each record of
// records.jsonl in turn: a record of a job of this run at its job's
// position, and one of no job of this run just after the record of a
// job before it in the file (before the first job, if none is). Places
// are numbers: 2k for job k, 2k+1 after it.
func (d *runDir) placer() func(*results.Record) int {
	last := -1
	return func(r *results.Record) int {
		if k, ok := d.job(r); ok {
			last = k
			return 2 * k
		}
		return 2*last + 1
	}
}

// putInGridOrder keeps records.jsonl in grid order once this run has
// added records (added of them) to those an earlier one left: the
// episodes an earlier run ended in infrastructure errors are played again
// after the others (openRecords dropped their records), and a grown grid
// adds cells after those played, so the new records, appended, may belong
// before old ones. The file is then rewritten (whole, then renamed) with
// every record of this run's jobs at its place in their order, so that it
// is the file a run without the failures or the pauses writes. A record
// of no job of this run (another model's, an agent no longer asked for)
// stays after the record it followed. A file already in order is left as
// it is. A fresh run, whose records are written in order, reads nothing
// back.
//
// The file is read a record at a time: the new records, in grid order,
// are merged with the earlier ones, themselves in order when an earlier
// run left them so (openRecords found out); when not, those are read
// through an index of their lines in grid order (24 bytes a record).
func (d *runDir) putInGridOrder(added int) error {
	if added == 0 || d.prior == 0 {
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
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	earlier := func() io.Reader { return io.NewSectionReader(f, 0, d.end) }
	appended := func() io.Reader { return io.NewSectionReader(f, d.end, info.Size()-d.end) }
	if d.inOrder {
		// The new records are in order and after every earlier one when
		// the first is.
		first := math.MaxInt
		_, err := results.ScanRecords(appended(), path, nil, func(r results.Record) error {
			first = d.placer()(&r)
			return errStop
		})
		if err != nil && !errors.Is(err, errStop) {
			return err
		}
		if first > d.last {
			return nil
		}
	}
	place := func(p func(*results.Record) int) func(*results.Record) (int, error) {
		return func(r *results.Record) (int, error) { return p(r), nil }
	}
	var old recordSource
	if !d.inOrder {
		src, sorted, err := indexRecords(earlier(), f, path, nil, place(d.placer()))
		if err != nil {
			return err
		}
		if !sorted {
			old = src
		}
	}
	if old == nil {
		old = newScanSource(earlier(), path, nil, place(d.placer()))
	}
	srcs := []recordSource{old, newScanSource(appended(), path, nil, place(d.placer()))}
	defer func() {
		for _, s := range srcs {
			s.close()
		}
	}()
	err = rewriteFile(path, func(out io.Writer) error {
		w := results.NewWriter(struct{ io.Writer }{out}) // flushed at the end, not a record at a time
		return mergeSources(srcs, func(r *results.Record, _, _ int) error { return w.Write(*r) })
	})
	if err != nil {
		return fmt.Errorf("rewrite results %s: %w", path, err)
	}
	return nil
}

// jobPlacer gives the position in the grid of jobs (opts' grid) of the
// job a record is of, or false when it is of none: worked out from the
// grid's cells (results.JobOrder.Locate) and checked against the job
// there, key field by key field, rather than looked up in a map of every
// job's key.
func jobPlacer(jobs *bench.Grid, opts bench.Options) func(*results.Record) (int, bool) {
	locate := jobs.Order().Locate()
	shard := opts.Shard
	models := map[string]string{} // by agent: opts.ModelFor, which looks the agent up
	return func(r *results.Record) (int, bool) {
		k, ok := locate(*r)
		if !ok {
			return 0, false
		}
		if !shard.IsZero() {
			if k%shard.Count != shard.Index-1 {
				return 0, false
			}
			k /= shard.Count
		}
		if k >= jobs.Len() {
			return 0, false
		}
		j := jobs.At(k)
		model, seen := models[r.Agent]
		if !seen {
			model = opts.ModelFor(r.Agent)
			models[r.Agent] = model
		}
		if j.Track != r.Track || j.Family != r.Family || j.Perturbation != r.Perturbation || j.Size != r.SceneSize ||
			j.Agent != r.Agent || j.Index != r.Episode || j.Repeat != r.Repeat || opts.Seed != r.Seed || model != r.Model {
			return 0, false
		}
		return k, true
	}
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
