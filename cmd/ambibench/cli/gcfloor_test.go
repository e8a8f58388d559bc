package cli

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestFloorLimit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, why string
		live      uint64
		want      int64
	}{
		{"empty", "nothing live yet: the floor", 0, heapFloor},
		{"small", "a run's usual heap: the floor, not twice it", 40 << 20, heapFloor},
		{"at the turn", "twice the live heap and the slack reach the floor exactly", (heapFloor - floorSlack) / 2, heapFloor},
		{"large", "above the floor the heap may double, as GOGC=100 lets it", 300 << 20, 600<<20 + floorSlack},
		{"huge", "no overflow past the largest limit", math.MaxUint64 / 2, math.MaxInt64},
	}
	for _, tc := range tests {
		if got := floorLimit(tc.live); got != tc.want {
			t.Errorf("%s (%s): floorLimit(%d) = %d, want %d", tc.name, tc.why, tc.live, got, tc.want)
		}
	}
}

// floorOn turns the floor on for a test, under the race detector too.
func floorOn(t *testing.T) {
	was := heapFloorOff.Load()
	heapFloorOff.Store(false)
	t.Cleanup(func() { heapFloorOff.Store(was) })
}

// gcSettings reads GOGC and the memory limit without changing them.
func gcSettings() (percent int, limit int64) {
	percent = debug.SetGCPercent(100)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}

// TestHoldHeapFloor: the floor is set while a run holds it, given back by
// the last run to let go, and never set over GOGC or GOMEMLIMIT.
func TestHoldHeapFloor(t *testing.T) {
	// Not parallel: it sets the process's collector and turns the heap floor on for every run.
	floorOn(t)
	before, beforeLimit := gcSettings()
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	tests := []struct {
		name, why string
		vars      map[string]string
		floored   bool
	}{
		{"default", "no GC setting in the environment: the floor", nil, true},
		{"GOGC", "the user chose GOGC: the collector is theirs", map[string]string{"GOGC": "50"}, false},
		{"GOMEMLIMIT", "the user chose a limit: the collector is theirs", map[string]string{"GOMEMLIMIT": "1GiB"}, false},
		{"empty", "variables set to nothing are not set", map[string]string{"GOGC": "", "GOMEMLIMIT": ""}, true},
		{"off", "turned off (as under the race detector): nothing changes", nil, false},
	}
	for _, tc := range tests {
		heapFloorOff.Store(tc.name == "off")
		release := holdHeapFloor(env(tc.vars))
		p, l := gcSettings()
		if floored := p == -1 && l >= heapFloor; floored != tc.floored {
			t.Errorf("%s (%s): GOGC %d, limit %d while held; want floored=%v", tc.name, tc.why, p, l, tc.floored)
		}
		release()
		release() // twice is once
		if p, l := gcSettings(); p != before || l != beforeLimit {
			t.Errorf("%s (%s): after release GOGC %d, limit %d; want %d, %d as before", tc.name, tc.why, p, l, before, beforeLimit)
		}
	}

	// Two runs at once: the first to end leaves the floor to the other.
	heapFloorOff.Store(false)
	first, second := holdHeapFloor(env(nil)), holdHeapFloor(env(nil))
	first()
	if p, _ := gcSettings(); p != -1 {
		t.Errorf("one of two runs ended: GOGC %d, want the floor (-1) kept for the other", p)
	}
	second()
	if p, l := gcSettings(); p != before || l != beforeLimit {
		t.Errorf("both runs ended: GOGC %d, limit %d; want %d, %d", p, l, before, beforeLimit)
	}
}

// TestHeapFloorFollowsLiveHeap: once the live heap is above half the
// floor, the limit after a collection lets it double, so a large run does
// not collect without end at the floor.
func TestHeapFloorFollowsLiveHeap(t *testing.T) {
	t.Parallel()
	floorOn(t)
	release := holdHeapFloor(func(string) string { return "" })
	defer release()
	live := make([]byte, 96<<20) // more than half the floor; never written, so never resident
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		runtime.Gosched()
		if _, l := gcSettings(); l >= 2*int64(len(live)) {
			break
		}
		if time.Now().After(deadline) {
			_, l := gcSettings()
			t.Fatalf("with %d bytes live the limit stayed at %d, want at least twice that", len(live), l)
		}
		time.Sleep(10 * time.Millisecond)
	}
	runtime.KeepAlive(live)
}
