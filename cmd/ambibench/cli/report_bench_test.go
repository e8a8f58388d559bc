//go:build unix

package cli

import (
	"io"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// BenchmarkReportLiveHeap measures how a report's memory and CPU grow
// with the run it reports on (issue 36): one op is ambibench report on a
// tabletop run of the three reference agents, at 34 episodes a cell
// (2,652 episodes) and at 1,667 (130,026), made once before the timing,
// under GOGC=100. The report keeps each record packed
// (reports.Report), so its heap grows with the run by what a packed
// record takes, live-B/episode: the peak live heap above the heap live
// before the report, over the episodes (at 2,652 episodes mostly what any
// report costs, its plots' fonts among it). A run of 130,000 episodes takes
// about 40 s of CPU to make: run it with -benchtime 1x.
func BenchmarkReportLiveHeap(b *testing.B) {
	b.Setenv("GOGC", "100")
	for _, episodes := range []int{34, 1667} {
		b.Run("episodes="+strconv.Itoa(episodes), func(b *testing.B) {
			dir := b.TempDir()
			args := []string{"run", "--track", "tabletop", "--agents", "oracle,rules,random", "--model", "sim", "--quiet",
				"--episodes", strconv.Itoa(episodes), "--out", dir}
			if err := Run(io.Discard, io.Discard, args); err != nil {
				b.Fatal(err)
			}
			total := 26 * 3 * episodes
			runtime.GC()
			var floor, heap uint64
			var mean float64
			stop := sampleHeap(&floor, &heap, &mean)
			stop()
			var live uint64
			var cpu time.Duration
			for b.Loop() {
				runtime.GC()
				stop := sampleHeap(&live, &heap, &mean)
				before := processCPU()
				if err := Run(io.Discard, io.Discard, []string{"report", "--out", "-", "--plots", "-", dir}); err != nil {
					b.Fatal(err)
				}
				cpu += processCPU() - before
				stop()
			}
			b.ReportMetric(float64(live)/(1<<20), "peak-live-MB")
			b.ReportMetric(float64(live-min(live, floor))/float64(total), "live-B/episode")
			b.ReportMetric(float64(cpu.Microseconds())/float64(total)/float64(b.N), "cpu-µs/episode")
		})
	}
}
