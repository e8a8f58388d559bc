package household

import (
	"context"
	"github.com/ambibench/ambibench/bench"
	"maps"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/results"
)

// BenchmarkHousehold runs one sub-benchmark per agent and household cell;
// one op is one episode (a game of the evaluation split, all its trials),
// cycling through the cell's games. SR, SR@1, SR@k (k the trials allowed),
// steps/op, calls/op and tokens/op are reported, and what reflecting cost
// and bought: reflections/op, redundant/op, reflect-tokens/op, one
// <tool>-calls/op per reflection tool called (reflect-calls/op for a
// free-text reflection), Cost_ref (reflection tokens per corrected game)
// and Rate_rev (games corrected ÷ games failed at trial 1); the last two
// only where defined, as in the report. The workflows' model comes from
// AMBIBENCH_MODEL (default: sim).
//
//	go test -run '^$' -bench Household -benchtime 134x ./bench/ | go tool benchstat -col /agent -
func BenchmarkHousehold(b *testing.B) {
	cells, err := HouseholdCells(nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	model := benchModel(b)
	calib := NewCalibration(1, 0)
	for _, agent := range agents.NamesFor(HouseholdTrack) {
		warmUp(b, agent, model, calib)
		for _, c := range cells {
			games := EvalCount(c.Family)
			b.Run(SubBenchmarkName(agent, c), func(b *testing.B) {
				var sr, sr1, srk, steps, calls, tokens float64
				var recs []results.Record
				i := 0
				for b.Loop() {
					job := bench.Job{Cell: c, Agent: agent, Index: i % games, Track: HouseholdTrack}
					rec, err := RunEpisode(ctx, job, bench.Options{Seed: 1, Model: model, Calibration: calib})
					if err != nil {
						b.Fatal(err)
					}
					mustBeScored(b, rec)
					i++
					if rec.Success {
						sr++
					}
					if rec.SolvedBy(1) {
						sr1++
					}
					if rec.SolvedBy(DefaultTrials) {
						srk++
					}
					steps += float64(rec.Steps)
					recs = append(recs, rec)
					calls += float64(rec.Calls)
					tokens += float64(rec.InputTokens + rec.OutputTokens)
				}
				n := float64(i)
				b.ReportMetric(sr/n, "SR")
				b.ReportMetric(sr1/n, "SR@1")
				b.ReportMetric(srk/n, "SR@5")
				b.ReportMetric(steps/n, "steps/op")
				b.ReportMetric(calls/n, "calls/op")
				b.ReportMetric(tokens/n, "tokens/op")
				reportReflectionMetrics(b, recs)
			})
		}
	}
}

// reportReflectionMetrics reports what the episodes' reflections cost and
// bought, per op (one episode) and, for Cost_ref and Rate_rev, over all of
// them as SumTrials defines them.
func reportReflectionMetrics(b *testing.B, recs []results.Record) {
	n := float64(len(recs))
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
	b.ReportMetric(refl/n, "reflections/op")
	b.ReportMetric(redundant/n, "redundant/op")
	b.ReportMetric(tokens/n, "reflect-tokens/op")
	for _, tool := range slices.Sorted(maps.Keys(tools)) {
		b.ReportMetric(float64(tools[tool])/n, metricUnit(tool)+"-calls/op")
	}
	t := results.SumTrials(recs, 1)
	if v, ok := t.CostRef(); ok {
		b.ReportMetric(v, "Cost_ref")
	}
	if rr := t.RateRev(); rr.N > 0 {
		b.ReportMetric(rr.Value(), "Rate_rev")
	}
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
