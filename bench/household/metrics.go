package household

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/stats"
)

// Metrics are what the household's Go benchmarks report per op (one
// game, all its trials): SR, SR@1, SR@k (k the trials allowed), steps,
// calls and tokens, and what reflecting cost and bought: reflections/op,
// redundant/op, reflect-tokens/op, one <tool>-calls/op per reflection
// tool called (reflect-calls/op for a free-text reflection), Cost_ref
// (reflection tokens per corrected game) and Rate_rev (games corrected ÷
// games failed at trial 1); the last two only where defined, as in the
// report. The rates and Rate_rev are better higher, the costs (steps,
// calls, tokens, reflections, Cost_ref) lower.
func (t *Track) Metrics(recs []results.Record) []bench.Metric {
	trials := t.Trials
	if trials <= 0 {
		trials = DefaultTrials
	}
	n := float64(max(len(recs), 1))
	var sr, sr1, srk, steps, calls, tokens float64
	for _, r := range recs {
		if r.Success {
			sr++
		}
		if r.SolvedBy(1) {
			sr1++
		}
		if r.SolvedBy(trials) {
			srk++
		}
		steps += float64(r.Steps)
		calls += float64(r.Calls)
		tokens += float64(r.InputTokens + r.OutputTokens)
	}
	out := []bench.Metric{metric(sr/n, "SR", hi), metric(sr1/n, "SR@1", hi), metric(srk/n, fmt.Sprintf("SR@%d", trials), hi),
		metric(steps/n, "steps/op", lo), metric(calls/n, "calls/op", lo), metric(tokens/n, "tokens/op", lo)}
	return append(out, reflectionMetrics(recs)...)
}

// reflectionMetrics are what the episodes' reflections cost and bought,
// per op (one episode) and, for Cost_ref and Rate_rev, over all of them
// as SumTrials defines them.
func reflectionMetrics(recs []results.Record) []bench.Metric {
	n := float64(max(len(recs), 1))
	var refl, redundant, tokens float64
	tools := map[string]int{}
	for _, r := range recs {
		refl += float64(r.Reflections)
		redundant += float64(r.RedundantReflections)
		tokens += float64(r.ReflectionTokens)
		for tool, c := range r.ReflectionTools {
			tools[tool] += c
		}
	}
	out := []bench.Metric{metric(refl/n, "reflections/op", lo), metric(redundant/n, "redundant/op", lo), metric(tokens/n, "reflect-tokens/op", lo)}
	for _, tool := range slices.Sorted(maps.Keys(tools)) {
		out = append(out, metric(float64(tools[tool])/n, metricUnit(tool)+"-calls/op", lo))
	}
	t := stats.SumTrials(recs, 1)
	if v, ok := t.CostRef(); ok {
		out = append(out, metric(v, "Cost_ref", lo))
	}
	if rr := t.RateRev(); rr.N > 0 {
		out = append(out, metric(rr.Value(), "Rate_rev", hi))
	}
	return out
}

// metricUnit makes a tool name a metric unit, which may not hold spaces.
func metricUnit(tool string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return '_'
		}
		return r
	}, tool)
}

func metric(v float64, unit, better string) bench.Metric {
	return bench.Metric{Value: v, Unit: unit, Better: better}
}

const hi, lo = bench.HigherIsBetter, bench.LowerIsBetter
