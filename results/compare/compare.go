package compare

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

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

// side indexes one run's records by EpisodeKey, within each group.
type side struct {
	name   string
	groups map[group]map[string]results.Record
	models []string
}

func index(name string, recs []results.Record) (side, error) {
	s := side{name: name, groups: map[group]map[string]results.Record{}}
	if k, i, j, dup := results.FirstDuplicate(recs); dup {
		// One of the two would pair and the other be dropped unseen.
		return side{}, &UnpairedError{fmt.Sprintf("%s holds episode %s twice (records %d and %d); a run records each episode once", name, k, i+1, j+1)}
	}
	model := map[string]string{}
	for _, r := range recs {
		if m, ok := model[r.Agent]; ok && m != r.Model {
			return side{}, &UnpairedError{fmt.Sprintf("%s holds agent %s under two models, %q and %q; compare runs of one model per agent", name, r.Agent, m, r.Model)}
		}
		model[r.Agent] = r.Model
		g := groupOf(r)
		if s.groups[g] == nil {
			s.groups[g] = map[string]results.Record{}
		}
		s.groups[g][r.EpisodeKey()] = r
	}
	s.models = slices.Sorted(maps.Keys(func() map[string]bool {
		m := map[string]bool{}
		for _, v := range model {
			m[v] = true
		}
		return m
	}()))
	return s, nil
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
// that says which.
func Runs(base, new []results.Record, opts Options) (Result, error) {
	if opts.Alpha == 0 {
		opts.Alpha = 0.05
	}
	for _, m := range opts.Metrics {
		if !slices.Contains(stats.MetricNames, m) {
			return Result{}, fmt.Errorf("unknown metric %q (have %s)", m, strings.Join(stats.MetricNames, ", "))
		}
	}
	res := Result{Options: opts}
	b, err := index("BASE", base)
	if err != nil {
		return res, err
	}
	n, err := index("NEW", new)
	if err != nil {
		return res, err
	}
	res.BaseModels, res.NewModels = b.models, n.models
	groups := slices.SortedFunc(maps.Keys(b.groups), compareGroups)
	for _, g := range groups {
		if _, ok := n.groups[g]; !ok {
			res.OnlyBase = append(res.OnlyBase, g.String())
		}
	}
	for _, g := range slices.SortedFunc(maps.Keys(n.groups), compareGroups) {
		if _, ok := b.groups[g]; !ok {
			res.OnlyNew = append(res.OnlyNew, g.String())
		}
	}
	for _, g := range groups {
		br, nr := b.groups[g], n.groups[g]
		if nr == nil {
			continue
		}
		if err := samePairs(g, br, nr); err != nil {
			return res, err
		}
		var pb, pn []results.Record
		for _, k := range slices.Sorted(maps.Keys(br)) {
			x, y := br[k], nr[k]
			if !x.Scored() || !y.Scored() {
				res.InfraPairs++
				if !x.Scored() {
					res.InfraBase++
				}
				if !y.Scored() {
					res.InfraNew++
				}
				continue
			}
			pb, pn = append(pb, x), append(pn, y)
		}
		for _, m := range cellMetrics(slices.Concat(pb, pn)) {
			c := Comparison{Agent: g.agent, Track: g.track, Family: g.family, Perturbation: g.perturbation, SceneSize: g.size, Metric: m.Name}
			for i := range pb {
				x, y := m.Of(pb[i]), m.Of(pn[i])
				c.Pairs++
				switch {
				case x && y:
					c.Both++
				case x:
					c.B++
				case y:
					c.C++
				}
			}
			c.P = stats.McNemarP(c.B, c.C)
			c.Gated = (len(opts.Agents) == 0 || slices.Contains(opts.Agents, g.agent)) &&
				(len(opts.Metrics) == 0 || slices.Contains(opts.Metrics, m.Name))
			res.Comparisons = append(res.Comparisons, c)
		}
	}
	if len(res.Comparisons) == 0 {
		why := "no agent and cell is in both runs"
		if len(b.groups) > 0 && len(n.groups) > 0 {
			why += fmt.Sprintf(" (BASE has %s, NEW has %s)", firstGroups(b), firstGroups(n))
		}
		return res, &UnpairedError{why}
	}
	ps := make([]float64, len(res.Comparisons))
	for i, c := range res.Comparisons {
		ps[i] = c.P
	}
	for i, h := range stats.Holm(ps) {
		c := &res.Comparisons[i]
		c.Holm = h
		c.Verdict = VerdictSame
		if h < opts.Alpha && c.Pairs > 0 && math.Abs(c.Diff()) >= opts.MinEffect-1e-12 {
			c.Verdict = VerdictBetter
			if c.Diff() < 0 {
				c.Verdict = VerdictWorse
			}
		}
	}
	return res, nil
}

// cellMetrics are the metrics a cell is scored by: Top-1 for a cell of
// queries (records with a Query: the semmap track), SR and ADA for a
// cell of tasks. The rule reads the records, not the track's name.
func cellMetrics(recs []results.Record) []stats.Metric {
	for _, r := range recs {
		if r.Query != "" {
			return []stats.Metric{stats.MetricTop1}
		}
	}
	return []stats.Metric{stats.MetricSR, stats.MetricADA}
}

func compareGroups(x, y group) int {
	return cmp.Or(cmp.Compare(x.agent, y.agent), cmp.Compare(x.track, y.track), cmp.Compare(x.family, y.family),
		cmp.Compare(x.perturbation, y.perturbation), cmp.Compare(x.size, y.size))
}

func firstGroups(s side) string {
	gs := slices.SortedFunc(maps.Keys(s.groups), compareGroups)
	var names []string
	for _, g := range gs[:min(len(gs), 2)] {
		names = append(names, g.String())
	}
	out := strings.Join(names, ", ")
	if len(gs) > 2 {
		out += fmt.Sprintf(" and %d more", len(gs)-2)
	}
	return out
}

// samePairs checks that a group's episodes are the same on both sides.
func samePairs(g group, b, n map[string]results.Record) error {
	var onlyB, onlyN []string
	for k, r := range b {
		if _, ok := n[k]; !ok {
			onlyB = append(onlyB, r.PlainKey())
		}
	}
	for k, r := range n {
		if _, ok := b[k]; !ok {
			onlyN = append(onlyN, r.PlainKey())
		}
	}
	if len(onlyB) == 0 && len(onlyN) == 0 {
		return nil
	}
	slices.Sort(onlyB)
	slices.Sort(onlyN)
	show := func(keys []string) string {
		s := strings.Join(keys[:min(len(keys), 3)], ", ")
		if len(keys) > 3 {
			s += fmt.Sprintf(", … (%d in all)", len(keys))
		}
		return s
	}
	var parts []string
	if len(onlyB) > 0 {
		parts = append(parts, fmt.Sprintf("%d only in BASE (%s)", len(onlyB), show(onlyB)))
	}
	if len(onlyN) > 0 {
		parts = append(parts, fmt.Sprintf("%d only in NEW (%s)", len(onlyN), show(onlyN)))
	}
	return &UnpairedError{fmt.Sprintf("%s: %d episodes in BASE and %d in NEW, %s; run both with the same --episodes, seed and grid",
		g, len(b), len(n), strings.Join(parts, ", "))}
}
