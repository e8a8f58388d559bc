package stats

import (
	"cmp"
	"slices"

	"github.com/ambibench/ambibench/results"
)

// Cell is the aggregate of the records of one agent on one perturbation, and
// on one task family or, when families are pooled, all of them (Family "*").
type Cell struct {
	Agent, Family, Perturbation string
	N                           int     // episodes (records)
	ADA                         Rate    // episodes with ADA, of N
	SR                          Rate    // successful episodes, of N
	TagAcc                      Rate    // K = sum of TagCorrect, N = sum of Questions
	Steps                       float64 // mean steps per episode
	WallMS                      float64 // mean wall time per episode, in milliseconds
	Errors                      int     // episodes that ended with an error (they count in N as failures)
}

// AllFamilies is the Family of a [Cell] that pools every task family.
const AllFamilies = "*"

// AggregateOptions says how [Aggregate] groups and orders its cells.
type AggregateOptions struct {
	// ByFamily gives one cell per task family; otherwise the families pool
	// and each cell's Family is AllFamilies.
	ByFamily bool
	// Agents orders the cells by agent: listed agents first, in this order,
	// then the others alphabetically. Empty means alphabetical.
	Agents []string
	// Perturbations orders the cells of one agent and family by
	// perturbation, the same way as Agents.
	Perturbations []string
}

// Aggregate groups records by (agent, family, perturbation) — by (agent,
// perturbation) when opts.ByFamily is false — and returns one [Cell] per group.
// Cells are sorted by agent (opts.Agents order, else alphabetical), then family
// (alphabetical), then perturbation (opts.Perturbations order, else
// alphabetical). Records of different models under one agent name pool; filter
// by Model first to compare models. Records that ended in an infrastructure
// failure are left out (a report counts them apart). Records are not
// validated here. The result does not depend on the order of recs.
func Aggregate(recs []results.Record, opts AggregateOptions) []Cell {
	a := NewAggregator(opts)
	a.wall = true
	for i := range recs {
		a.Add(&recs[i])
	}
	return a.Cells()
}

// Aggregator is [Aggregate] a record at a time, for a caller that does not
// hold the records (a run's summary, added up as the records are
// written): its memory is its cells'. Its cells leave WallMS zero, since
// a mean wall time that does not depend on the order of the records
// (Aggregate sums them sorted) needs them all; no table shows it.
type Aggregator struct {
	opts   AggregateOptions
	wall   bool // keep each group's wall times, for Cell.WallMS
	groups map[aggKey]*aggSums
}

type aggKey struct{ agent, family, perturbation string }

type aggSums struct {
	cell  Cell
	steps int
	wall  []float64
}

// NewAggregator returns an empty Aggregator that groups and orders as
// opts says.
func NewAggregator(opts AggregateOptions) *Aggregator {
	return &Aggregator{opts: opts, groups: map[aggKey]*aggSums{}}
}

// Add adds r; a record that ended in an infrastructure failure is left
// out, as Aggregate leaves it.
func (a *Aggregator) Add(r *results.Record) {
	if !r.Scored() {
		return // an infrastructure failure is in no rate
	}
	k := aggKey{r.Agent, AllFamilies, r.Perturbation}
	if a.opts.ByFamily {
		k.family = r.Family
	}
	g := a.groups[k]
	if g == nil {
		g = &aggSums{cell: Cell{Agent: k.agent, Family: k.family, Perturbation: k.perturbation}}
		a.groups[k] = g
	}
	c := &g.cell
	c.N++
	c.ADA.N++
	c.SR.N++
	if r.ADA {
		c.ADA.K++
	}
	if r.Success {
		c.SR.K++
	}
	c.TagAcc.K += r.TagCorrect
	c.TagAcc.N += r.Questions
	if r.Error != "" {
		c.Errors++
	}
	g.steps += r.Steps
	if a.wall {
		g.wall = append(g.wall, r.WallMS)
	}
}

// Cells are the cells of the records added so far, sorted as Aggregate
// sorts them.
func (a *Aggregator) Cells() []Cell {
	cells := make([]Cell, 0, len(a.groups))
	for _, g := range a.groups {
		c := g.cell
		c.Steps = float64(g.steps) / float64(c.N)
		if a.wall {
			// Summed in sorted order, so the mean does not depend on the
			// order of the records (concurrent runs append them in any
			// order).
			w := slices.Clone(g.wall)
			slices.Sort(w)
			var wall float64
			for _, v := range w {
				wall += v
			}
			c.WallMS = wall / float64(c.N)
		}
		cells = append(cells, c)
	}
	byAgent, byPerturbation := OrderBy(a.opts.Agents), OrderBy(a.opts.Perturbations)
	slices.SortFunc(cells, func(a, b Cell) int {
		return cmp.Or(
			byAgent(a.Agent, b.Agent),
			cmp.Compare(a.Family, b.Family),
			byPerturbation(a.Perturbation, b.Perturbation),
		)
	})
	return cells
}

// OrderBy returns a comparison that puts the names in order first, in that
// order, and all other names after them, alphabetically: how [Aggregate]
// orders agents and perturbations, and a report its rows and columns.
func OrderBy(order []string) func(a, b string) int {
	rank := make(map[string]int, len(order))
	for i, s := range order {
		if _, dup := rank[s]; !dup {
			rank[s] = i
		}
	}
	return func(a, b string) int {
		ra, okA := rank[a]
		rb, okB := rank[b]
		switch {
		case okA && okB:
			return cmp.Compare(ra, rb)
		case okA:
			return -1
		case okB:
			return 1
		}
		return cmp.Compare(a, b)
	}
}
