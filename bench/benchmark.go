package bench

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/models"
	"github.com/ambibench/ambibench/results"
)

// Benchmark runs one sub-benchmark per agent and cell of the grid opts
// names, on any track: what BenchmarkTabletop, BenchmarkHousehold and
// BenchmarkSemmap call, and what a track of a user's own calls from its
// own benchmark. One op is one episode, episode index = iteration (cycling
// through a bounded cell's episodes), so ns/op is the time per episode;
// the track's Metrics are reported after the loop, since b.Loop's reset
// drops metrics reported before it. Sub-benchmarks are named by
// SubBenchmarkName unless the track is a BenchmarkNamer. An episode that
// ends in an infrastructure error fails the benchmark: a figure over the
// episodes that happened to get through an outage would mislead
// benchstat.
func Benchmark(b *testing.B, opts Options) {
	t := opts.Track
	if t == nil {
		b.Fatalf("no track (have %v)", TrackNames())
	}
	cells, err := t.Cells(opts.Families, opts.Perturbations)
	if err != nil {
		b.Fatal(err)
	}
	names := opts.Agents
	if len(names) == 0 {
		names = agents.NamesFor(t.Name())
	}
	ctx := context.Background()
	for _, agent := range names {
		if w, ok := t.(WarmUpper); ok {
			if err := w.WarmUp(ctx, agent, opts); err != nil {
				b.Fatalf("%s: %v", agent, err)
			}
		}
		for _, c := range cells {
			name := SubBenchmarkName(agent, c)
			if n, ok := t.(BenchmarkNamer); ok {
				name = n.BenchmarkName(agent, c)
			}
			have, bounded := t.CellEpisodes(c)
			b.Run(name, func(b *testing.B) {
				var recs []results.Record
				i := 0
				for b.Loop() {
					index := i
					if bounded {
						index = i % max(have, 1)
					}
					rec, err := RunEpisode(ctx, Job{Cell: c, Agent: agent, Index: index, Track: t.Name()}, opts)
					if err != nil {
						b.Fatal(err)
					}
					if !rec.Scored() {
						b.Fatalf("%s: infrastructure error (%s): %s", rec.Key(), rec.ErrorKind, rec.Error)
					}
					recs = append(recs, rec)
					i++
				}
				for _, m := range t.Metrics(recs) {
					b.ReportMetric(m.Value, m.Unit)
				}
			})
		}
	}
}

// BenchmarkModel opens the model the Go benchmarks drive the workflows
// with: the spec in AMBIBENCH_MODEL, or the simulated model, with the
// environment's keys.
func BenchmarkModel() (llm.Model, error) {
	spec := os.Getenv("AMBIBENCH_MODEL")
	if spec == "" {
		spec = models.Default
	}
	m, err := models.Open(spec, os.Getenv)
	if err != nil {
		return nil, fmt.Errorf("AMBIBENCH_MODEL: %w", err)
	}
	return m, nil
}
