package agents

import "testing"

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
