package bench

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/results"
)

// Shard selects one part of a run's grid, so that a large run can be
// split over machines or processes and joined again ("ambibench merge").
// Index counts from 1 to Count; the zero Shard is the whole grid.
//
// Job k of the grid (in [Jobs] order, counting from 0) belongs to shard
// k mod Count + 1: the jobs are dealt round-robin. Consecutive jobs are
// the episodes of one agent in one cell, so dealing them out spreads every
// (agent, cell) over all the shards, and each shard gets the same mix of
// agents and cells: an agent that makes many model calls, or a cell with
// large scenes, costs every shard alike, where cutting the list into n
// blocks would give one shard the slow agents. The shards' sizes differ by
// at most one job. The assignment depends on the grid alone, not on the
// concurrency, the machine or the order episodes finish in.
type Shard struct {
	Index, Count int
}

// IsZero reports whether s is the whole grid (no sharding).
func (s Shard) IsZero() bool { return s == Shard{} }

// Check reports a shard whose index is outside 1..Count.
func (s Shard) Check() error {
	if s.IsZero() {
		return nil
	}
	if s.Count < 1 {
		return fmt.Errorf("shard %d/%d: the count must be at least 1", s.Index, s.Count)
	}
	if s.Index < 1 || s.Index > s.Count {
		return fmt.Errorf("shard %d/%d: index must be between 1 and %d", s.Index, s.Count, s.Count)
	}
	return nil
}

// Has reports whether job k of the grid (counting from 0) is in s.
func (s Shard) Has(k int) bool {
	return s.IsZero() || k%s.Count == s.Index-1
}

// Of returns the jobs of the whole grid that are in s, in grid order.
func (s Shard) Of(jobs []Job) []Job {
	if s.IsZero() {
		return jobs
	}
	var out []Job
	for k, j := range jobs {
		if s.Has(k) {
			out = append(out, j)
		}
	}
	return out
}

func (s Shard) String() string {
	if s.IsZero() {
		return "the whole grid"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// ParseShard reads a shard as --shard writes it: "i/n", 1 ≤ i ≤ n.
func ParseShard(text string) (Shard, error) {
	i, n, ok := strings.Cut(strings.TrimSpace(text), "/")
	if !ok {
		return Shard{}, fmt.Errorf("%q: want i/n, such as 1/4 (shard i of n, 1 ≤ i ≤ n)", text)
	}
	index, err1 := strconv.Atoi(strings.TrimSpace(i))
	count, err2 := strconv.Atoi(strings.TrimSpace(n))
	if err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("%q: want i/n with whole numbers, such as 1/4 (shard i of n, 1 ≤ i ≤ n)", text)
	}
	if count < 1 {
		return Shard{}, fmt.Errorf("%s: the number of shards must be at least 1", text)
	}
	if index < 1 || index > count {
		return Shard{}, fmt.Errorf("%s: index must be between 1 and %d", text, count)
	}
	return Shard{Index: index, Count: count}, nil
}

// Order is the job order of jobs, a whole grid as [Jobs] lists it, as a
// shard's run.json keeps it (see results.RunShard): its cells in order
// with the episodes each agent plays in them, and its agents in order.
func Order(jobs []Job) results.JobOrder {
	var o results.JobOrder
	cell := map[Cell]int{}
	agent := map[string]bool{}
	for _, j := range jobs {
		i, ok := cell[j.Cell]
		if !ok {
			i = len(o.Cells)
			cell[j.Cell] = i
			o.Cells = append(o.Cells, results.OrderCell{Family: j.Family, Perturbation: j.Perturbation, SceneSize: j.Size})
		}
		o.Cells[i].Episodes = max(o.Cells[i].Episodes, j.Index+1)
		if j.Repeat > 0 {
			o.Repeats = max(o.Repeats, j.Repeat+1)
		}
		if !agent[j.Agent] {
			agent[j.Agent] = true
			o.Agents = append(o.Agents, j.Agent)
		}
	}
	return o
}
