//go:build (amd64 && !amd64.v3) || 386

package fma

// Fuses reports whether the compiler may fuse a multiply-add in this
// build: here it does not, and every operation is rounded on its own.
const Fuses = false
