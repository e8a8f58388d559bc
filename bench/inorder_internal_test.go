package bench

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ambibench/ambibench/results"
)

// Records finished in any order are written in job order, through a
// window far smaller than the jobs: workers that get a window ahead wait,
// and none waits for good.
func TestInOrderWritesInOrderThroughASmallWindow(t *testing.T) {
	t.Parallel()
	const jobs, window, workers = 2000, 8, 6
	var got []int
	o := newInOrder(window, func(i int, rec *results.Record) error {
		if rec != nil {
			got = append(got, rec.Episode)
		}
		return nil
	})
	var next atomic.Int64
	var wg sync.WaitGroup
	var ahead atomic.Int64
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 1))
			for {
				i := int(next.Add(1) - 1)
				if i >= jobs {
					return
				}
				if !o.wait(i) {
					t.Error("stopped")
					return
				}
				o.mu.Lock()
				if d := i - o.next; int64(d) > ahead.Load() {
					ahead.Store(int64(d))
				}
				o.mu.Unlock()
				if r.IntN(50) == 0 {
					time.Sleep(time.Millisecond) // a slow episode
				}
				var rec *results.Record
				if i%7 != 0 { // every seventh is given up
					rec = &results.Record{Episode: i}
				}
				if err := o.done(i, rec); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	want := 0
	for i := range jobs {
		if i%7 != 0 {
			if want >= len(got) || got[want] != i {
				t.Fatalf("record %d written is job %v, want %d", want, got[min(want, len(got)-1)], i)
			}
			want++
		}
	}
	if len(got) != want {
		t.Errorf("%d records written, want %d", len(got), want)
	}
	if a := ahead.Load(); a >= window {
		t.Errorf("a worker played job next+%d, outside the window of %d", a, window)
	}
}

// A stopped run wakes the workers waiting for room.
func TestInOrderStopWakesTheWaiting(t *testing.T) {
	t.Parallel()
	o := newInOrder(2, func(int, *results.Record) error { return nil })
	woke := make(chan bool)
	go func() { woke <- o.wait(5) }()
	time.Sleep(10 * time.Millisecond)
	o.stop()
	select {
	case ok := <-woke:
		if ok {
			t.Error("wait reported room after the stop")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a worker waiting for room was not woken by the stop")
	}
}
