package cp

import (
	"math"
	"testing"
)

// Merge, Expand and MergedArea take bbMin and bbMax, which must give
// math.Min's and math.Max's bits for every pair, signed zeros, NaN and
// infinities included (the builtin min and max do not: max(+Inf, NaN) is
// NaN, math.Max's +Inf), so that the trees they shape are upstream's.
func TestBBMinMaxAreMathMinMax(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 2.5, math.Inf(1), math.Inf(-1), math.NaN(), 1e-300, -1e300}
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
	}
	for _, a := range vals {
		for _, b := range vals {
			if !same(bbMax(a, b), math.Max(a, b)) || !same(bbMin(a, b), math.Min(a, b)) {
				t.Errorf("bbMax, bbMin of %v and %v: %v, %v; math gives %v, %v", a, b, bbMax(a, b), bbMin(a, b), math.Max(a, b), math.Min(a, b))
			}
			got := BB{a, a, a, a}.Merge(BB{b, b, b, b})
			want := BB{math.Min(a, b), math.Min(a, b), math.Max(a, b), math.Max(a, b)}
			for i, pair := range [][2]float64{{got.L, want.L}, {got.B, want.B}, {got.R, want.R}, {got.T, want.T}} {
				if !same(pair[0], pair[1]) {
					t.Errorf("Merge of %v and %v: side %d is %v, math gives %v", a, b, i, pair[0], pair[1])
				}
			}
			if g, w := (BB{a, a, a, a}).MergedArea(BB{b, b, b, b}), (math.Max(a, b)-math.Min(a, b))*(math.Max(a, b)-math.Min(a, b)); !same(g, w) {
				t.Errorf("MergedArea of %v and %v: %v, math gives %v", a, b, g, w)
			}
		}
	}
}
