package cli

import (
	"cmp"
	"container/heap"
	"errors"
	"flag"
	"fmt"
	"hash/maphash"
	"io"
	"io/fs"
	"iter"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/agents/llm/models"
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
command on OUT (without --shard) plays it again; so does it the jobs of a
shard stopped part way, which merges with a note on stderr naming it and
how many of its jobs it holds. Report on OUT with ambibench report OUT.

Shards run again with another --model hold several models' records.
OUT/records.jsonl then holds them job by job, a job's records of the
models one after another, where the unsharded directory holds each run's
records in the order the runs ran; OUT/summary.md is of the model the shards' summaries name (run
names it when its directory holds other models' records), or, when no
shard's summary reads, each model's tables apart, never pooled. A model
is told by the name its records carry (record:DIR=SPEC's is SPEC's,
replay:DIR=MODEL's is MODEL); the records of a replay:DIR spec, whose
name is in its recordings, are those of no other model of the run.

Refused, with the reason named: a directory that is not a shard, or
named twice, shards of different settings, grids or shard counts, a
run.json that does not read (named with its field), a shard without
records.jsonl (its run stopped before its first episode), a record that
is not of its shard's run (another seed, a family outside the grid, …;
named by file and line) or an episode recorded twice, a shard given twice
or an episode in two directories (overlapping shards), and a shard of
1..n not given (missing), or an OUT that already holds a run. A merge
that fails leaves OUT as it found it: not there, or without what the merge
wrote in it (its images, transcripts and lock file among them).

Memory: merge holds none of the records. It reads the shards' files
together, a record at a time, and writes each in its place as it goes;
a file out of job order (two models' records in one directory) is read
through an index of its lines, 24 bytes a record.

Flags:
`

// mergeCmd joins shard directories into one run directory, a record at
// a time: it holds none of the shards' records (see mergeRecords).
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
	shards, err := openShards(dirs)
	defer shards.close()
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	rf, err := results.CheckShards(shards.dirs())
	if err != nil {
		// A record that does not read is named before the shards that do
		// not fit, as when every shard was read before they were joined.
		return fmt.Errorf("merge: %w", cmp.Or(shards.fileRefusal(), err))
	}

	made, err := makeOut(*out)
	if err != nil {
		return fmt.Errorf("merge: %w", cmp.Or(shards.refusal(), err))
	}
	defer made.close()
	// The records first, into a temporary file renamed last, with the
	// summary's tables and the transcripts' places added up as they pass;
	// then the transcripts and the summary, records and run.json last: a
	// merge that fails leaves no directory that looks like a run.
	byIndex := slices.Clone(shards)
	slices.SortFunc(byIndex, func(a, b *shardFile) int { return a.Run.Shard.Index - b.Run.Shard.Index })
	var ordered []string
	for _, s := range byIndex {
		ordered = append(ordered, s.Dir)
	}
	sum := newMergedSummary(byIndex)
	path := filepath.Join(*out, recordsFileName)
	keys, err := mergeRecords(path+".tmp", shards, sum, hasTranscripts(ordered))
	if err != nil {
		// The merge stops at the first record it cannot take; the
		// refusal names the one a reading of every shard in turn, then
		// of their records, finds first.
		return fmt.Errorf("merge: %w", cmp.Or(shards.refusal(), err))
	}
	defer os.Remove(path + ".tmp") // gone once renamed
	with, err := mergeTranscripts(*out, ordered, keys.find, made.add)
	if err != nil {
		return fmt.Errorf("merge: %w", fmt.Errorf("transcripts: %w", err))
	}
	if len(with) > 0 && len(with) < len(shards) {
		fmt.Fprintf(stderr, "ambibench: merge: only %d of the %d shards kept transcripts (%s): %s holds their calls alone\n",
			len(with), len(shards), strings.Join(with, ", "), filepath.Join(*out, transcriptFileName))
	}
	summary, note, err := sum.text()
	if err != nil {
		return fmt.Errorf("merge: %w", fmt.Errorf("summary: %w", err))
	}
	if note != "" {
		fmt.Fprintf(stderr, "ambibench: merge: %s\n", note)
	}
	made.add(filepath.Join(*out, summaryFileName))
	if err := os.WriteFile(filepath.Join(*out, summaryFileName), []byte(summary), 0o644); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	made.add(path)
	if err := os.Rename(path+".tmp", path); err != nil {
		return fmt.Errorf("merge: %w", fmt.Errorf("rewrite results: %w", err))
	}
	made.add(filepath.Join(*out, results.RunFileName))
	if err := results.WriteRunFile(*out, rf); err != nil {
		return fmt.Errorf("merge: %w", fmt.Errorf("write %s: %w", results.RunFileName, err))
	}
	made.kept = true
	o := sum.out
	fmt.Fprintf(stdout, "merged %d shards into %s: %d records, %d infrastructure %s\n", len(shards), path, o.recorded(), o.infra, plural(o.infra, "error", "errors"))
	if o.infra > 0 {
		fmt.Fprintf(stderr, "ambibench: merge: %d %s ended in infrastructure errors; running the unsharded command (without --shard) with --out %s plays just those\n",
			o.infra, plural(o.infra, "episode", "episodes"), *out)
	}
	// A shard stopped part way (interrupted, or its records cut by hand)
	// merges: the unsharded command on OUT plays the rest. Said, or OUT
	// would pass for the whole run.
	for _, s := range byIndex {
		if jobs := s.jobs(); s.merged < jobs {
			fmt.Fprintf(stderr, "ambibench: merge: %s, shard %d/%d, holds %d of its %d jobs (stopped part way?); running the unsharded command (without --shard) with --out %s plays the rest\n",
				s.Dir, s.Run.Shard.Index, s.Run.Shard.Count, s.merged, jobs, *out)
		}
	}
	return nil
}

// jobs is the number of jobs of the run that are s's: every Count-th of
// the job order, from its Index-th.
func (s *shardFile) jobs() int {
	sh := s.Run.Shard
	return (sh.Order.Len() - (sh.Index - 1) + sh.Count - 1) / sh.Count
}

// outDir is merge's OUT, locked, and what merge made in it.
type outDir struct {
	dir           string
	created, kept bool
	// lockMade: the lock file is merge's (OUT had none); made: the files
	// and directories merge writes, each added before it is written.
	lockMade bool
	made     []string
	release  func()
}

// makeOut makes and locks out, which must hold no run.
func makeOut(out string) (*outDir, error) {
	_, err := os.Stat(out)
	d := &outDir{dir: out, created: errors.Is(err, fs.ErrNotExist)}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	_, err = os.Lstat(filepath.Join(out, lockFileName))
	d.lockMade = errors.Is(err, fs.ErrNotExist)
	if d.release, err = lockDir(out); err != nil {
		d.close()
		return nil, err
	}
	for _, name := range []string{recordsFileName, results.RunFileName, summaryFileName, transcriptFileName} {
		if _, err := os.Stat(filepath.Join(out, name)); !errors.Is(err, fs.ErrNotExist) {
			d.close()
			return nil, fmt.Errorf("%s already holds a run (%s); merge into a new directory", out, name)
		}
	}
	return d, nil
}

// add notes that merge is about to make path in out (a file, or a
// directory that was not there): one a failed merge removes.
func (d *outDir) add(path string) { d.made = append(d.made, path) }

// close releases out's lock; when the merge failed, it removes what the
// merge made, and out itself if merge made it, so that out is as merge
// found it: absent, or as it was. A file merge did not make is never
// removed, and a directory only when empty.
func (d *outDir) close() {
	if d.release != nil {
		d.release()
		d.release = nil
	}
	if d.kept {
		return
	}
	for _, path := range slices.Backward(d.made) {
		os.Remove(path)
	}
	if d.lockMade {
		os.Remove(filepath.Join(d.dir, lockFileName))
	}
	if d.created {
		os.Remove(d.dir) // fails, as wanted, if anything else is in it
	}
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

// mergedSummary adds up OUT/summary.md as the merged records pass, as
// run writes it for the whole run: the header and the tail of a shard's
// summary.md (the settings line and, say, a dataset's warnings, which
// hold for every shard and which run makes from flags merge does not
// have), and the tables of the merged records. The header is taken from
// the first shard (by index) whose summary.md is, around its tables, what
// run writes for that shard's records, and the tail from the longest of
// those (see text); the tables' order
// (agents, then perturbations) is the one that makes them so. Each
// candidate order's tables are added up for the whole run, and for each
// shard whose summary.md reads, in the same pass. When no shard's
// summary.md is its records' (a shard killed before writing it), the
// header is made from run.json and text's note says so.
type mergedSummary struct {
	shards []*shardFile // by index
	err    error        // the track does not open
	// cands are the distinct orders of the tables that run may have
	// written, and candOf the one of each of the four tried in turn.
	cands  []bench.Options
	candOf []int
	// models are the run's models when it has several, and model the one
	// of each candidate's tables ("" for every record): a run's summary
	// is of one model's jobs (its records and those of the agents with no
	// model), so the tables are made for each model apart, and never
	// pool two models' records under one agent's name.
	// Each is the name the model's records carry (models.NameOf), or,
	// for a spec that does not say it (replay:DIR), the spec, which then
	// stands for every record of a model no other spec names (wild).
	models []string
	model  []string
	wild   map[string]bool
	seen   map[string]bool // the models of the records added
	whole  []*runTally
	out    outcomes
}

func newMergedSummary(byIndex []*shardFile) *mergedSummary {
	m := &mergedSummary{shards: byIndex}
	first := byIndex[0].Run
	t, err := bench.NewTrack(first.Settings["track"])
	if err != nil {
		m.err = err
		return m
	}
	order := first.Shard.Order
	var byCells []string
	for _, c := range order.Cells {
		if !slices.Contains(byCells, c.Perturbation) {
			byCells = append(byCells, c.Perturbation)
		}
	}
	for _, agents := range [][]string{order.Agents, nil} {
		for _, perts := range [][]string{nil, byCells} {
			i := slices.IndexFunc(m.cands, func(o bench.Options) bool {
				return slices.Equal(o.Agents, agents) && slices.Equal(o.Perturbations, perts) && (o.Agents == nil) == (agents == nil) && (o.Perturbations == nil) == (perts == nil)
			})
			if i < 0 {
				i = len(m.cands)
				m.cands = append(m.cands, bench.Options{Track: t, Agents: agents, Perturbations: perts})
			}
			m.candOf = append(m.candOf, i)
		}
	}
	m.model = make([]string, len(m.cands))
	if models := first.Grid.Models; len(models) > 1 {
		// Every order for each model: candidate c of model k is
		// k*orders + c.
		m.wild = map[string]bool{}
		m.models = nil
		for _, spec := range models {
			key, named := modelKey(spec)
			if !named {
				m.wild[key] = true
			}
			m.models = append(m.models, key)
		}
		models = m.models
		orders := len(m.cands)
		cands, model := m.cands, m.model
		m.cands, m.model = nil, nil
		for _, mod := range models {
			m.cands = append(m.cands, cands...)
			for range model {
				m.model = append(m.model, mod)
			}
		}
		candOf := m.candOf
		m.candOf = nil
		for k := range models {
			for _, c := range candOf {
				m.candOf = append(m.candOf, k*orders+c)
			}
		}
	}
	for _, s := range byIndex {
		data, err := os.ReadFile(filepath.Join(s.Dir, summaryFileName))
		if err != nil {
			continue
		}
		if head, ok := summaryHead(string(data)); ok {
			s.summary, s.head = string(data), head
		}
	}
	m.reset()
	return m
}

// reset empties the tallies, for a merge that starts again.
func (m *mergedSummary) reset() {
	m.out = outcomes{}
	m.seen = map[string]bool{}
	if m.err != nil {
		return
	}
	m.whole = m.tallies()
	for _, s := range m.shards {
		s.tallies, s.merged = nil, 0
		if s.head != "" {
			s.tallies = m.tallies()
		}
	}
}

func (m *mergedSummary) tallies() []*runTally {
	ts := make([]*runTally, len(m.cands))
	for i, o := range m.cands {
		ts[i] = newRunTally(o)
	}
	return ts
}

// add adds a record of shard s.
func (m *mergedSummary) add(r *results.Record, s *shardFile) {
	s.merged++
	m.out.add(r)
	m.seen[r.Model] = true
	for i, t := range m.whole {
		if m.ofModel(r, i) {
			t.add(r)
		}
	}
	for i, t := range s.tallies {
		if m.ofModel(r, i) {
			t.add(r)
		}
	}
}

// ofModel reports whether r is of candidate i's model: any record when
// the run has one model, else one of that model or of no model.
func (m *mergedSummary) ofModel(r *results.Record, i int) bool {
	return m.model[i] == "" || r.Model == "" || m.isOf(r.Model, m.model[i])
}

// isOf reports whether records carrying name are of the model key.
func (m *mergedSummary) isOf(name, key string) bool {
	if !m.wild[key] {
		return name == key
	}
	return !slices.Contains(m.models, name)
}

// modelKey is the name the records of a model spec carry, and whether the
// spec says it; else the spec itself (see mergedSummary.models).
func modelKey(spec string) (string, bool) {
	if name, ok := models.NameOf(spec); ok {
		return name, true
	}
	return spec, false
}

// text is OUT/summary.md, and a note when its header is made from
// run.json.
func (m *mergedSummary) text() (summary, note string, err error) {
	if m.err != nil {
		return "", "", m.err
	}
	// The header is the first such shard's. The tail is the longest
	// such shard's: a tail is what the run learnt besides its records,
	// the same in every shard that learnt it, but only a shard that
	// played an episode of a calibrated agent (clara) fitted its
	// threshold, and round-robin shards of a small grid may hold none.
	found, head, tail, cand := false, "", "", 0
	for _, s := range m.shards {
		if s.tallies == nil {
			continue
		}
		for _, c := range m.candOf {
			if mod, ok := summaryModel(s.head); ok && len(m.models) > 0 && m.model[c] != mod {
				continue // the summary says whose it is
			}
			tables, err := s.tallies[c].summaryTables(m.cands[c])
			if err != nil {
				return "", "", err
			}
			if t, ok := strings.CutPrefix(s.summary, s.head+tables); ok {
				if !found {
					found, head, cand = true, s.head, c
				}
				if len(t) > len(tail) {
					tail = t
				}
				break
			}
		}
	}
	if found {
		whole, err := m.whole[cand].summaryTables(m.cands[cand])
		if err != nil {
			return "", "", err
		}
		return head + whole + tail, "", nil
	}
	// The run's agents, the cells' perturbations, of each model that has
	// records (a member of a team, say, has none), under a heading of
	// its own when there are several.
	var shown []int
	for k, mod := range m.models {
		for name := range m.seen {
			if m.isOf(name, mod) {
				shown = append(shown, k)
				break
			}
		}
	}
	if len(shown) == 0 {
		shown = []int{0}
	}
	var whole string
	for n, k := range shown {
		c := m.candOf[k*4+1]
		tables, err := m.whole[c].summaryTables(m.cands[c])
		if err != nil {
			return "", "", err
		}
		if len(shown) > 1 {
			tables = fmt.Sprintf("## Model `%s`\n\n%s", m.models[k], tables)
			if n < len(shown)-1 {
				tables += "\n"
			}
		}
		whole += tables
	}
	c := m.candOf[1]
	first := m.shards[0].Run
	head = fmt.Sprintf("# ambibench %s summary\n\nSuite version %s. Seed %s, %d episodes per cell and agent at most, merged from %d shards.\n\n",
		m.cands[c].Track.Name(), first.Settings["suite"], first.Settings["seed"], first.Grid.Episodes, len(m.shards))
	return head + whole, fmt.Sprintf("no shard's %s is what run writes for its records (a shard stopped before writing it?), so the merged one's settings line is made from %s and what run writes after its tables (the thresholds fitted on the calibration split, a dataset's warnings) is left out", summaryFileName, results.RunFileName), nil
}

// summaryModel is the model (its modelKey) a summary.md's head names as its tables'
// (run writes it when the directory holds other models' records too).
func summaryModel(head string) (string, bool) {
	prefix, _, _ := strings.Cut(modelOfSummary, "%s")
	_, rest, ok := strings.Cut(head, prefix)
	if !ok {
		return "", false
	}
	spec, _, ok := strings.Cut(rest, "`")
	mod, _ := modelKey(spec)
	return mod, ok
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

// shardFile is one shard's directory as merge reads it: locked, so that
// a shard still running is not merged half done, its records file open.
type shardFile struct {
	results.ShardDir
	path    string // of records.jsonl
	f       *os.File
	release func()
	// summary is its summary.md when that has a header (head), and
	// tallies its records' tables in each order the summary may have.
	summary, head string
	tallies       []*runTally
	merged        int // its records merged
}

// shardFiles are the shards of a merge, in the order given.
type shardFiles []*shardFile

// openShards opens each shard in turn: its run.json, its lock and its
// records file. The first that does not open is named, unless the
// records of one before it do not read: the shards are checked as if
// each were read whole in turn.
func openShards(dirs []string) (shardFiles, error) {
	var ss shardFiles
	for _, d := range dirs {
		s, err := openShard(d)
		if err != nil {
			return ss, cmp.Or(ss.fileRefusal(), err)
		}
		ss = append(ss, s)
	}
	return ss, nil
}

func openShard(dir string) (*shardFile, error) {
	rf, ok, err := results.ReadRunFile(dir)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%s: no %s (want the --out directory of ambibench run --shard i/n)", dir, results.RunFileName)
	}
	release, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, recordsFileName)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		// run makes the file before its first episode, even for a shard
		// with none: one without it stopped before (a bad flag, a model
		// that did not open), or is not a shard's directory.
		release()
		return nil, fmt.Errorf("%s: no %s: the shard's run stopped before its first episode; run it again (the same command, with its --shard) before merging", dir, recordsFileName)
	}
	if err != nil {
		release()
		return nil, err
	}
	return &shardFile{ShardDir: results.ShardDir{Dir: dir, Run: rf}, path: path, f: f, release: release}, nil
}

func (ss shardFiles) close() {
	for _, s := range ss {
		s.f.Close()
		s.release()
	}
}

func (ss shardFiles) dirs() []results.ShardDir {
	out := make([]results.ShardDir, len(ss))
	for i, s := range ss {
		out[i] = s.ShardDir
	}
	return out
}

// records is s's records file from its start.
func (s *shardFile) records() io.Reader { return io.NewSectionReader(s.f, 0, math.MaxInt64) }

// shardReadErr says what to do of a shard's file cut short.
func shardReadErr(err error) error {
	if errors.Is(err, results.ErrTruncated) {
		return fmt.Errorf("%w: the shard's run was killed; run it again to finish it before merging", err)
	}
	return err
}

// fileRefusal is the error of the first shard (in the order given)
// whose records do not read: a line that is no record of its run, an
// episode recorded twice, a last line cut short.
func (ss shardFiles) fileRefusal() error {
	for _, s := range ss {
		if _, err := results.ScanRecords(s.records(), s.path, checkRun(s.Run), func(results.Record) error { return nil }); err != nil {
			return shardReadErr(err)
		}
	}
	return nil
}

// refusal is why the shards do not merge, or nil: what a reading of
// each shard's records in turn, then a check of their run.json files
// together, then of each record's place, in turn, finds first. A merge
// that stops at the first record it cannot take, in the order it reads
// them, names the refusal so, whatever that order.
func (ss shardFiles) refusal() error {
	if err := ss.fileRefusal(); err != nil {
		return err
	}
	if _, err := results.CheckShards(ss.dirs()); err != nil {
		return err
	}
	for i, s := range ss {
		place := s.Placer()
		var bad error
		_, err := results.ScanRecordsAt(s.records(), s.path, nil, func(r results.Record, at results.LineAt) error {
			if _, bad = place(r); bad != nil {
				bad = fmt.Errorf("%s:%d: %w", s.path, at.Line, bad)
				return errStop
			}
			return nil
		})
		if bad == nil {
			if err != nil {
				return err
			}
			continue
		}
		// Of two shards that hold one episode, the one given first holds
		// it rightly (or it would have been refused first): it is its
		// shard's, and the later one holds another shard's job.
		var wrong *results.WrongShardError
		if errors.As(bad, &wrong) {
			for _, o := range ss[:i] {
				if o.Run.Shard.Index == wrong.Owner && o.holds(wrong.Key) {
					return results.InTwoShards(wrong.Key, o.Dir, s.Dir)
				}
			}
		}
		return bad
	}
	return nil
}

// holds reports whether s holds a record of the episode key.
func (s *shardFile) holds(key string) bool {
	found := false
	results.ScanRecords(s.records(), s.path, nil, func(r results.Record) error {
		if found = r.Key() == key; found {
			return errStop
		}
		return nil
	})
	return found
}

// hasTranscripts reports whether a directory of dirs kept transcripts.
func hasTranscripts(dirs []string) bool {
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, transcriptFileName)); err == nil {
			return true
		}
	}
	return false
}

// mergeRecords writes the shards' records to path (a temporary file in
// OUT), in the unsharded run's order (see [results.CheckShards]), and
// adds each to sum as it is written. With keys it returns where each
// record went, for the transcripts. It refuses, with an error of the
// first record it cannot take, shards that [shardFiles.refusal] refuses.
//
// A shard's records.jsonl is in job order, as run writes it and a
// resumed run rewrites it: the merge reads every file at once, a record
// at a time, and writes the lowest placed, holding one record a shard.
// A file out of that order (records of jobs the order does not hold,
// two models' records in one directory, anything a resumed run's
// reordering left) is met when one of its records is placed before the
// one read before it: the merge then starts again, and every file found
// out of order is read through an index of its lines in job order (24
// bytes a record: the place, the line's offset, length and number),
// each record read again at its offset.
func mergeRecords(path string, shards shardFiles, sum *mergedSummary, keys bool) (*mergedKeys, error) {
	var placed *mergedKeys
	pass := func(indexed bool) error {
		if keys {
			placed = newMergedKeys(shards[0].Run.Shard.Order)
		}
		return writeSynced(path, func(w io.Writer) error {
			// The records are flushed as the buffer fills, not one a
			// write: results.Writer flushes a writer that can be.
			rw := results.NewWriter(struct{ io.Writer }{w})
			srcs := make([]recordSource, len(shards))
			defer func() {
				for _, s := range srcs {
					if s != nil {
						s.close()
					}
				}
			}()
			for i, s := range shards {
				place := s.Placer()
				at := func(r *results.Record) (int, error) { return place(*r) }
				var err error
				if srcs[i], err = shardSource(s, at, indexed); err != nil {
					return err
				}
			}
			var job sameJob
			return mergeSources(srcs, func(r *results.Record, i, k int) error {
				if job.again(r, k) {
					return fmt.Errorf("%s: episode %s recorded twice", shards[i].path, r.Key())
				}
				if err := rw.Write(*r); err != nil {
					return err
				}
				sum.add(r, shards[i])
				if placed != nil {
					placed.add(r, k)
				}
				return nil
			})
		})
	}
	err := pass(false)
	if errors.Is(err, errUnsorted) {
		sum.reset()
		err = pass(true)
	}
	if err != nil {
		return nil, err
	}
	return placed, nil
}

// shardSource reads shard s's records in job order. Unless indexed, it
// takes its file to be in that order; indexed, it reads the file whole
// first, and indexes it when it is not.
//
// Each record is checked against the shard's run.json as it is read;
// that no episode is there twice is checked in job order ([sameJob]),
// where two records of one episode come together, rather than by
// holding a hash of every key read ([results.OnceEach], 24 bytes an
// episode and the larger part of the merge's heap).
func shardSource(s *shardFile, at func(*results.Record) (int, error), indexed bool) (recordSource, error) {
	check := func(_ int, r results.Record) error { return s.Run.CheckRecord(r) }
	if !indexed {
		return newScanSource(s.records(), s.path, check, at), nil
	}
	src, sorted, err := indexRecords(s.records(), s.f, s.path, check, at)
	if err != nil {
		return nil, err
	}
	if sorted {
		return newScanSource(s.records(), s.path, check, at), nil
	}
	return src, nil
}

// sameJob holds the records of one job as a merge writes them in job
// order (one, but for two models' on one directory), to find an episode
// recorded twice: its two records are of one job, and so come together.
type sameJob struct {
	k    int
	recs []results.Record
}

// again adds r, of job k, and reports whether a record of its episode
// came before it.
func (s *sameJob) again(r *results.Record, k int) bool {
	if len(s.recs) == 0 || k != s.k {
		s.k, s.recs = k, append(s.recs[:0], *r)
		return false
	}
	key := r.Key()
	for i := range s.recs {
		if s.recs[i].Key() == key {
			return true
		}
	}
	s.recs = append(s.recs, *r)
	return false
}

// errStop stops a scan of records that has found what it looked for.
var errStop = errors.New("stop")

// errUnsorted is a record placed before the one its file held before it.
var errUnsorted = errors.New("records out of order")

// A recordSource hands a file's records in the order of their places (a
// merge's job positions, a resumed run's grid order), each with its
// place; ok is false after the last.
type recordSource interface {
	next() (rec results.Record, at int, ok bool, err error)
	close()
}

// scanSource hands a file's records in the file's order, which must be
// that of their places (errUnsorted otherwise), reading one at a time.
type scanSource struct {
	pull    func() (placedRecord, bool)
	stop    func()
	last    int
	started bool
}

type placedRecord struct {
	rec results.Record
	at  int
	err error
}

func newScanSource(r io.Reader, name string, check func(int, results.Record) error, place func(*results.Record) (int, error)) *scanSource {
	seq := func(yield func(placedRecord) bool) {
		_, err := results.ScanRecords(r, name, check, func(rec results.Record) error {
			at, err := place(&rec)
			if err != nil {
				return err
			}
			if !yield(placedRecord{rec: rec, at: at}) {
				return errStop
			}
			return nil
		})
		if err != nil && !errors.Is(err, errStop) {
			yield(placedRecord{err: err})
		}
	}
	pull, stop := iter.Pull(seq)
	return &scanSource{pull: pull, stop: stop}
}

func (s *scanSource) next() (results.Record, int, bool, error) {
	p, ok := s.pull()
	switch {
	case !ok:
		return results.Record{}, 0, false, nil
	case p.err != nil:
		return results.Record{}, 0, false, p.err
	case s.started && p.at < s.last:
		return results.Record{}, 0, false, errUnsorted
	}
	s.last, s.started = p.at, true
	return p.rec, p.at, true, nil
}

func (s *scanSource) close() { s.stop() }

// indexSource hands a file's records in the order of an index of its
// lines sorted by place, reading each at its offset.
type indexSource struct {
	r     io.ReaderAt
	name  string
	lines []placedLine
	i     int
}

// placedLine is a record's place and where its line is: 24 bytes.
type placedLine struct {
	at   int
	line results.LineAt
}

// indexRecords reads the records of a file (r, and ra at its start),
// checking each and placing it, and returns a source of them in order of
// their places (records of one place in the file's order), and whether
// the file was in that order already.
func indexRecords(r io.Reader, ra io.ReaderAt, name string, check func(int, results.Record) error, place func(*results.Record) (int, error)) (*indexSource, bool, error) {
	s := &indexSource{r: ra, name: name}
	sorted := true
	_, err := results.ScanRecordsAt(r, name, check, func(rec results.Record, line results.LineAt) error {
		at, err := place(&rec)
		if err != nil {
			return err
		}
		if n := len(s.lines); n > 0 && at < s.lines[n-1].at {
			sorted = false
		}
		s.lines = append(s.lines, placedLine{at, line})
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	if sorted {
		return nil, true, nil
	}
	slices.SortStableFunc(s.lines, func(a, b placedLine) int { return cmp.Compare(a.at, b.at) })
	return s, false, nil
}

func (s *indexSource) next() (results.Record, int, bool, error) {
	if s.i == len(s.lines) {
		return results.Record{}, 0, false, nil
	}
	l := s.lines[s.i]
	s.i++
	rec, err := results.ReadRecordAt(s.r, s.name, l.line)
	return rec, l.at, err == nil, err
}

func (s *indexSource) close() {}

// mergeSources hands each record of srcs to each, in order of their
// places; of records of one place, those of the earlier source first.
// It holds one record a source.
func mergeSources(srcs []recordSource, each func(r *results.Record, src, at int) error) error {
	h := &sourceHeap{heads: make([]placedRecord, len(srcs))}
	for i, s := range srcs {
		rec, at, ok, err := s.next()
		if err != nil {
			return err
		}
		if ok {
			h.heads[i] = placedRecord{rec: rec, at: at}
			h.live = append(h.live, i)
		}
	}
	heap.Init(h)
	for len(h.live) > 0 {
		i := h.live[0]
		if err := each(&h.heads[i].rec, i, h.heads[i].at); err != nil {
			return err
		}
		rec, at, ok, err := srcs[i].next()
		if err != nil {
			return err
		}
		if ok {
			h.heads[i] = placedRecord{rec: rec, at: at}
			heap.Fix(h, 0)
		} else {
			heap.Pop(h)
		}
	}
	return nil
}

// sourceHeap orders the sources that have records left by their next
// record's place, then by source.
type sourceHeap struct {
	heads []placedRecord
	live  []int
}

func (h *sourceHeap) Len() int { return len(h.live) }
func (h *sourceHeap) Less(a, b int) bool {
	i, j := h.live[a], h.live[b]
	return h.heads[i].at < h.heads[j].at || h.heads[i].at == h.heads[j].at && i < j
}
func (h *sourceHeap) Swap(a, b int) { h.live[a], h.live[b] = h.live[b], h.live[a] }
func (h *sourceHeap) Push(x any)    { h.live = append(h.live, x.(int)) }
func (h *sourceHeap) Pop() any {
	x := h.live[len(h.live)-1]
	h.live = h.live[:len(h.live)-1]
	return x
}

// bitset is a set of positions, a bit each.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) set(i int) { b[i/64] |= 1 << (i % 64) }

func (b bitset) has(i int) bool { return i >= 0 && i/64 < len(b) && b[i/64]&(1<<(i%64)) != 0 }

// keyHash names a record's key by two 64-bit hashes under independent
// seeds, as results.OnceEach does: 16 bytes, and no two keys of a run
// share them.
type keyHash [2]maphash.Seed

func newKeyHash() keyHash { return keyHash{maphash.MakeSeed(), maphash.MakeSeed()} }

func (h keyHash) of(key string) [2]uint64 {
	return [2]uint64{maphash.String(h[0], key), maphash.String(h[1], key)}
}

// mergedKeys finds a merged record by its key, the name of its
// episode's transcript lines, and gives its place in the merged file:
// its job's position, and its rank among the records of that job (two
// models' on one directory). It holds a bit a job: whether the job's
// first record is the plain one its key names when it is of the first
// record's track and seed and its agent's first model. Only a record
// that is not so (another model's, in a directory of two) is kept apart,
// by a hash of its key.
type mergedKeys struct {
	locate       func(results.Record) (int, bool)
	plain        bitset
	track        string
	seed         uint64
	model        map[string]string // by agent: the model of its first record
	others       map[[2]uint64]keyPlace
	hash         keyHash
	n, last, run int
}

// keyPlace is a record's place in a merged file: its job's position and
// its rank among the job's records.
type keyPlace struct{ k, rank int }

func newMergedKeys(order results.JobOrder) *mergedKeys {
	return &mergedKeys{locate: order.Locate(), plain: newBitset(order.Len()), model: map[string]string{},
		others: map[[2]uint64]keyPlace{}, hash: newKeyHash()}
}

// add adds the next record of the merged file, of job k.
func (m *mergedKeys) add(r *results.Record, k int) {
	if m.n > 0 && k == m.last {
		m.run++
	} else {
		m.last, m.run = k, 0
	}
	if m.n == 0 {
		m.track, m.seed = r.Track, r.Seed
	}
	m.n++
	model, seen := m.model[r.Agent]
	if !seen {
		m.model[r.Agent], model = r.Model, r.Model
	}
	if m.run == 0 && r.Track == m.track && r.Seed == m.seed && r.Model == model {
		m.plain.set(k)
		return
	}
	m.others[m.hash.of(r.Key())] = keyPlace{k, m.run}
}

// find is the place of the merged record whose key is key, or false
// when there is none.
func (m *mergedKeys) find(key string) (keyPlace, bool) {
	if m == nil {
		return keyPlace{}, false
	}
	if p, ok := m.others[m.hash.of(key)]; ok {
		return p, true
	}
	r, ok := parseKey(key)
	if !ok || r.Track != m.track || r.Seed != m.seed {
		return keyPlace{}, false
	}
	if model, seen := m.model[r.Agent]; !seen || model != r.Model {
		return keyPlace{}, false
	}
	k, ok := m.locate(r)
	if !ok || !m.plain.has(k) {
		return keyPlace{}, false
	}
	return keyPlace{k, 0}, true
}

// parseKey reads a record's key ([results.Record.Key]) back into the
// fields it names, or false when key is no record's key.
func parseKey(key string) (results.Record, bool) {
	var r results.Record
	rest := key
	for _, name := range []*string{&r.Track, &r.Family, &r.Perturbation, &r.Agent, &r.Model} {
		q, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return r, false
		}
		if *name, err = strconv.Unquote(q); err != nil {
			return r, false
		}
		var ok bool
		if rest, ok = strings.CutPrefix(rest[len(q):], "/"); !ok {
			return r, false
		}
	}
	parts := strings.Split(rest, "/")
	if len(parts) < 2 || len(parts) > 4 {
		return r, false
	}
	seed, err := strconv.ParseUint(parts[0], 10, 64)
	if err != nil {
		return r, false
	}
	r.Seed = seed
	if r.Episode, err = strconv.Atoi(parts[1]); err != nil {
		return r, false
	}
	for _, p := range parts[2:] {
		var n int
		switch {
		case strings.HasPrefix(p, "n="):
			n, err = strconv.Atoi(p[2:])
			r.SceneSize = n
		case strings.HasPrefix(p, "r="):
			n, err = strconv.Atoi(p[2:])
			r.Repeat = n
		default:
			return r, false
		}
		if err != nil {
			return r, false
		}
	}
	// The key made again is key itself, or key is not one: so that no
	// spelling of a number or a name reads as another record's.
	return r, r.Key() == key
}
