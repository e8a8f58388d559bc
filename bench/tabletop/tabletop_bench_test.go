package tabletop

import (
	"context"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
)

// BenchmarkRulesEpisode is one rules episode on the plain pick-and-place
// cell: grid lookup, generation, physics, retrieval and scoring.
func BenchmarkRulesEpisode(b *testing.B) {
	ctx := context.Background()
	i := 0
	for b.Loop() {
		if _, err := runEpisode(ctx, bench.Job{Cell: bench.Cell{Family: "pick_place", Perturbation: "none"}, Agent: "rules", Index: i}, bench.Options{Seed: 1}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// benchModel opens bench.BenchmarkModel, or fails the benchmark.
func benchModel(b *testing.B) llm.Model {
	m, err := bench.BenchmarkModel()
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// benchEpisodes plays the episode of job(i) per op, i counting on from
// where the sub-benchmark's earlier repeats stopped (bench.BlockStart),
// and reports ADA, SR, steps/op, calls/op and tokens/op after the loop
// (b.Loop's reset drops metrics reported before it).
func benchEpisodes(b *testing.B, opts bench.Options, job func(i int) bench.Job) {
	ctx := context.Background()
	var recs []results.Record
	i := bench.BlockStart(b)
	for b.Loop() {
		rec, err := runEpisode(ctx, job(i), opts)
		if err != nil {
			b.Fatal(err)
		}
		mustBeScored(b, rec)
		recs = append(recs, rec)
		i++
	}
	for _, m := range bench.RateMetrics(recs) {
		b.ReportMetric(m.Value, m.Unit)
	}
}

// mustBeScored fails a benchmark whose episode ended in an infrastructure
// error: a figure over the episodes that happened to get through an outage
// would mislead benchstat, and a live model's benchmark is rerun instead.
func mustBeScored(b *testing.B, rec results.Record) {
	b.Helper()
	if !rec.Scored() {
		b.Fatalf("%s: infrastructure error (%s): %s", rec.Key(), rec.ErrorKind, rec.Error)
	}
}
