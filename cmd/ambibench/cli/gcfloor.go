package cli

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// heapFloor is the heap a run may grow to before the collector runs.
// Below it the collector runs when the process's Go memory reaches it,
// instead of whenever the heap doubles: a tabletop run on the simulated
// model allocates about 200 KB an episode and keeps 1–40 MB live, so the
// default collected 230 times in 28,600 episodes, a tenth of the run's CPU
// on the core beside the one worker at --concurrency 1 (and a share of
// both at 2). Above it, the collector behaves as GOGC=100 would: the heap
// may reach twice what was live after the last collection, plus slack for
// stacks and the runtime's own memory.
const heapFloor = 160 << 20

// floorSlack is added to twice the live heap once that is above the
// floor: the memory limit counts all of the runtime's memory, not the
// heap alone.
const floorSlack = 16 << 20

// floorLimit is the memory limit after a collection that left live bytes
// of heap: the floor, or, for a larger heap, what GOGC=100 would let it
// grow to.
func floorLimit(live uint64) int64 {
	if live > (math.MaxInt64-floorSlack)/2 {
		return math.MaxInt64
	}
	return max(heapFloor, int64(2*live+floorSlack))
}

// gcFloor is the process's one heap floor, shared by the runs that are
// going on at once (tests run commands side by side in one process).
var gcFloor struct {
	mu      sync.Mutex
	users   int   // runs holding the floor
	percent int   // GOGC before the first of them
	limit   int64 // memory limit before the first of them
	gen     int   // bumped on each install, so a stale hook stops
}

// heapFloorOff turns the floor off. It is off under the race detector,
// whose shadow memory grows with the heap: the tests run commands in one
// process, and a floor there tripled its resident memory (106 to 314 MB
// for three of them). It is atomic because a test turns it on while other
// tests' runs read it (the race detector found the plain bool).
var heapFloorOff = func() *atomic.Bool {
	var b atomic.Bool
	b.Store(raceEnabled)
	return &b
}()

// holdHeapFloor sets the collector to the heap floor for as long as a
// run goes on, and returns the function that gives it back; the last run
// to give it back restores the collector's settings as they were. When
// GOGC or GOMEMLIMIT is set in the environment (getenv), the user has
// chosen how the collector runs and nothing is changed.
func holdHeapFloor(getenv func(string) string) (release func()) {
	if heapFloorOff.Load() || getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	gcFloor.mu.Lock()
	defer gcFloor.mu.Unlock()
	gcFloor.users++
	if gcFloor.users == 1 {
		gcFloor.gen++
		gcFloor.limit = debug.SetMemoryLimit(floorLimit(liveHeap()))
		gcFloor.percent = debug.SetGCPercent(-1)
		armFloorHook(gcFloor.gen)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			gcFloor.mu.Lock()
			defer gcFloor.mu.Unlock()
			gcFloor.users--
			if gcFloor.users == 0 {
				gcFloor.gen++ // the armed hook sees it and stops
				debug.SetGCPercent(gcFloor.percent)
				debug.SetMemoryLimit(gcFloor.limit)
			}
		})
	}
}

// armFloorHook runs once after the next collection (as the finalizer of
// an object nothing holds): it moves the memory limit to what that
// collection left live and arms itself again, while the floor installed
// as generation gen is still held.
func armFloorHook(gen int) {
	sentinel := new([16]byte) // not a tiny allocation, whose finalizer may never run
	runtime.SetFinalizer(sentinel, func(*[16]byte) {
		gcFloor.mu.Lock()
		defer gcFloor.mu.Unlock()
		if gcFloor.gen != gen || gcFloor.users == 0 {
			return
		}
		debug.SetMemoryLimit(floorLimit(liveHeap()))
		armFloorHook(gen)
	})
}

// liveHeap is the heap the last collection found live.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
