package results

import "testing"

// SumTrials counts a game solved at trial t as a success at every k ≥ t,
// and reflection's yield from the games failed at trial 1.
func TestSumTrials(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	if !(Record{Suite: 1, Outcome: OutcomeScored, Success: true}).SolvedBy(1) || (Record{}).SolvedBy(5) || (Record{Suite: 1, Outcome: OutcomeScored, Trials: 2, SolvedTrial: 2, Success: true}).SolvedBy(1) {
		t.Error("SolvedBy disagrees with the trial it was solved at")
	}
}

// TopK follows docs/metrics.md's definition row by row.
func TestTopK(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why  string
		y, g []string
		want [4]bool
	}{
		{"both empty: a hit at every k", nil, nil, [4]bool{true, true, true, true}},
		{"no answer where there is a truth: a miss", nil, []string{"a"}, [4]bool{}},
		{"an answer where the truth is empty: a miss", []string{"a"}, nil, [4]bool{}},
		{"first id right: hits at every k", []string{"a", "x"}, []string{"a"}, [4]bool{true, true, true, true}},
		{"second id right: Top-2 and up", []string{"x", "a"}, []string{"a", "b"}, [4]bool{false, true, true, true}},
		{"third id right", []string{"x", "y", "b"}, []string{"a", "b"}, [4]bool{false, false, true, true}},
		{"fifth id right: Top-Any only", []string{"x", "y", "z", "w", "a"}, []string{"a"}, [4]bool{false, false, false, true}},
		{"none right", []string{"x", "y"}, []string{"a"}, [4]bool{}},
	} {
		t1, t2, t3, ta := TopK(tc.y, tc.g)
		if got := [4]bool{t1, t2, t3, ta}; got != tc.want {
			t.Errorf("%s: %v, want %v", tc.why, got, tc.want)
		}
	}
}

func BenchmarkTopK(b *testing.B) {
	y := []string{"obj9", "obj4", "obj17", "obj2", "obj30"}
	g := []string{"obj2", "obj5", "obj6"}
	for b.Loop() {
		for range 10000 {
			TopK(y, g)
		}
	}
}
