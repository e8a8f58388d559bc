package tabletop

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// Episodes of a run ask for the calibration at once; the split must be
// scored once per key, every caller must get the same scores, and a second
// key must be scored apart. Run with -race: the cache is shared state.
func TestCalibrationConcurrentCallers(t *testing.T) {
	t.Parallel()
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

// A failing score fails the split, and its error names the episode; no
// episode after it is scored.
func TestCalibrationErrorNamesEpisode(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	var calls atomic.Int64
	c := NewCalibration(1, 3)
	c.workers = 1
	_, err := c.Scores(context.Background(), "k", func(context.Context, agents.Env) (float64, error) { calls.Add(1); return 0, boom })
	if n := calls.Load(); n != 1 {
		t.Errorf("%d episodes scored after the first failed, want none", n-1)
	}
	if !errors.Is(err, boom) {
		t.Fatalf("error %v does not wrap the score's", err)
	}
	if want := "calibration episode "; len(err.Error()) < len(want) || err.Error()[:len(want)] != want {
		t.Errorf("error %q does not name the calibration episode", err)
	}
}

// The split is scored several episodes at once at a run's concurrency;
// the scores and, when episodes fail, the error (the first failing
// episode's in the split's order, not the first to fail) are those of
// one at a time.
func TestCalibrationSameAtAnyConcurrency(t *testing.T) {
	t.Parallel()
	score := func(_ context.Context, env agents.Env) (float64, error) {
		return float64(len(env.Instruction())), nil
	}
	failing := func(_ context.Context, env agents.Env) (float64, error) {
		if len(env.Instruction())%3 == 0 {
			return 0, errors.New("boom: " + env.Instruction())
		}
		return 1, nil
	}
	var want []agents.Scored
	var wantErr string
	for _, workers := range []int{1, 2, 5} {
		c := NewCalibration(3, 4)
		c.workers = workers
		got, err := c.Scores(context.Background(), "k", score)
		if err != nil {
			t.Fatal(err)
		}
		c = NewCalibration(3, 4)
		c.workers = workers
		_, ferr := c.Scores(context.Background(), "k", failing)
		if ferr == nil {
			t.Fatalf("%d workers: no episode failed; the test shows nothing", workers)
		}
		if workers == 1 {
			want, wantErr = got, ferr.Error()
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%d workers: scores differ from one at a time", workers)
		}
		if ferr.Error() != wantErr {
			t.Errorf("%d workers: error %q, one at a time %q", workers, ferr, wantErr)
		}
	}
}

// Each calibration episode is a table of its own, as a test episode is:
// its camera image has a digest no other table of the split shares (a
// cassette and the simulated model know an image by its digest alone:
// one digest for the split served one table's detections to the rest);
// and the split is played alike whichever test episode asked first,
// under none of that episode's play (its repeat, its perceiver's noise).
func TestCalibrationEpisodesAreTheirOwn(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	digests := map[string]string{}
	var shared []string
	var repeats, noisy int
	score := func(ctx context.Context, env agents.Env) (float64, error) {
		img, _, err := env.(agents.Camera).View()
		if err != nil {
			return 0, err
		}
		mu.Lock()
		defer mu.Unlock()
		if llm.RepeatFrom(ctx) != 0 {
			repeats++
		}
		if !llm.PerceptionNoiseFrom(ctx).IsZero() {
			noisy++
		}
		if other, ok := digests[img.Digest]; ok {
			shared = append(shared, fmt.Sprintf("%q and %q", other, env.Instruction()))
		}
		digests[img.Digest] = env.Instruction()
		return 0, nil
	}
	ctx := llm.WithPerceptionNoise(llm.WithRepeat(context.Background(), 1), scenes.GraphNoise{Drop: 0.5, Seed: 7})
	scored, err := NewCalibration(1, 2).Scores(ctx, "k", score)
	if err != nil {
		t.Fatal(err)
	}
	if len(scored) < 2 {
		t.Fatalf("%d calibration episodes", len(scored))
	}
	if len(shared) > 0 {
		t.Errorf("%d of %d calibration episodes share a camera image digest with another, as %s", len(shared), len(scored), shared[0])
	}
	if repeats > 0 || noisy > 0 {
		t.Errorf("of %d calibration episodes, %d were played as the asking episode's repeat, %d with its perception noise; want none", len(scored), repeats, noisy)
	}
}

// Fits reports the thresholds agents asked for, as they were fitted, and
// only those: a key whose scores were read but no threshold fitted is
// not a threshold any agent used. The track's summary tail lists them.
func TestCalibrationFitsReportWhatWasFitted(t *testing.T) {
	t.Parallel()
	calib := NewCalibration(1, 2)
	// A score that makes the ambiguous episodes (longer instructions,
	// mostly) separable in part, so that the fit is not trivial.
	score := func(_ context.Context, env agents.Env) (float64, error) {
		return float64(len(env.Instruction())), nil
	}
	ctx := context.Background()
	thr, err := calib.Threshold(ctx, "clara/m", score)
	if err != nil {
		t.Fatal(err)
	}
	scored, err := calib.Scores(ctx, "read-only", score)
	if err != nil {
		t.Fatal(err)
	}
	fits := calib.Fits()
	if len(fits) != 1 || fits[0].Key != "clara/m" {
		t.Fatalf("fits %+v, want clara/m's alone", fits)
	}
	f := fits[0]
	ambiguous := 0
	for _, s := range scored {
		if s.Ambiguous {
			ambiguous++
		}
	}
	want := Fit{Key: "clara/m", Episodes: len(scored), Ambiguous: ambiguous, Threshold: thr,
		Accuracy: agents.BalancedAccuracy(scored, thr)}
	if f != want {
		t.Errorf("fit %+v, want %+v", f, want)
	}
	cells, err := Cells(nil, calibrationPerturbations)
	if err != nil {
		t.Fatal(err)
	}
	if f.Episodes != 2*len(cells) {
		t.Errorf("%d episodes, want 2 for each of the split's %d cells", f.Episodes, len(cells))
	}
	tr := &Track{Calibration: calib}
	tail := tr.SummaryTail()
	row := fmt.Sprintf("| clara/m | %d | %d | %.3f | %.2f |", f.Episodes, f.Ambiguous, f.Threshold, f.Accuracy)
	if !strings.Contains(tail, "## Calibration") || !strings.Contains(tail, row) || strings.Contains(tail, "read-only") {
		t.Errorf("summary tail does not list clara/m's fit (%s) alone:\n%s", row, tail)
	}
	if got := (&Track{Calibration: NewCalibration(1, 2)}).SummaryTail(); got != "" {
		t.Errorf("a run that fitted nothing has a summary tail:\n%s", got)
	}
}
