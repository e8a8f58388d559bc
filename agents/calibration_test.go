package agents

import (
	"math"
	"testing"
)

// FitThreshold picks the cut with the best balanced accuracy, ties to the
// lowest.
func TestFitThreshold(t *testing.T) {
	for _, tc := range []struct {
		why    string
		scored []Scored
		want   float64
	}{
		{"nothing to fit", nil, 0},
		{"separable: the highest clear score", []Scored{{0, false}, {0.2, false}, {0.4, true}, {0.6, true}}, 0.2},
		{"overlap: the cut that errs least on both sides", []Scored{{0, false}, {0.4, false}, {0.2, true}, {0.6, true}, {0.8, true}}, 0.4},
		{"only ambiguous episodes: ask always", []Scored{{0.2, true}, {0.4, true}}, -1},
	} {
		if got := FitThreshold(tc.scored); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.why, got, tc.want)
		}
	}
}

// BalancedAccuracy is the mean of the two classes' shares judged right.
func TestBalancedAccuracy(t *testing.T) {
	overlap := []Scored{{0, false}, {0.4, false}, {0.2, true}, {0.6, true}, {0.8, true}}
	for _, tc := range []struct {
		why    string
		scored []Scored
		t      float64
		want   float64
	}{
		{"nothing to judge", nil, 0, 0},
		{"separable at its fitted cut: every episode right", []Scored{{0, false}, {0.2, false}, {0.4, true}, {0.6, true}}, 0.2, 1},
		{"overlap at 0.4: both clear right, two of three ambiguous", overlap, 0.4, (1 + 2.0/3) / 2},
		{"overlap at 0.2: one clear of two, all ambiguous but the one at 0.2", overlap, 0.2, (0.5 + 2.0/3) / 2},
		{"one class only: the missing class counts as none right", []Scored{{0.2, true}, {0.4, true}}, -1, 0.5},
	} {
		if got := BalancedAccuracy(tc.scored, tc.t); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: %v, want %v", tc.why, got, tc.want)
		}
	}
}
