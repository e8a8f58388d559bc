package results

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// RunShard says which part of a run a shard's directory holds: shard
// Index (from 1) of Count, and the whole run's job order, from which the
// shards are dealt (job k of Order to shard k mod Count + 1) and by which
// [MergeShards] puts their records back in the order of the unsharded
// run. The order is kept here, rather than rebuilt from the track's
// flags at merge time, so that merging needs neither the flags nor what
// they name (a dataset folder, say).
type RunShard struct {
	Index int      `json:"index"`
	Count int      `json:"count"`
	Order JobOrder `json:"order"`
}

// JobOrder is a run's job order: for each cell in turn, for each agent,
// the episodes 0 to the cell's Episodes-1, each played Repeats times
// (bench.Jobs' order).
type JobOrder struct {
	Agents []string    `json:"agents"`
	Cells  []OrderCell `json:"cells"`
	// Repeats is the plays of each episode, repeat innermost; 0 or 1:
	// once.
	Repeats int `json:"repeats,omitempty"`
}

func (o JobOrder) repeats() int { return max(o.Repeats, 1) }

// OrderCell is one cell of a [JobOrder] and the episodes each agent plays
// in it.
type OrderCell struct {
	Family       string `json:"family"`
	Perturbation string `json:"perturbation"`
	SceneSize    int    `json:"scene_size,omitempty"`
	Episodes     int    `json:"episodes"`
}

// Len is the number of jobs in o.
func (o JobOrder) Len() int {
	n := 0
	for _, c := range o.Cells {
		n += c.Episodes * len(o.Agents)
	}
	n *= o.repeats()
	return n
}

// Equal reports whether o and p are the same order.
func (o JobOrder) Equal(p JobOrder) bool {
	return slices.Equal(o.Agents, p.Agents) && slices.Equal(o.Cells, p.Cells) && o.repeats() == p.repeats()
}

// Locate returns the place in o of the job a record names apart from its
// model (and its track and seed, which run.json fixes), or false when the
// job is not one of o's. It holds o's cells and agents, not its jobs, so
// a reader of a run of any size can place each record as it comes.
func (o JobOrder) Locate() func(Record) (int, bool) {
	type cellKey struct {
		family, perturbation string
		size                 int
	}
	type placedCell struct{ start, episodes int }
	cells := make(map[cellKey]placedCell, len(o.Cells))
	agents := make(map[string]int, len(o.Agents))
	for i, a := range o.Agents {
		agents[a] = i
	}
	reps := o.repeats()
	start := 0
	for _, c := range o.Cells {
		cells[cellKey{c.Family, c.Perturbation, c.SceneSize}] = placedCell{start, c.Episodes}
		start += c.Episodes * len(o.Agents) * reps
	}
	return func(r Record) (int, bool) {
		c, ok := cells[cellKey{r.Family, r.Perturbation, r.SceneSize}]
		a, okA := agents[r.Agent]
		if !ok || !okA || r.Episode < 0 || r.Episode >= c.episodes || r.Repeat < 0 || r.Repeat >= reps {
			return 0, false
		}
		return c.start + (a*c.episodes+r.Episode)*reps + r.Repeat, true
	}
}

// A ShardDir is one shard's directory as a merge reads it: the
// directory and its run.json. Its records are read apart, a record at a
// time ([ScanRecords]), and placed by [ShardDir.Placer].
type ShardDir struct {
	Dir string
	Run RunFile
}

// CheckShards checks that shards are the shards of one run: every shard
// 1 to n present once, with equal settings, grids and job orders. It
// returns the run.json of the whole run (the shards' without the shard
// field). Each refusal names the directories and what differs. That no
// episode is in two of them is each record's check ([ShardDir.Placer]).
//
// A merge writes the shards' records in the unsharded run's order: by
// the job order, and records of one job (two models on one directory)
// in the order their shard holds them. An infra-error record is kept as
// it is, so that resuming the merged directory runs it again.
func CheckShards(shards []ShardDir) (RunFile, error) {
	if len(shards) == 0 {
		return RunFile{}, fmt.Errorf("no shard directories")
	}
	for _, s := range shards {
		if s.Run.Shard == nil {
			return RunFile{}, fmt.Errorf("%s: not a shard (its %s has no \"shard\" field: it was not run with --shard)", s.Dir, RunFileName)
		}
	}
	first := shards[0]
	n := first.Run.Shard.Count
	byIndex := map[int]string{}
	for _, s := range shards {
		sh := s.Run.Shard
		if sh.Count != n {
			return RunFile{}, fmt.Errorf("mismatched shards: %s is shard %d/%d, %s is shard %d/%d: different shard counts", first.Dir, first.Run.Shard.Index, n, s.Dir, sh.Index, sh.Count)
		}
		if sh.Index < 1 || sh.Index > n {
			return RunFile{}, fmt.Errorf("%s: shard %d/%d: index must be between 1 and %d", s.Dir, sh.Index, sh.Count, n)
		}
		if d, dup := byIndex[sh.Index]; dup {
			return RunFile{}, fmt.Errorf("overlapping shards: %s and %s are both shard %d/%d", d, s.Dir, sh.Index, n)
		}
		byIndex[sh.Index] = s.Dir
		if changes := first.Run.Changes(s.Run.Settings); len(changes) > 0 {
			var b strings.Builder
			fmt.Fprintf(&b, "mismatched shards: %s and %s were run with different settings:", first.Dir, s.Dir)
			for _, c := range changes {
				fmt.Fprintf(&b, "\n  %s: %s in %s, %s in %s", c.Name, show(c.Old), first.Dir, show(c.New), s.Dir)
			}
			return RunFile{}, fmt.Errorf("%s", b.String())
		}
		if diffs := gridDiffs(first.Run.Grid, s.Run.Grid); len(diffs) > 0 || !first.Run.Shard.Order.Equal(sh.Order) {
			var b strings.Builder
			fmt.Fprintf(&b, "mismatched shards: %s and %s are shards of different grids", first.Dir, s.Dir)
			if len(diffs) == 0 {
				b.WriteString(": the same grid in another job order (run by another version of ambibench?)")
			}
			for _, d := range diffs {
				fmt.Fprintf(&b, "\n  %s: %s in %s, %s in %s", d[0], d[1], first.Dir, d[2], s.Dir)
			}
			return RunFile{}, fmt.Errorf("%s", b.String())
		}
	}
	var missing []string
	for i := 1; i <= n; i++ {
		if _, ok := byIndex[i]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", i, n))
		}
	}
	if len(missing) > 0 {
		return RunFile{}, fmt.Errorf("missing %s: shard %s of the run %s not among the directories given", plural(len(missing), "shard", "shards"), strings.Join(missing, ", "), plural(len(missing), "is", "are"))
	}
	rf := first.Run
	rf.Shard = nil
	return rf, nil
}

// Placer returns the place of each record of shard s in the whole run's
// job order (s's run.json's shard order, which [CheckShards] found the
// same in every shard): its job's position, or an error naming s's
// directory for a record of no job of the grid, and a [*WrongShardError]
// for one of another shard's job.
//
// Two shards that hold one episode are refused by it too: each job is one
// shard's, so of two directories holding one episode at least one holds
// another shard's job.
func (s ShardDir) Placer() func(Record) (int, error) {
	sh := s.Run.Shard
	locate := sh.Order.Locate()
	return func(r Record) (int, error) {
		k, ok := locate(r)
		if !ok {
			return 0, fmt.Errorf("%s: episode %s is not in the run's grid", s.Dir, r.Key())
		}
		if k%sh.Count != sh.Index-1 {
			return 0, &WrongShardError{Dir: s.Dir, Shard: *sh, Key: r.Key(), Owner: k%sh.Count + 1}
		}
		return k, nil
	}
}

// WrongShardError is a shard's record of a job that is another shard's,
// Owner's.
type WrongShardError struct {
	Dir   string
	Shard RunShard
	Key   string
	Owner int
}

func (e *WrongShardError) Error() string {
	return fmt.Sprintf("misplaced record: %s is shard %d/%d but holds episode %s, a job of shard %d/%d (a record moved from another shard's file?)", e.Dir, e.Shard.Index, e.Shard.Count, e.Key, e.Owner, e.Shard.Count)
}

// InTwoShards is the error of an episode, key, that the shard directories
// first and again both hold.
func InTwoShards(key, first, again string) error {
	return fmt.Errorf("overlapping shards: episode %s is in %s and in %s", key, first, again)
}

// gridDiffs names each part of the grids g and h that differs, with its
// value in each: a name and two values a difference.
func gridDiffs(g, h Grid) [][3]string {
	var out [][3]string
	list := func(name string, a, b []string) {
		if !slices.Equal(a, b) {
			out = append(out, [3]string{name, "[" + strings.Join(a, ", ") + "]", "[" + strings.Join(b, ", ") + "]"})
		}
	}
	num := func(name string, a, b int) {
		if a != b {
			out = append(out, [3]string{name, strconv.Itoa(a), strconv.Itoa(b)})
		}
	}
	list("agents", g.Agents, h.Agents)
	list("models", g.Models, h.Models)
	list("families", g.Families, h.Families)
	list("perturbations", g.Perturbations, h.Perturbations)
	if !slices.Equal(g.SceneSizes, h.SceneSizes) {
		out = append(out, [3]string{"scene sizes", fmt.Sprint(g.SceneSizes), fmt.Sprint(h.SceneSizes)})
	}
	num("episodes", g.Episodes, h.Episodes)
	num("repeats", g.Repeats, h.Repeats)
	return out
}

func show(v string) string {
	if v == "" {
		return "(unset)"
	}
	return v
}
