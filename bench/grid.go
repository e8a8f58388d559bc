package bench

import (
	"fmt"
	"iter"
	"sort"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/results"
)

// Grid is a run's jobs in grid order (cell, then agent, then episode
// index, then repeat), with opts.Shard, only that shard's, made one at a
// time as they are asked for rather than held. A grid of a million
// episodes held as a []Job was 64 MB, made before the first episode and
// kept to the end (twice, with a shard's part beside the whole grid);
// a Grid is its cells and their offsets, and job k is worked out from k.
type Grid struct {
	track  string
	cells  []Cell
	n      []int // episodes each agent plays in cells[c]
	start  []int // the whole grid's index of cells[c]'s first job
	agents []string
	reps   int
	total  int // jobs of the whole grid
	shard  Shard
}

// NewGrid checks opts as [Jobs] does and returns its grid.
func NewGrid(opts Options) (*Grid, error) {
	if err := opts.Shard.Check(); err != nil {
		return nil, err
	}
	t := opts.Track
	if t == nil {
		return nil, fmt.Errorf("no track (have %v)", TrackNames())
	}
	cells, err := t.Cells(opts.Families, opts.Perturbations)
	if err != nil {
		return nil, err
	}
	track := t.Name()
	names := opts.Agents
	if len(names) == 0 {
		names = agents.NamesFor(track)
	}
	for _, a := range names {
		info, ok := agents.Lookup(a)
		if !ok {
			return nil, fmt.Errorf("unknown agent %q (have %v)", a, agents.Names())
		}
		if !info.Plays(track) {
			return nil, fmt.Errorf("agent %q does not play the %s track (agents that do: %v)", a, track, agents.NamesFor(track))
		}
	}
	var specs []string
	for _, m := range append([]llm.Model{opts.Model}, opts.Members...) {
		if m != nil {
			specs = append(specs, m.Name())
		}
	}
	if err := CheckImages(t, names, specs); err != nil {
		return nil, err
	}
	if opts.Repeats < 0 {
		return nil, fmt.Errorf("repeats must be at least 1, got %d", opts.Repeats)
	}
	if _, bounded := t.CellEpisodes(Cell{}); opts.Episodes < 0 || opts.Episodes == 0 && !bounded {
		return nil, fmt.Errorf("episodes must be at least 1, got %d", opts.Episodes)
	}
	g := &Grid{track: track, agents: names, reps: max(opts.Repeats, 1), shard: opts.Shard}
	for _, c := range cells {
		n := opts.Episodes
		if have, bounded := t.CellEpisodes(c); bounded && (n == 0 || n > have) {
			n = have
		}
		if n == 0 || len(names) == 0 {
			continue // no job: the cell is not in the grid
		}
		g.cells = append(g.cells, c)
		g.n = append(g.n, n)
		g.start = append(g.start, g.total)
		g.total += len(names) * n * g.reps
	}
	return g, nil
}

// Whole is the grid of every shard.
func (g *Grid) Whole() *Grid {
	w := *g
	w.shard = Shard{}
	return &w
}

// Len is the number of jobs.
func (g *Grid) Len() int {
	if g.shard.IsZero() {
		return g.total
	}
	first := g.shard.Index - 1
	if first >= g.total {
		return 0
	}
	return (g.total-first-1)/g.shard.Count + 1
}

// At is job k, from 0, in grid order; 0 ≤ k < Len.
func (g *Grid) At(k int) Job {
	if !g.shard.IsZero() {
		k = k*g.shard.Count + g.shard.Index - 1 // the shard's job k is the grid's
	}
	c := sort.Search(len(g.start), func(i int) bool { return g.start[i] > k }) - 1
	off := k - g.start[c]
	perAgent := g.n[c] * g.reps
	rest := off % perAgent
	return Job{Cell: g.cells[c], Agent: g.agents[off/perAgent], Index: rest / g.reps, Track: g.track, Repeat: rest % g.reps}
}

// All yields the jobs in grid order.
func (g *Grid) All() iter.Seq[Job] {
	return func(yield func(Job) bool) {
		for k := range g.Len() {
			if !yield(g.At(k)) {
				return
			}
		}
	}
}

// Order is the grid's job order, as [Order] gives it for the jobs of the
// whole grid, worked out from its cells without making a job.
func (g *Grid) Order() results.JobOrder {
	var o results.JobOrder
	cell := map[Cell]int{}
	for i, c := range g.cells {
		at, ok := cell[c]
		if !ok {
			at = len(o.Cells)
			cell[c] = at
			o.Cells = append(o.Cells, results.OrderCell{Family: c.Family, Perturbation: c.Perturbation, SceneSize: c.Size})
		}
		o.Cells[at].Episodes = max(o.Cells[at].Episodes, g.n[i])
	}
	if g.reps > 1 && g.total > 0 {
		o.Repeats = g.reps
	}
	if g.total > 0 {
		seen := map[string]bool{}
		for _, a := range g.agents {
			if !seen[a] {
				seen[a] = true
				o.Agents = append(o.Agents, a)
			}
		}
	}
	return o
}

// Agents are the distinct agents of the grid's jobs, in grid order.
func (g *Grid) Agents() []string {
	var out []string
	seen := map[string]bool{}
	if g.shard.IsZero() || g.minBlock() >= g.shard.Count {
		// Every agent's run of jobs in a cell is at least a shard's
		// stride long, so each shard has a job of every agent.
		if g.Len() == 0 {
			return nil
		}
		for _, a := range g.agents {
			if !seen[a] {
				seen[a] = true
				out = append(out, a)
			}
		}
		return out
	}
	for j := range g.All() {
		if !seen[j.Agent] {
			seen[j.Agent] = true
			out = append(out, j.Agent)
		}
	}
	return out
}

// minBlock is the fewest consecutive jobs one agent has in a cell.
func (g *Grid) minBlock() int {
	m := 0
	for i, n := range g.n {
		if b := n * g.reps; i == 0 || b < m {
			m = b
		}
	}
	return m
}
