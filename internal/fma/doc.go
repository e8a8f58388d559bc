// Package fma says whether this build's floating-point arithmetic may fuse
// a multiplication and an addition into one operation with one rounding
// (a fused multiply-add), which the Go specification lets a compiler do.
//
// The Go compiler fuses x*y + z on arm64, ppc64, s390x, riscv64 and
// loong64, and on amd64 built for GOAMD64=v3 or later; it does not on
// amd64 at the default GOAMD64=v1, nor on 386. A fused result differs
// from the separately rounded one in its last bits, and where a
// computation is written in two ways (a fast path and the reference it
// must equal), the two may be fused at different places. The suite's
// records are the same bytes either way (the baselines pass on arm64);
// what differs is a test that holds a float, or a plot's anti-aliased
// pixel, bit for bit. Such a test asks Fuses, and where it is true
// compares within a tolerance that no change of logic would fit in.
//
// It is for tests only: nothing the suite computes depends on it.
package fma
