package results

import "testing"

// SumTrials counts a game solved at trial t as a success at every k ≥ t,
// and reflection's yield from the games failed at trial 1.
func TestSumTrials(t *testing.T) {
	recs := []Record{
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

// A tabletop record (no trials) is solved at trial 1 when it succeeded.
func TestSolvedBySingleTrial(t *testing.T) {
	if !(Record{Success: true}).SolvedBy(1) || (Record{}).SolvedBy(5) || (Record{Trials: 2, SolvedTrial: 2, Success: true}).SolvedBy(1) {
		t.Error("SolvedBy disagrees with the trial it was solved at")
	}
}
