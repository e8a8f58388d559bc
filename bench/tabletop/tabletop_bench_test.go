package tabletop

import (
	"context"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
	"os"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/models"
)

// BenchmarkTabletop runs one sub-benchmark per agent and cell; one op is
// one episode (episode index = iteration), so ns/op is the time per
// episode. ADA, SR, steps/op, calls/op and tokens/op are reported after
// the loop, since b.Loop's reset drops metrics reported before it. The
// workflows' model comes from AMBIBENCH_MODEL (default: sim).
//
//	go test -run '^$' -bench Tabletop -benchtime 50x ./bench/ | go tool benchstat -col /agent -
func BenchmarkTabletop(b *testing.B) {
	cells, err := Cells(nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	model := benchModel(b)
	// One calibration split for every sub-benchmark, as in a run.
	calib := NewCalibration(1, 0)
	for _, agent := range agents.NamesFor(Track) {
		warmUp(b, agent, model, calib)
		for _, c := range cells {
			b.Run(SubBenchmarkName(agent, c), func(b *testing.B) {
				benchEpisodes(b, bench.Options{Seed: 1, Model: model, Calibration: calib},
					func(i int) bench.Job { return bench.Job{Cell: c, Agent: agent, Index: i} })
			})
		}
	}
}

// BenchmarkRulesEpisode is one rules episode on the plain pick-and-place
// cell: grid lookup, generation, physics, retrieval and scoring.
func BenchmarkRulesEpisode(b *testing.B) {
	ctx := context.Background()
	i := 0
	for b.Loop() {
		if _, err := RunEpisode(ctx, bench.Job{Cell: bench.Cell{Family: "pick_place", Perturbation: "none"}, Agent: "rules", Index: i}, bench.Options{Seed: 1}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// benchModel opens the model named by AMBIBENCH_MODEL, or the simulated
// model.
func benchModel(b *testing.B) llm.Model {
	spec := os.Getenv("AMBIBENCH_MODEL")
	if spec == "" {
		spec = models.Default
	}
	m, err := models.Open(spec, os.Getenv)
	if err != nil {
		b.Fatalf("AMBIBENCH_MODEL: %v", err)
	}
	return m
}

// warmUp runs an agent's calibration before any timed loop.
func warmUp(b *testing.B, agent string, model llm.Model, calib *Calibration) {
	info, _ := agents.Lookup(agent)
	a, err := info.New(agents.Config{Model: model, Calibration: calib})
	if err != nil {
		return // a reference agent needs no model; a workflow's error shows in its loop
	}
	if c, ok := a.(agents.Calibrated); ok {
		if err := c.Calibrate(context.Background()); err != nil {
			b.Fatalf("%s: %v", agent, err)
		}
	}
}

// benchEpisodes plays episode i of job(i) per op and reports ADA, SR,
// steps/op, calls/op and tokens/op after the loop (b.Loop's reset drops
// metrics reported before it).
func benchEpisodes(b *testing.B, opts bench.Options, job func(i int) bench.Job) {
	ctx := context.Background()
	var ada, sr, steps, calls, tokens float64
	i := 0
	for b.Loop() {
		rec, err := RunEpisode(ctx, job(i), opts)
		if err != nil {
			b.Fatal(err)
		}
		mustBeScored(b, rec)
		i++
		if rec.ADA {
			ada++
		}
		if rec.Success {
			sr++
		}
		steps += float64(rec.Steps)
		calls += float64(rec.Calls)
		tokens += float64(rec.InputTokens + rec.OutputTokens)
	}
	n := float64(i)
	b.ReportMetric(ada/n, "ADA")
	b.ReportMetric(sr/n, "SR")
	b.ReportMetric(steps/n, "steps/op")
	b.ReportMetric(calls/n, "calls/op")
	b.ReportMetric(tokens/n, "tokens/op")
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
