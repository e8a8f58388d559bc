package fma

import "math"

// Tolerance is how far apart, relative to their size, two results of one
// computation written two ways may lie where the build fuses: a fused
// multiply-add moves a result by an ulp or so (about 1e-16 of it), and a
// chain of them by a few; a change of logic moves it by far more.
const Tolerance = 1e-9

// Same reports whether a and b are the same result of a computation
// written in two ways: bit for bit where the build does not fuse
// (Fuses), within Tolerance of the larger where it may. NaNs are the
// same only as NaNs.
func Same(a, b float64) bool {
	if !Fuses || math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= Tolerance*max(1, math.Abs(a), math.Abs(b))
}
