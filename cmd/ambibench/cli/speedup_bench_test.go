package cli

import (
	"io"
	"runtime"
	"testing"
	"time"
)

// BenchmarkConcurrencySpeedup measures what a second worker adds: one op
// is make bench's tabletop run (every agent, 100 episodes a cell) played
// at --concurrency 1 and at 2, back to back, and the op's speedup is the
// first's wall time over the second's. The order alternates from op to
// op (across -count runs too), so that neither side always runs on a
// machine warmed, or slowed, by the other. The suite's goal is a speedup
// of 1.8 on 2 cores. An op takes about 13 s on the 2-core machine CI
// uses; run it with -benchtime 1x -count 10 and read the median with
// benchstat, since one op's figure moves by a fifth on a shared machine.
func BenchmarkConcurrencySpeedup(b *testing.B) {
	if runtime.GOMAXPROCS(0) < 2 {
		b.Skipf("GOMAXPROCS is %d: a second worker has no core of its own to run on", runtime.GOMAXPROCS(0))
	}
	play := func(conc string) time.Duration {
		runtime.GC() // the run before leaves its garbage to itself
		start := time.Now()
		args := []string{"run", "--track", "tabletop", "--agents", "all", "--model", "sim", "--episodes", "100", "--concurrency", conc, "--quiet"}
		if err := Run(io.Discard, io.Discard, args); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	var one, two time.Duration
	ops := 0
	for b.Loop() {
		if speedupOps%2 == 0 {
			one += play("1")
			two += play("2")
		} else {
			two += play("2")
			one += play("1")
		}
		speedupOps++
		ops++
	}
	b.ReportMetric(one.Seconds()/float64(ops), "c1-s/op")
	b.ReportMetric(two.Seconds()/float64(ops), "c2-s/op")
	b.ReportMetric(one.Seconds()/two.Seconds(), "speedup")
}

// speedupOps counts the ops of BenchmarkConcurrencySpeedup in this
// process, so that the order alternates across -count runs of one op too.
var speedupOps int
