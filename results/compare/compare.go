package compare

import (
	"fmt"
	"strconv"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/stats"
)

// Options set the gate of [Runs].
type Options struct {
	// Alpha is the significance level of the Holm-adjusted p-values
	// (0: 0.05).
	Alpha float64
	// MinEffect is the smallest drop of a rate, absolute, that fails the
	// gate (0.05 means five points); a significant drop smaller than it
	// is "same".
	MinEffect float64
	// Agents are the agents gated; empty means all. Every agent is
	// compared and counts in the correction either way.
	Agents []string
	// Metrics are the metrics gated, by name (SR, ADA, Top1); empty means
	// each cell's own: SR and ADA for tasks, Top1 for queries.
	Metrics []string
}

// A Comparison is one agent on one cell and one metric, BASE against NEW
// on the episodes both played. Paired's A is BASE and its B is NEW: B
// counts pairs BASE won and NEW lost, C the other way round.
type Comparison struct {
	Agent, Track, Family, Perturbation string
	SceneSize                          int
	Metric                             string
	stats.Paired
	Holm    float64 // P adjusted by Holm's step-down over all comparisons
	Gated   bool    // counts for the exit status
	Verdict string  // "worse", "better" or "same"
}

// Cell names the comparison's cell: "pick_place/absence", with a scene
// size "pick_place/absence/n=24".
func (c Comparison) Cell() string {
	s := c.Family + "/" + c.Perturbation
	if c.SceneSize != 0 {
		s += "/n=" + strconv.Itoa(c.SceneSize)
	}
	return s
}

// Diff is NEW's rate minus BASE's.
func (c Comparison) Diff() float64 {
	if c.Pairs == 0 {
		return 0
	}
	return float64(c.C-c.B) / float64(c.Pairs)
}

// Failed reports whether the comparison fails the gate: gated and worse.
func (c Comparison) Failed() bool { return c.Gated && c.Verdict == VerdictWorse }

// Verdicts of a comparison.
const (
	VerdictWorse  = "worse"
	VerdictBetter = "better"
	VerdictSame   = "same"
)

// Result is what [Runs] found.
type Result struct {
	Options     Options      // with defaults filled in
	Comparisons []Comparison // by agent, track, cell, metric
	// InfraPairs are the pairs left out because either side ended in an
	// infrastructure error; InfraBase and InfraNew count them by side
	// (a pair with both counts on both).
	InfraPairs, InfraBase, InfraNew int
	// OnlyBase and OnlyNew are the agent-and-cell groups found on one
	// side only ("sgcot tabletop pick_place/absence"), left out.
	OnlyBase, OnlyNew []string
	// BaseModels and NewModels are the models each side's records name.
	BaseModels, NewModels []string
}

// Failures are the comparisons that fail the gate.
func (r Result) Failures() []Comparison {
	var out []Comparison
	for _, c := range r.Comparisons {
		if c.Failed() {
			out = append(out, c)
		}
	}
	return out
}

// Pairs is the number of paired episodes compared (each metric counts
// the same pairs).
func (r Result) Pairs() int {
	seen := map[string]bool{}
	n := 0
	for _, c := range r.Comparisons {
		k := c.Agent + "\x00" + c.Track + "\x00" + c.Cell()
		if !seen[k] {
			seen[k] = true
			n += c.Pairs
		}
	}
	return n
}

// UnpairedError is the refusal of two runs whose episodes do not pair.
type UnpairedError struct{ Reason string }

func (e *UnpairedError) Error() string { return "episodes that do not pair: " + e.Reason }

// group is an agent on a cell.
type group struct {
	agent, track, family, perturbation string
	size                               int
}

func (g group) String() string {
	s := g.agent + " " + g.track + " " + g.family + "/" + g.perturbation
	if g.size != 0 {
		s += "/n=" + strconv.Itoa(g.size)
	}
	return s
}

func groupOf(r results.Record) group {
	return group{r.Agent, r.Track, r.Family, r.Perturbation, r.SceneSize}
}

// Runs pairs the records of two runs by [results.Record.EpisodeKey] and
// compares, for each agent and cell (family × perturbation, and scene
// size), the cell's metrics: SR and ADA, or Top1 for a cell of queries.
// Each comparison gets McNemar's exact p from its discordant pairs, the
// p adjusted by Holm's method over all the comparisons made, and a
// verdict: worse (or better) when the adjusted p is below Alpha and the
// rate moved by MinEffect or more, same otherwise.
//
// Pairs where either side ended in an infrastructure error are left out
// and counted. A group (agent and cell) on one side only is left out and
// named. Within a group on both sides every episode must pair: if one
// does not, or nothing pairs at all, Runs returns an *UnpairedError
// that says which. It is a [Stream] given both slices side by side.
func Runs(base, new []results.Record, opts Options) (Result, error) {
	if err := checkMetrics(opts.Metrics); err != nil {
		return Result{}, err
	}
	s := NewStream(opts)
	// An episode twice on one side would pair one record and drop the
	// other unseen; a run's reader refuses it by line ([results.OnceEach]),
	// a slice is refused here by index.
	if err := duplicate("BASE", base); err != nil {
		return Result{Options: s.opts}, err
	}
	dupNew := duplicate("NEW", new)
	feed(s, base, new)
	if dupNew != nil {
		if err := s.sides[baseSide].clash; err != nil {
			return Result{Options: s.opts}, err
		}
		return Result{Options: s.opts}, dupNew
	}
	return s.Result()
}

func duplicate(name string, recs []results.Record) error {
	if k, i, j, dup := results.FirstDuplicate(recs); dup {
		return &UnpairedError{fmt.Sprintf("%s holds episode %s twice (records %d and %d); a run records each episode once", name, k, i+1, j+1)}
	}
	return nil
}

// feed gives s the records of two slices side by side, as two runs of
// one order pair with a record of each held at a time.
func feed(s *Stream, base, new []results.Record) {
	for i := range max(len(base), len(new)) {
		if i < len(base) {
			s.AddBase(base[i])
		}
		if i < len(new) {
			s.AddNew(new[i])
		}
	}
}
