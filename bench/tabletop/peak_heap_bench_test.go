package tabletop

import (
	"context"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/ambibench/ambibench/bench"
)

// BenchmarkPeakHeap plays a tabletop run of 2,002 episodes (every agent
// on every cell, 7 episodes each, two at a time, as make bench's run is
// played) per op and reports peak-MB, the most heap its objects took at
// any moment, live and garbage alike, which is what the process's resident
// memory follows. A leak, or garbage kept reachable, shows here as a
// regression in benchstat, where wall time hides it on a roomy machine.
//
//	go test -run '^$' -bench PeakHeap -count 5 ./bench/tabletop/ | go tool benchstat -
func BenchmarkPeakHeap(b *testing.B) {
	opts := bench.Options{Track: New(), Seed: 1, Model: benchModel(b), Episodes: 7, Concurrency: 2}
	ctx := context.Background()
	peak := uint64(0)
	for b.Loop() {
		// A collection first, so one op's figure does not carry the
		// garbage the op before it left.
		runtime.GC()
		stop := sampleHeap(&peak)
		recs, err := bench.Run(ctx, opts, nil, nil)
		stop()
		if err != nil {
			b.Fatal(err)
		}
		if len(recs) != 2002 {
			b.Fatalf("run played %d episodes, want 2002", len(recs))
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
}

// sampleHeap raises *peak to the bytes of heap objects, read every
// millisecond until the returned stop is called. Reading runtime/metrics
// does not stop the world, so the sampling barely perturbs what it
// measures.
func sampleHeap(peak *uint64) (stop func()) {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() {
		metrics.Read(s)
		*peak = max(*peak, s[0].Value.Uint64())
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				read()
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
		read()
	}
}
