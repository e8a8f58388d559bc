package stats

import "math"

// Rate is K successes out of N episodes (or questions).
type Rate struct {
	K, N int
}

// Value returns K/N, or 0 when N is 0 (check N before reading it as a rate).
func (r Rate) Value() float64 {
	if r.N <= 0 {
		return 0
	}
	return float64(r.K) / float64(r.N)
}

// Interval returns the 95% Wilson score interval of the rate; (0, 1) when N is 0.
func (r Rate) Interval() (lo, hi float64) {
	return Wilson(r.K, r.N, Z95)
}

// Z95 is the two-sided 95% quantile of the standard normal distribution,
// the z to pass to [Wilson] for a 95% interval.
const Z95 = 1.959963984540054

// Wilson returns the Wilson score interval for a proportion of successes out
// of n trials at normal quantile z (use [Z95] for 95%):
//
//	p = successes/n
//	centre = (p + z²/2n) / (1 + z²/n)
//	half   = z/(1 + z²/n) · sqrt(p(1−p)/n + z²/4n²)
//	lo, hi = centre − half, centre + half
//
// The interval always lies in [0, 1]; at 0 successes lo is exactly 0 and at n
// successes hi is exactly 1. With no trials (n <= 0) nothing is known and the
// result is (0, 1). Successes outside [0, n] are clamped into it, and the sign
// of z is ignored; a NaN or infinite z also gives (0, 1).
func Wilson(successes, n int, z float64) (lo, hi float64) {
	if n <= 0 || math.IsNaN(z) || math.IsInf(z, 0) {
		return 0, 1
	}
	k := min(max(successes, 0), n)
	nf := float64(n)
	p := float64(k) / nf
	z2 := z * z
	denom := 1 + z2/nf
	centre := (p + z2/(2*nf)) / denom
	half := math.Abs(z) / denom * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	lo, hi = centre-half, centre+half
	if k == 0 || lo < 0 {
		lo = 0
	}
	if k == n || hi > 1 {
		hi = 1
	}
	return lo, hi
}
