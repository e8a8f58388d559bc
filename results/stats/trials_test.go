package stats

import (
	"testing"

	"github.com/ambibench/ambibench/results"
)

// The figures at trial k follow docs/metrics.md: Rate_rev@k counts the
// games failed at trial 1 and solved by trial k; Cost_ref@k divides the
// tokens of the reflections run before trial k by those games.
func TestSumTrialsAt(t *testing.T) {
	t.Parallel()
	game := func(solved, trials int, tokens ...int) results.Record {
		r := results.Record{Outcome: results.OutcomeScored, Trials: trials, SolvedTrial: solved, Success: solved > 0, Reflections: len(tokens), ReflectionTokenCounts: tokens}
		for i, n := range tokens {
			r.ReflectionTrials = append(r.ReflectionTrials, i+1)
			r.ReflectionTokens += n
		}
		return r
	}
	for _, tc := range []struct {
		why       string
		recs      []results.Record
		sr1, srk  int
		rev       Rate
		cost      float64
		costKnown bool
	}{
		{"solved at once: nothing to correct, Cost_ref@4 undefined", []results.Record{game(1, 1)}, 1, 1, Rate{0, 0}, 0, false},
		{"solved at trial 3 after two reflections: both count", []results.Record{game(3, 3, 100, 200)}, 0, 1, Rate{1, 1}, 300, true},
		{"solved at trial 6: not by trial 4, yet the three reflections before trial 4 count in the tokens", []results.Record{game(6, 6, 100, 100, 100, 100, 100), game(2, 2, 50)}, 0, 1, Rate{1, 2}, 350, true},
		{"never solved: in Rate_rev@4's denominator only, its tokens before trial 4 still spent", []results.Record{game(0, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10), game(4, 4, 1, 2, 3)}, 0, 1, Rate{1, 2}, 36, true},
		{"a reflection without its trial: Cost_ref@4 cannot be told", []results.Record{{Outcome: results.OutcomeScored, Trials: 2, SolvedTrial: 2, Success: true, Reflections: 1, ReflectionTokens: 5, ReflectionTokenCounts: []int{5}}}, 0, 1, Rate{1, 1}, 0, false},
	} {
		got := SumTrialsAt(tc.recs, 4)
		cost, ok := got.CostRef()
		if got.SR1.K != tc.sr1 || got.SRK.K != tc.srk || got.RateRev() != tc.rev || ok != tc.costKnown || cost != tc.cost {
			t.Errorf("%s: SR@1 %d, SR@4 %d, Rate_rev@4 %v, Cost_ref@4 %v (%v); want %d, %d, %v, %v (%v)",
				tc.why, got.SR1.K, got.SRK.K, got.RateRev(), cost, ok, tc.sr1, tc.srk, tc.rev, tc.cost, tc.costKnown)
		}
	}
}

// SumTrials counts a game solved at trial t as a success at every k ≥ t,
// and reflection's yield from the games failed at trial 1.
func TestSumTrials(t *testing.T) {
	t.Parallel()
	recs := []results.Record{
		{Trials: 1, SolvedTrial: 1, Success: true, Steps: 8, OptimalSteps: 6},                                                                  // solved at once: no reflection
		{Trials: 3, SolvedTrial: 3, Success: true, Steps: 40, OptimalSteps: 7, Reflections: 2, RedundantReflections: 1, ReflectionTokens: 600}, // corrected by reflecting
		{Trials: 5, Reflections: 4, RedundantReflections: 4, ReflectionTokens: 1000},                                                           // never solved
		{Trials: 1, Success: false}, // failed, did not reflect
	}
	s := SumTrials(recs, 5)
	for k, want := range []int{1, 1, 2, 2, 2} {
		if got := s.SRAt[k]; got.K != want || got.N != 4 {
			t.Errorf("SR@%d = %d/%d, want %d/4", k+1, got.K, got.N, want)
		}
	}
	if s.FailedFirst != 3 || s.Corrected != 1 {
		t.Errorf("failed first %d, corrected %d; want 3, 1", s.FailedFirst, s.Corrected)
	}
	if v, ok := s.CostRef(); !ok || v != 1600 {
		t.Errorf("Cost_ref %v %v, want 1600 (all reflection tokens over the one corrected game)", v, ok)
	}
	if r := s.RateRev(); r.K != 1 || r.N != 3 {
		t.Errorf("Rate_rev %d/%d, want 1/3", r.K, r.N)
	}
	if s.Solved != 2 || s.Steps != 48 || s.Optimal != 13 {
		t.Errorf("solved %d, steps %d, optimal %d; want 2, 48, 13", s.Solved, s.Steps, s.Optimal)
	}
	if _, ok := SumTrials(recs[:1], 1).CostRef(); ok {
		t.Error("Cost_ref defined with no corrected game")
	}
}
