package fma

import (
	"math"
	"testing"
)

// mulAdd is x*y + z as the compiler builds it, kept out of line so that
// the operands are not constants it folds.
//
//go:noinline
func mulAdd(x, y, z float64) float64 { return x*y + z }

// A build that says it does not fuse must round the product before the
// sum: on operands whose fused and separately rounded results differ, it
// gives the latter. (A build that may fuse can give either: the compiler
// fuses where it chooses.)
func TestFusesSaysHowTheBuildRounds(t *testing.T) {
	x, y, z := 1+0x1p-30, 1-0x1p-30, -1.0 // x*y = 1 - 2⁻⁶⁰, which a float64 rounds to 1
	separate := float64(x*y) + z
	fused := math.FMA(x, y, z)
	if separate == fused {
		t.Fatalf("the operands do not tell the two apart: both %g", separate)
	}
	got := mulAdd(x, y, z)
	if !Fuses && got != separate {
		t.Errorf("Fuses is false, but x*y + z = %g, the fused result (%g rounded separately)", got, separate)
	}
	if got != separate && got != fused {
		t.Errorf("x*y + z = %g: neither the separately rounded %g nor the fused %g", got, separate, fused)
	}
	t.Logf("Fuses %v; x*y + z here: fused %v", Fuses, got == fused)
}

// Same is bit identity where the build does not fuse, and a tolerance
// well above an ulp and well below a change of logic where it may.
func TestSame(t *testing.T) {
	ulp := math.Nextafter(0.4636154223186681, 1)
	for _, tc := range []struct {
		why   string
		a, b  float64
		exact bool // Same where the build does not fuse
		fused bool // Same where it may
	}{
		{"equal bits", 0.4636154223186681, 0.4636154223186681, true, true},
		{"an ulp apart: a fused multiply-add's difference", 0.4636154223186681, ulp, false, true},
		{"a few ulps apart on a large figure (an area in pixels)", 3834.6423832860683, 3834.6423832860746, false, true},
		{"a thousandth apart: a change of logic", 0.4636, 0.4637, false, false},
		{"zero and its negative differ in their bits", 0, math.Copysign(0, -1), false, true},
		{"NaNs are the same", math.NaN(), math.NaN(), true, true},
		{"a NaN is not a number", math.NaN(), 1, false, false},
		{"infinities of a sign", math.Inf(1), math.Inf(1), true, true},
		{"an infinity is no large number", math.Inf(1), math.MaxFloat64, false, false},
	} {
		want := tc.exact
		if Fuses {
			want = tc.fused
		}
		if got := Same(tc.a, tc.b); got != want {
			t.Errorf("%s: Same(%v, %v) = %v, want %v (Fuses %v)", tc.why, tc.a, tc.b, got, want, Fuses)
		}
	}
}
