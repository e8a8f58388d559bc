//go:build unix

package cli

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// BenchmarkRunLiveHeap measures how a run's memory and CPU grow with its
// grid (issue 36's goal: both flat from 2,600 to 1,000,000 episodes): one
// op is a tabletop run of the three reference agents with --out, at 34
// episodes a cell (2,652 episodes) and at 1,667 (130,026), under GOGC=100
// (set here, so that the run leaves the collector as the Go runtime sets
// it, with no heap floor to hide the heap's growth behind).
//
// peak-live-MB is the largest heap a collection found live while the run
// went on (/gc/heap/live:bytes, read every 5 ms), mean-live-MB its mean
// over those reads, and peak-heap-MB the largest heap in use, live or not
// yet collected; cpu-µs/episode is the process's CPU time (user and
// system) over the episodes. The peak is the largest of one reading per
// collection, thousands of them in a long run, and a collection slowed by
// a busy machine counts what the workers allocated while it marked as
// live: read the mean for the heap a run keeps, the peak for its worst
// moment. A run of 130,000 episodes takes
// about 40 s of CPU: run it with -benchtime 1x. The sizes are
// -liveheap.episodes, episodes a cell: 12821 is 1,000,038 episodes, about
// five minutes of CPU.
func BenchmarkRunLiveHeap(b *testing.B) {
	sizes, err := liveHeapSizes(*liveHeapEpisodes)
	if err != nil {
		b.Fatal(err)
	}
	b.Setenv("GOGC", "100")
	for _, episodes := range sizes {
		b.Run("episodes="+strconv.Itoa(episodes), func(b *testing.B) {
			var live, heap uint64
			var mean float64
			var cpu time.Duration
			total := 0
			for b.Loop() {
				dir := b.TempDir()
				runtime.GC()
				stop := sampleHeap(&live, &heap, &mean)
				before := processCPU()
				args := []string{"run", "--track", "tabletop", "--agents", "oracle,rules,random", "--model", "sim", "--quiet",
					"--episodes", strconv.Itoa(episodes), "--out", dir}
				if err := Run(io.Discard, io.Discard, args); err != nil {
					b.Fatal(err)
				}
				cpu += processCPU() - before
				stop()
				total += 26 * 3 * episodes
			}
			b.ReportMetric(float64(live)/(1<<20), "peak-live-MB")
			b.ReportMetric(mean/(1<<20), "mean-live-MB")
			b.ReportMetric(float64(heap)/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(cpu.Microseconds())/float64(total), "cpu-µs/episode")
		})
	}
}

var liveHeapEpisodes = flag.String("liveheap.episodes", "34,1667",
	"BenchmarkRunLiveHeap's sizes, episodes a cell, comma-separated (12821 is 1,000,038 episodes)")

// liveHeapSizes reads -liveheap.episodes.
func liveHeapSizes(list string) ([]int, error) {
	var sizes []int
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-liveheap.episodes: %q is not a positive number of episodes a cell", f)
		}
		sizes = append(sizes, n)
	}
	return sizes, nil
}

// BenchmarkMergeLiveHeap measures what merge holds as the run it joins
// grows (issue 36: merge streaming over records, not holding them): one
// op merges the two shards of a tabletop run of the three reference
// agents, at 34 episodes a cell (2,652 episodes) and at 334 (26,052),
// made once before the timing, under GOGC=100.
//
// live-B/episode is the largest heap a collection found live during the
// merge, above the heap live before it, over the episodes merged: a
// merge that held its records kept about 4 KB an episode at every size,
// one that streams holds its buffers whatever the size, so the figure
// falls as the run grows. peak-live-MB is that heap itself, and
// cpu-µs/episode the process's CPU time over the episodes. Making the
// larger shards takes about 8 s of CPU: run it with -benchtime 1x.
func BenchmarkMergeLiveHeap(b *testing.B) {
	b.Setenv("GOGC", "100")
	for _, episodes := range []int{34, 334} {
		b.Run("episodes="+strconv.Itoa(episodes), func(b *testing.B) {
			tmp := b.TempDir()
			var shards []string
			for i := 1; i <= 2; i++ {
				dir := filepath.Join(tmp, "shard-"+strconv.Itoa(i))
				args := []string{"run", "--track", "tabletop", "--agents", "oracle,rules,random", "--model", "sim", "--quiet",
					"--episodes", strconv.Itoa(episodes), "--shard", strconv.Itoa(i) + "/2", "--out", dir}
				if err := Run(io.Discard, io.Discard, args); err != nil {
					b.Fatal(err)
				}
				shards = append(shards, dir)
			}
			var live, heap, above uint64
			var mean float64
			var cpu time.Duration
			total := 0
			for b.Loop() {
				out := filepath.Join(b.TempDir(), "merged")
				runtime.GC()
				s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
				metrics.Read(s)
				base := s[0].Value.Uint64()
				var peak uint64
				stop := sampleHeap(&peak, &heap, &mean)
				before := processCPU()
				if err := Run(io.Discard, io.Discard, append([]string{"merge", "--out", out}, shards...)); err != nil {
					b.Fatal(err)
				}
				cpu += processCPU() - before
				stop()
				live = max(live, peak)
				if peak > base {
					above = max(above, peak-base)
				}
				total += 26 * 3 * episodes
			}
			b.ReportMetric(float64(above)/float64(26*3*episodes), "live-B/episode")
			b.ReportMetric(float64(live)/(1<<20), "peak-live-MB")
			b.ReportMetric(float64(cpu.Microseconds())/float64(total), "cpu-µs/episode")
		})
	}
}

// sampleHeap keeps in live and heap the largest live heap and heap in
// use it reads, every 5 ms, until the function it returns is called, and
// in mean the mean of the live heaps read (over every op of the
// benchmark).
func sampleHeap(live, heap *uint64, mean *float64) (stop func()) {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	var sum float64
	n := 0
	read := func() {
		metrics.Read(s)
		*live = max(*live, s[0].Value.Uint64())
		*heap = max(*heap, s[1].Value.Uint64())
		sum += float64(s[0].Value.Uint64())
		n++
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				read()
				return
			case <-t.C:
				read()
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
		*mean = sum / float64(n)
	}
}

// processCPU is the CPU time, user and system, the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
