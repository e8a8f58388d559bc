package bench_test

import (
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/bench/household"
	"github.com/ambibench/ambibench/bench/semmap"
	"github.com/ambibench/ambibench/bench/tabletop"
)

// The Go benchmarks of the three tracks: one sub-benchmark per agent and
// cell, named with the CLI's names, one op one episode, each repeat of
// -count a fresh block of episodes (see bench.Benchmark). The workflows'
// model comes from AMBIBENCH_MODEL (default: sim). One agent and only
// that one: -bench 'Tabletop/agent=sgcot$/' (without the '$' the level
// also matches sgcot-full-graph and the other ablations).

// BenchmarkTabletop reports ADA, SR, steps/op, calls/op and tokens/op.
//
//	go test -run '^$' -bench Tabletop -benchtime 50x ./bench/ | go tool benchstat -col /agent -
func BenchmarkTabletop(b *testing.B) {
	bench.Benchmark(b, bench.Options{Track: tabletop.New(), Seed: 1, Model: benchModel(b)})
}

// BenchmarkHousehold cycles through a cell's evaluation games and reports
// SR, SR@1, SR@5, steps, calls and tokens per op, and what reflecting
// cost and bought (see household.Track.Metrics).
//
//	go test -run '^$' -bench Household -benchtime 134x ./bench/ | go tool benchstat -col /agent -
func BenchmarkHousehold(b *testing.B) {
	bench.Benchmark(b, bench.Options{Track: household.New(), Seed: 1, Model: benchModel(b)})
}

// BenchmarkSemmap runs the built-in dataset in the certainty mode,
// cycling through a query type's pairs, and reports Top1, Top2, Top3,
// TopAny, calls/op and tokens/op.
//
//	go test -run '^$' -bench Semmap -benchtime 80x ./bench/ | go tool benchstat -col /agent -
func BenchmarkSemmap(b *testing.B) {
	bench.Benchmark(b, bench.Options{Track: semmap.New(), Seed: 1, Model: benchModel(b)})
}

// benchModel opens bench.BenchmarkModel, or fails the benchmark.
func benchModel(b *testing.B) llm.Model {
	m, err := bench.BenchmarkModel()
	if err != nil {
		b.Fatal(err)
	}
	return m
}
