package stats

import (
	"math"
	"testing"
)

func TestRate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string // why the row exists
		r      Rate
		value  float64
		lo, hi float64
	}{
		{"empty rate is 0 with the uninformative interval", Rate{0, 0}, 0, 0, 1},
		{"interval is Wilson at 95%", Rate{81, 100}, 0.81, 0.722211546209356, 0.874852484902313},
		{"all successes", Rate{10, 10}, 1, 0.722467200137111, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.r.Value(); got != tt.value {
				t.Errorf("Value() = %v, want %v", got, tt.value)
			}
			lo, hi := tt.r.Interval()
			if math.Abs(lo-tt.lo) > 1e-12 || math.Abs(hi-tt.hi) > 1e-12 {
				t.Errorf("Interval() = (%v, %v), want (%v, %v)", lo, hi, tt.lo, tt.hi)
			}
		})
	}
}

// The expected values below were computed outside Go (Python and bc) from
//
//	p = k/n, d = 1 + z²/n
//	centre = (p + z²/(2n)) / d
//	half   = (z/d) · sqrt(p(1−p)/n + z²/(4n²))
//	lo, hi = centre − half, centre + half
//
// with z = 1.959963984540054 (z² = 3.841458820694124). Closed forms where
// they exist: for k = 0, lo = 0 and hi = z²/(n+z²); for k = n, lo = n/(n+z²)
// and hi = 1; for k = n/2 the interval is symmetric about 0.5.
func TestWilson(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string // why the row exists
		k, n   int
		lo, hi float64
	}{
		{"no successes: lo is exactly 0, hi = z²/(10+z²)", 0, 10, 0, 0.277532799862889},
		{"all successes: mirror image of 0/10, hi exactly 1", 10, 10, 0.722467200137111, 1},
		{"half: symmetric about 0.5", 5, 10, 0.236593090512564, 0.763406909487436},
		{"typical rate from a 100-episode cell", 81, 100, 0.722211546209356, 0.874852484902313},
		{"single success: interval still wide", 1, 1, 0.206549314377237, 1},
		{"single failure", 0, 1, 0, 0.793450685622763},
		{"high rate near 1 stays below 1", 95, 100, 0.888249530768081, 0.978456320845632},
		{"small n, odd k: asymmetric interval", 1, 3, 0.061491944720396, 0.792340399197952},
		{"large n narrows around 0.5", 500, 1000, 0.469069600368104, 0.530930399631896},
		{"no trials: nothing known", 0, 0, 0, 1},
		{"negative n is treated as no trials", 3, -1, 0, 1},
		{"successes above n are clamped to n", 12, 10, 0.722467200137111, 1},
		{"negative successes are clamped to 0", -2, 10, 0, 0.277532799862889},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := Wilson(tt.k, tt.n, Z95)
			if math.Abs(lo-tt.lo) > 1e-12 || math.Abs(hi-tt.hi) > 1e-12 {
				t.Errorf("Wilson(%d, %d) = (%.15f, %.15f), want (%.15f, %.15f)", tt.k, tt.n, lo, hi, tt.lo, tt.hi)
			}
		})
	}
}

func TestWilsonZ(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string // why the row exists
		z      float64
		lo, hi float64
	}{
		{"z = 0 collapses the interval to the point estimate", 0, 0.81, 0.81},
		{"the sign of z does not matter", -Z95, 0.722211546209356, 0.874852484902313},
		{"NaN z gives the uninformative interval, not NaN", math.NaN(), 0, 1},
		{"infinite z gives the uninformative interval", math.Inf(1), 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := Wilson(81, 100, tt.z)
			if math.Abs(lo-tt.lo) > 1e-12 || math.Abs(hi-tt.hi) > 1e-12 {
				t.Errorf("Wilson(81, 100, %v) = (%v, %v), want (%v, %v)", tt.z, lo, hi, tt.lo, tt.hi)
			}
		})
	}
}

// TestWilsonProperties checks, over many (k, n), what every interval must
// satisfy: inside [0, 1], ordered, containing the point estimate, and
// mirrored between k and n−k.
func TestWilsonProperties(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 200; n++ {
		for k := 0; k <= n; k++ {
			lo, hi := Wilson(k, n, Z95)
			p := float64(k) / float64(n)
			if !(0 <= lo && lo <= p && p <= hi && hi <= 1) {
				t.Fatalf("Wilson(%d, %d) = (%v, %v): want 0 <= lo <= %v <= hi <= 1", k, n, lo, hi, p)
			}
			mlo, mhi := Wilson(n-k, n, Z95)
			if math.Abs(lo-(1-mhi)) > 1e-12 || math.Abs(hi-(1-mlo)) > 1e-12 {
				t.Fatalf("Wilson(%d, %d) = (%v, %v) is not the mirror of Wilson(%d, %d) = (%v, %v)", k, n, lo, hi, n-k, n, mlo, mhi)
			}
		}
	}
}
