package stats

import (
	"math"
	"testing"
)

func TestHolm(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why      string
		in, want []float64
	}{
		{"one test is unadjusted", []float64{0.03}, []float64{0.03}},
		{"the smallest times m, the next times m-1, kept monotone", []float64{0.04, 0.01, 0.03}, []float64{0.06, 0.03, 0.06}},
		{"capped at 1", []float64{0.5, 0.9}, []float64{1, 1}},
		{"none", nil, []float64{}},
	} {
		got := Holm(tc.in)
		for i := range tc.want {
			if math.Abs(got[i]-tc.want[i]) > 1e-12 {
				t.Errorf("%s: Holm(%v) = %v, want %v", tc.why, tc.in, got, tc.want)
				break
			}
		}
	}
}
