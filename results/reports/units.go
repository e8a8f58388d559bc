package reports

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/stats"
)

// unit is one row of the report: an agent with one model. Records of one
// agent name under two models are two units, so that nothing pools models.
type unit struct {
	agent, model, label string
	recs                []results.Record
}

// groupUnits splits recs by (agent, model) and orders the units as
// Options.Agents says. Each unit's records are sorted by key, so
// nothing downstream depends on the order of recs.
func groupUnits(recs []results.Record, order []string) []unit {
	type key struct{ agent, model string }
	// A group holds the indexes of its records, and its records are
	// copied once, sorted: appending the records themselves grew each
	// group by doubling, and sorting copied them again.
	groups := make(map[key][]int)
	models := make(map[string]map[string]bool)
	for i := range recs {
		r := &recs[i]
		k := key{r.Agent, r.Model}
		groups[k] = append(groups[k], i)
		if models[r.Agent] == nil {
			models[r.Agent] = make(map[string]bool)
		}
		models[r.Agent][r.Model] = true
	}
	units := make([]unit, 0, len(groups))
	for k, idx := range groups {
		rs := sortedByKeyAt(recs, idx)
		label := k.agent
		if len(models[k.agent]) > 1 {
			label = fmt.Sprintf("%s (%s)", k.agent, cmp.Or(k.model, "no model"))
		}
		units = append(units, unit{agent: k.agent, model: k.model, label: label, recs: rs})
	}
	byAgent := stats.OrderBy(order)
	group := func(u unit) int {
		switch {
		case slices.Contains(order, u.agent):
			return 0
		case u.model == "":
			return 1
		}
		return 2
	}
	slices.SortFunc(units, func(a, b unit) int {
		return cmp.Or(
			cmp.Compare(group(a), group(b)),
			byAgent(a.agent, b.agent),
			cmp.Compare(a.model, b.model),
		)
	})
	return units
}

// distinct returns the values of field over recs, once each, sorted by order.
func distinct(recs []results.Record, field func(results.Record) string, order func(a, b string) int) []string {
	set := make(map[string]bool)
	for _, r := range recs {
		set[field(r)] = true
	}
	return slices.SortedFunc(maps.Keys(set), order)
}

// sortedByKeyAt returns the records of recs at idx in the order of their
// Key, copied once. The keys are made once a record, not twice a
// comparison (a report over make bench's 28,600 records made 250 MB of
// them), and the indices are sorted rather than the 608-byte records.
func sortedByKeyAt(recs []results.Record, idx []int) []results.Record {
	type keyed struct {
		key string
		i   int
	}
	keys := make([]keyed, len(idx))
	for n, i := range idx {
		keys[n] = keyed{recs[i].Key(), i}
	}
	slices.SortFunc(keys, func(a, b keyed) int { return cmp.Compare(a.key, b.key) })
	out := make([]results.Record, len(idx))
	for n, k := range keys {
		out[n] = recs[k.i]
	}
	return out
}

// filter returns the records of recs that keep accepts.
func filter(recs []results.Record, keep func(results.Record) bool) []results.Record {
	// Counted first and allocated once: appending grew the slice by
	// doubling, and a report over make bench's 28,600 records (608 bytes
	// each) filters thousands of them at a time.
	n := 0
	for _, r := range recs {
		if keep(r) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	if n == len(recs) {
		return recs[:n:n] // shared, not copied: callers only read records
	}
	out := make([]results.Record, 0, n)
	for _, r := range recs {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

// usage sums what a group of episodes cost.
type usage struct {
	n                              int
	ada, sr                        stats.Rate
	calls, in, out, steps, msgs    int
	objects, withObjects, withCall int
	p50, wall                      []float64
}

func summarize(recs []results.Record) usage {
	var u usage
	for _, r := range recs {
		u.n++
		u.ada.N++
		u.sr.N++
		if r.ADA {
			u.ada.K++
		}
		if r.Success {
			u.sr.K++
		}
		u.calls += r.Calls
		u.in += r.InputTokens
		u.out += r.OutputTokens
		u.steps += r.Steps
		u.msgs += len(r.Messages)
		if r.Objects > 0 {
			u.objects += r.Objects
			u.withObjects++
		}
		if r.Calls > 0 {
			u.withCall++
			u.p50 = append(u.p50, r.LatencyP50MS)
		}
		u.wall = append(u.wall, r.WallMS)
	}
	return u
}
