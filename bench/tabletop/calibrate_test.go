package tabletop

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ambibench/ambibench/agents"
)

// Episodes of a run ask for the calibration at once; the split must be
// scored once per key, every caller must get the same scores, and a second
// key must be scored apart. Run with -race: the cache is shared state.
func TestCalibrationConcurrentCallers(t *testing.T) {
	calib := NewCalibration(1, 1)
	var calls atomic.Int64
	score := func(_ context.Context, env agents.Env) (float64, error) {
		calls.Add(1)
		return float64(len(env.Instruction())), nil
	}
	const callers = 8
	got := make([][]agents.Scored, callers)
	errs := make([]error, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() { got[i], errs[i] = calib.Scores(context.Background(), "k", score) })
	}
	wg.Wait()
	for i := range callers {
		if errs[i] != nil {
			t.Fatalf("caller %d: %v", i, errs[i])
		}
		if !reflect.DeepEqual(got[i], got[0]) {
			t.Fatalf("caller %d got other scores than caller 0", i)
		}
	}
	if n := int(calls.Load()); n != len(got[0]) || n == 0 {
		t.Fatalf("score ran %d times for %d calibration episodes; want once each", n, len(got[0]))
	}
	if _, err := calib.Scores(context.Background(), "other", score); err != nil {
		t.Fatal(err)
	}
	if n := int(calls.Load()); n != 2*len(got[0]) {
		t.Errorf("a second key ran score %d times in all, want %d", n, 2*len(got[0]))
	}
}

// A failing score stops the split at the first episode and its error names
// the episode.
func TestCalibrationErrorNamesEpisode(t *testing.T) {
	boom := errors.New("boom")
	_, err := NewCalibration(1, 1).Scores(context.Background(), "k", func(context.Context, agents.Env) (float64, error) { return 0, boom })
	if !errors.Is(err, boom) {
		t.Fatalf("error %v does not wrap the score's", err)
	}
	if want := "calibration episode "; len(err.Error()) < len(want) || err.Error()[:len(want)] != want {
		t.Errorf("error %q does not name the calibration episode", err)
	}
}
