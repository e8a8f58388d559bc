package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"sync"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/models"
	"github.com/ambibench/ambibench/results"
)

// Benchmark runs one sub-benchmark per agent and cell of the grid opts
// names, on any track: what BenchmarkTabletop, BenchmarkHousehold and
// BenchmarkSemmap call, and what a track of a user's own calls from its
// own benchmark. Sub-benchmarks are named by SubBenchmarkName (the CLI's
// agent, task and perturbation names) unless the track is a
// BenchmarkNamer.
//
// One op is one episode, so ns/op is the time per episode; the track's
// Metrics are reported after the loop, since b.Loop's reset drops metrics
// reported before it.
//
// Each run of a sub-benchmark plays a fresh block of episodes (see
// BlockStart and EpisodeIndex): run r of -benchtime Nx -count k plays
// episodes r·N … r·N+N-1, so the k repeats are k independent samples and
// benchstat's test across them means what it says. A bounded cell (a
// household task type's games, a semmap query type's pairs) of size S
// plays (r·N + i) mod S instead: the repeats are disjoint only while
// k·N ≤ S; with N ≥ S every repeat plays every episode of the cell, and
// with N a multiple of S every repeat plays the same ones, so on the
// simulated model they are copies, not samples.
//
// Before the first sub-benchmark it writes the configuration lines
// benchstat reads (model:, seed:, ambibench-version:, see
// WriteBenchmarkHeader) and a "Unit <unit> better=higher|lower" line per
// metric of the track; a unit that first appears in a result (a
// household reflection tool's <tool>-calls/op) gets its line after that
// sub-benchmark's results, which benchfmt allows, as unit metadata holds
// for the whole file.
//
// An episode that ends in an infrastructure error fails the benchmark: a
// figure over the episodes that happened to get through an outage would
// mislead benchstat.
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
	WriteBenchmarkHeader(opts, Metrics(t, nil))
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
			var reported []Metric
			b.Run(name, func(b *testing.B) {
				start := BlockStart(b)
				var recs []results.Record
				i := 0
				for b.Loop() {
					rec, err := RunEpisode(ctx, Job{Cell: c, Agent: agent, Index: EpisodeIndex(start, i, have, bounded), Track: t.Name()}, opts)
					if err != nil {
						b.Fatal(err)
					}
					if !rec.Scored() {
						b.Fatalf("%s: infrastructure error (%s): %s", rec.Key(), rec.ErrorKind, rec.Error)
					}
					recs = append(recs, rec)
					i++
				}
				ms := Metrics(t, recs)
				for _, m := range ms {
					b.ReportMetric(m.Value, m.Unit)
				}
				reported = append(reported, ms...)
			})
			// Between sub-benchmarks, where a line of ours cannot land in
			// the middle of a result line.
			WriteBenchmarkHeader(opts, reported)
		}
	}
}

// EpisodeIndex is the episode the op'th op (0-based) of a block that
// starts at episode start plays: start+op, or on a bounded cell of have
// episodes (start+op) mod have, cycling through the cell.
func EpisodeIndex(start, op, have int, bounded bool) int {
	if bounded {
		return (start + op) % max(have, 1)
	}
	return start + op
}

// BlockStart is the first episode of this run of the sub-benchmark b:
// the number of ops its earlier runs in this process played, counted by
// b.Name(), 0 the first time. It registers a cleanup that adds this run's
// b.N, so the next run starts where this one stopped.
//
// The testing package calls a b.Loop benchmark's function once per
// repeat of -count (and per -cpu value), with a fixed -benchtime Nx
// and with a time-based one alike, since b.Loop ramps up inside that one
// call. So with -benchtime Nx, repeat r plays [r·N, (r+1)·N), whatever
// else the binary benchmarks; with a time-based -benchtime each repeat
// plays as many fresh episodes as its ramp-up ran, so where a repeat
// starts depends on how fast the earlier ones were. A benchmark that
// loops to b.N instead is called several times per repeat as the testing
// package ramps b.N up; each call still gets fresh episodes, but the
// blocks are then per call, not per repeat.
func BlockStart(b *testing.B) int {
	name := b.Name()
	blocks.mu.Lock()
	start := blocks.next[name]
	blocks.mu.Unlock()
	b.Cleanup(func() { blocks.advance(name, b.N) })
	return start
}

// blocks counts the episodes each sub-benchmark has played in this
// process, by name.
var blocks = &blockCounter{next: map[string]int{}}

type blockCounter struct {
	mu   sync.Mutex
	next map[string]int
}

func (c *blockCounter) advance(name string, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.next[name] += n
}

// WriteBenchmarkHeader writes to the benchmark output (stdout) the
// benchfmt configuration lines of opts, each only where its value
// differs from the one last written, so once per binary when every
// benchmark runs with the same model and seed:
//
//	model: <the spec of opts.Model, or "none">
//	seed: <opts.Seed>
//	ambibench-version: <SuiteVersion>
//	ambibench-module: <the module's version, where the build knows it>
//
// and, once per unit, "Unit <unit> better=<m.Better>" for each metric of
// ms with a direction. Benchmark calls it; a benchmark of a user's own
// that does not go through Benchmark calls it before its first b.Run,
// and after each b.Run for the units it reported there, never from
// inside b.Run's function, where the testing package may have written
// half a result line.
func WriteBenchmarkHeader(opts Options, ms []Metric) {
	header.write(benchOutput, BenchmarkConfig(opts), ms)
}

// benchOutput is where the benchmark lines go: the testing package writes
// its results to stdout.
var benchOutput io.Writer = os.Stdout

// BenchmarkConfig are the configuration lines WriteBenchmarkHeader
// writes for opts, as key and value, in order.
func BenchmarkConfig(opts Options) [][2]string {
	model := "none"
	if opts.Model != nil {
		model = opts.Model.Name()
	}
	out := [][2]string{{"model", model}, {"seed", strconv.FormatUint(opts.Seed, 10)}, {"ambibench-version", strconv.Itoa(SuiteVersion)}}
	if v := moduleVersion(); v != "" {
		out = append(out, [2]string{"ambibench-module", v})
	}
	return out
}

// moduleVersion is the version of this module in the running binary's
// build information: a release when a user's module depends on it, ""
// in a build of the module itself ("(devel)").
func moduleVersion() string {
	const path = "github.com/ambibench/ambibench"
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	v := ""
	if bi.Main.Path == path {
		v = bi.Main.Version
	}
	for _, d := range bi.Deps {
		if d.Path == path {
			v = d.Version
		}
	}
	if v == "(devel)" {
		return ""
	}
	return v
}

// header remembers what has been written to the benchmark output.
var header = newHeaderWriter()

type headerWriter struct {
	mu     sync.Mutex
	config map[string]string // key: the value last written
	units  map[string]string // unit: the direction written
}

func newHeaderWriter() *headerWriter {
	return &headerWriter{config: map[string]string{}, units: map[string]string{}}
}

// write writes the config lines whose value changed and the Unit lines
// not yet written. A unit's direction is written once: benchfmt holds it
// for the whole file and refuses a second, different one.
func (h *headerWriter) write(w io.Writer, config [][2]string, ms []Metric) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, kv := range config {
		if v, ok := h.config[kv[0]]; ok && v == kv[1] {
			continue
		}
		h.config[kv[0]] = kv[1]
		fmt.Fprintf(w, "%s: %s\n", kv[0], kv[1])
	}
	for _, m := range ms {
		if m.Better == "" {
			continue
		}
		if _, ok := h.units[m.Unit]; ok {
			continue
		}
		h.units[m.Unit] = m.Better
		fmt.Fprintf(w, "Unit %s better=%s\n", m.Unit, m.Better)
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
