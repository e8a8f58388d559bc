package reports

import (
	"cmp"
	"fmt"
	"iter"
	"maps"
	"slices"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/stats"
)

// unit is one row of the report: an agent with one model. Records of one
// agent name under two models are two units, so that nothing pools models.
type unit struct {
	agent, model, label string
	recs                recList
}

// groupUnits splits l by (agent, model) and orders the units as
// Options.Agents says. Each unit's records are sorted by key, so
// nothing downstream depends on the order of l.
func groupUnits(l recList, order []string) ([]unit, error) {
	type key struct{ agent, model string }
	groups := make(map[key][]int32)
	models := make(map[string]map[string]bool)
	for _, i := range l.idx {
		agent, model := l.s.agentModel(int(i))
		k := key{agent, model}
		groups[k] = append(groups[k], i)
		if models[agent] == nil {
			models[agent] = make(map[string]bool)
		}
		models[agent][model] = true
	}
	units := make([]unit, 0, len(groups))
	for k, idx := range groups {
		label := k.agent
		if len(models[k.agent]) > 1 {
			label = fmt.Sprintf("%s (%s)", k.agent, cmp.Or(k.model, "no model"))
		}
		recs, err := l.s.sortedByKey(idx)
		if err != nil {
			return nil, err
		}
		units = append(units, unit{agent: k.agent, model: k.model, label: label, recs: recs})
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
	return units, nil
}

// distinct returns the values of field over recs, once each, sorted by order.
func distinct(recs iter.Seq[results.Record], field func(results.Record) string, order func(a, b string) int) []string {
	set := make(map[string]bool)
	for r := range recs {
		set[field(r)] = true
	}
	return slices.SortedFunc(maps.Keys(set), order)
}

// usage sums what a group of episodes cost.
type usage struct {
	n                              int
	ada, sr                        stats.Rate
	calls, in, out, steps, msgs    int
	objects, withObjects, withCall int
	p50, wall                      []float64
}

func summarize(recs iter.Seq[results.Record]) usage {
	var u usage
	for r := range recs {
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
