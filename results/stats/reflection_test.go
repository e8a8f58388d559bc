package stats

import (
	"math"
	"testing"

	"github.com/ambibench/ambibench/results"
)

// The bootstrap interval of a per-game mean agrees with the normal
// approximation where that is good (400 games, a rate of one half), and
// Cost_ref gets an interval when corrected games are many.
func TestSummarizeReflectionsBootstrap(t *testing.T) {
	t.Parallel()
	var recs []results.Record
	for i := range 400 {
		r := results.Record{Suite: 1, Outcome: results.OutcomeScored, Trials: 1, SolvedTrial: 1, Success: true}
		if i%2 == 1 { // failed trial 1, one reflection, solved at trial 2
			r = results.Record{Suite: 1, Outcome: results.OutcomeScored, Trials: 2, SolvedTrial: 2, Success: true, Reflections: 1, ReflectionTokens: 100 + i%7, ReflectionTokenCounts: []int{100 + i%7}}
		}
		r.Episode = i
		recs = append(recs, r)
	}
	s := SummarizeReflections(recs)
	half := 1.96 * math.Sqrt(0.25/400) // 0.049
	if e := s.Reflections; e.Value != 0.5 || math.Abs(e.Lo-(0.5-half)) > 0.01 || math.Abs(e.Hi-(0.5+half)) > 0.01 {
		t.Errorf("reflections/game %+v, want 0.5 [%.3f, %.3f] within 0.01", e, 0.5-half, 0.5+half)
	}
	if e := s.Redundant; e.Value != 0 || e.Lo != 0 || e.Hi != 0 {
		t.Errorf("a constant column gives a degenerate interval, got %+v", e)
	}
	if e := s.CostRef; !e.OK || !e.Interval || e.Lo > e.Value || e.Value > e.Hi || e.Hi-e.Lo > 1 {
		// Every failed game is corrected, so Cost_ref is the mean tokens
		// of one reflection, 100–106, and varies little.
		t.Errorf("Cost_ref %+v, want an interval around its value narrower than a token", e)
	}
	if s.RateRev != (Rate{K: 200, N: 200}) {
		t.Errorf("Rate_rev %+v, want 200/200", s.RateRev)
	}
	if again := SummarizeReflections(recs); again.Reflections != s.Reflections || again.CostRef != s.CostRef {
		t.Error("the bootstrap is not deterministic")
	}
	if s := SummarizeReflections(nil); s.Games != 0 || s.Reflections.OK || s.CostRef.OK {
		t.Errorf("no games: %+v, want nothing defined", s)
	}
}

func TestQuantileAndSpread(t *testing.T) {
	t.Parallel()
	sorted := []float64{1, 2, 3, 4, 5}
	for _, tc := range []struct {
		why  string
		q    float64
		want float64
	}{
		{"the minimum", 0, 1},
		{"the median is an order statistic", 0.5, 3},
		{"between order statistics, interpolated", 0.1, 1.4},
		{"the maximum", 1, 5},
	} {
		if got := quantile(sorted, tc.q); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: quantile(%v) = %v, want %v", tc.why, tc.q, got, tc.want)
		}
	}
	if sp := spread([]int{4, 2, 6}); sp.N != 3 || sp.Min != 2 || sp.Max != 6 || sp.Mean != 4 || math.Abs(sp.CV-math.Sqrt(8.0/3)/4) > 1e-12 {
		t.Errorf("spread %+v, want 3 counts 2–6, mean 4, CV √(8/3)/4 (population)", sp)
	}
	if sp := spread([]int{0, 0}); sp.CV != 0 {
		t.Errorf("all-zero counts: CV %v, want 0", sp.CV)
	}
}
