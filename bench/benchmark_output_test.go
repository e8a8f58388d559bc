package bench_test

import (
	"context"
	"flag"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
)

func TestEpisodeIndex(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why             string
		start, op, have int
		bounded         bool
		want            int
	}{
		{"repeat 0 of an unbounded cell plays from episode 0", 0, 0, 0, false, 0},
		{"repeat 2 of 20x on the tabletop starts at 2·20", 40, 0, 0, false, 40},
		{"and its last op is 2·20+19", 40, 19, 0, false, 59},
		{"a bounded cell's first repeat plays its episodes in order", 0, 3, 24, true, 3},
		{"repeat 1 of 10x on a 24-game cell starts at game 10", 10, 0, 24, true, 10},
		{"and wraps to the cell's first games past its size", 20, 5, 24, true, 1},
		{"with N = cell size every repeat starts at the same game", 24, 0, 24, true, 0},
		{"an empty bounded cell does not divide by zero", 3, 1, 0, true, 0},
	} {
		if got := bench.EpisodeIndex(tc.start, tc.op, tc.have, tc.bounded); got != tc.want {
			t.Errorf("%s: EpisodeIndex(%d, %d, %d, %v) = %d, want %d", tc.why, tc.start, tc.op, tc.have, tc.bounded, got, tc.want)
		}
	}
}

// probeTrack is a track of instant episodes whose record's Steps is the
// episode index, so that a benchmark's metrics say which episodes it
// played: "first" and "last" (no direction), "score" (higher is better)
// and "cost/op" (lower is better).
type probeTrack struct{}

func (probeTrack) Name() string            { return "probe" }
func (probeTrack) Summary() string         { return "the Go benchmarks' own probe" }
func (probeTrack) Flags(*flag.FlagSet)     {}
func (probeTrack) Prepare(io.Writer) error { return nil }
func (probeTrack) Cells(_, _ []string) ([]bench.Cell, error) {
	return []bench.Cell{{Family: "open", Perturbation: "none"}, {Family: "closed", Perturbation: "none"}}, nil
}
func (probeTrack) CellEpisodes(c bench.Cell) (int, bool) {
	if c.Family == "closed" {
		return 5, true
	}
	return 0, false
}
func (probeTrack) Settings() (map[string]string, error) { return nil, nil }
func (probeTrack) NewEpisode(_ context.Context, job bench.Job, _ bench.Options) (bench.Episode, error) {
	return probeEpisode(job.Index), nil
}

// probeEpisode is an episode of probeTrack: the probe agent plays it at
// once, and its record's Steps is its index.
type probeEpisode int

func (probeEpisode) Env(agents.Agent, bench.NewAgentFunc) (agents.Env, error) {
	return nil, nil
}
func (e probeEpisode) Score(rec *results.Record, _ error) { rec.Steps = int(e) }

// probeAgent is the probe track's agent, which does nothing.
type probeAgent struct{}

func (probeAgent) Run(context.Context, agents.Env) error { return nil }

var registerProbe sync.Once

func (probeTrack) Metrics(recs []results.Record) []bench.Metric {
	first, last := 0.0, 0.0
	if len(recs) > 0 {
		first, last = float64(recs[0].Steps), float64(recs[len(recs)-1].Steps)
	}
	return []bench.Metric{{Value: first, Unit: "first"}, {Value: last, Unit: "last"},
		{Value: 1, Unit: "score", Better: bench.HigherIsBetter}, {Value: 1, Unit: "cost/op", Better: bench.LowerIsBetter}}
}

// BenchmarkHeaderProbe runs bench.Benchmark on probeTrack; only
// TestBenchmarkOutput runs it, in a child process.
func BenchmarkHeaderProbe(b *testing.B) {
	if os.Getenv("AMBIBENCH_BENCH_PROBE") == "" {
		b.Skip("run by TestBenchmarkOutput")
	}
	m, err := bench.BenchmarkModel()
	if err != nil {
		b.Fatal(err)
	}
	registerProbe.Do(func() {
		agents.RegisterOn([]string{"probe"}, "probe", "the probe track's agent, which does nothing", func(agents.Config) (agents.Agent, error) { return probeAgent{}, nil })
	})
	bench.Benchmark(b, bench.Options{Track: probeTrack{}, Seed: 7, Model: m, Agents: []string{"probe"}})
}

// runProbe runs BenchmarkHeaderProbe in this test binary with the flags
// given and returns its output.
func runProbe(t *testing.T, flags ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^$", "-test.bench=^BenchmarkHeaderProbe$"}, flags...)...)
	cmd.Env = append(os.Environ(), "AMBIBENCH_BENCH_PROBE=1", "AMBIBENCH_MODEL=sim:weak")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return string(out)
}

// probeResult is one result line of the probe: its sub-benchmark, ops,
// and the first and last episode it played.
type probeResult struct {
	name           string
	n, first, last int
}

var probeName = regexp.MustCompile(`^BenchmarkHeaderProbe/(\S+)-\d+$`)

func probeResults(t *testing.T, out string) []probeResult {
	t.Helper()
	var rs []probeResult
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "Benchmark") {
			continue
		}
		// name, ops, then value and unit pairs.
		f := strings.Fields(line)
		m := probeName.FindStringSubmatch(f[0])
		if m == nil || len(f)%2 != 0 {
			t.Fatalf("unexpected result line %q", line)
		}
		r := probeResult{name: m[1]}
		r.n, _ = strconv.Atoi(f[1])
		for i := 2; i < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				t.Fatalf("result line %q: %v", line, err)
			}
			switch f[i+1] {
			case "first":
				r.first = int(v)
			case "last":
				r.last = int(v)
			}
		}
		rs = append(rs, r)
	}
	return rs
}

// The output starts with the configuration lines and the Unit lines of
// the units with a direction, before any result line, and each repeat of
// -count plays the next block of -benchtime Nx: episodes [r·N, (r+1)·N)
// on an unbounded cell, those mod the size on a bounded one.
func TestBenchmarkOutput(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the test binary")
	}
	out := runProbe(t, "-test.benchtime=3x", "-test.count=3")
	head, _, _ := strings.Cut(out, "\nBenchmark")
	for _, line := range []string{"model: sim:weak", "seed: 7", "ambibench-version: " + strconv.Itoa(bench.SuiteVersion), "Unit score better=higher", "Unit cost/op better=lower"} {
		if !strings.Contains("\n"+head+"\n", "\n"+line+"\n") {
			t.Errorf("no line %q before the first result:\n%s", line, out)
		}
	}
	if strings.Contains(out, "Unit first") || strings.Contains(out, "Unit last") {
		t.Errorf("a unit with no direction got a Unit line:\n%s", out)
	}
	if c := strings.Count(out, "\nmodel: "); c > 0 {
		t.Errorf("the config was written %d more times:\n%s", c, out)
	}
	want := []probeResult{
		{"agent=probe/task=open/perturb=none", 3, 0, 2},
		{"agent=probe/task=open/perturb=none", 3, 3, 5},
		{"agent=probe/task=open/perturb=none", 3, 6, 8},
		{"agent=probe/task=closed/perturb=none", 3, 0, 2},
		{"agent=probe/task=closed/perturb=none", 3, 3, 0}, // 3, 4, then 5 mod 5
		{"agent=probe/task=closed/perturb=none", 3, 1, 3}, // 6 mod 5 … 8 mod 5
	}
	got := probeResults(t, out)
	if len(got) != len(want) {
		t.Fatalf("got %d results, want %d:\n%s", len(got), len(want), out)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("result %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if again := runProbe(t, "-test.benchtime=3x", "-test.count=3"); !slicesEqual(probeResults(t, again), got) {
		t.Errorf("the same command played other episodes:\n%s\nthen\n%s", out, again)
	}
}

// With a time-based -benchtime, b.Loop ramps up inside one call per
// repeat, so each repeat starts where the last one stopped: the next
// repeat's first episode is the earlier repeats' ops.
func TestBenchmarkBlocksTimeBased(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the test binary")
	}
	out := runProbe(t, "-test.benchtime=2ms", "-test.count=3", "-test.bench=^BenchmarkHeaderProbe$//task=open")
	got := probeResults(t, out)
	if len(got) != 3 {
		t.Fatalf("got %d results, want 3:\n%s", len(got), out)
	}
	next := 0
	for i, r := range got {
		if r.first != next || r.last != next+r.n-1 {
			t.Errorf("repeat %d played %d…%d over %d ops, want %d…%d", i, r.first, r.last, r.n, next, next+r.n-1)
		}
		next += r.n
	}
}

func slicesEqual(a, b []probeResult) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
