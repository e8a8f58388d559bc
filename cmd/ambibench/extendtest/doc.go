// Package extendtest shows, in its test, that a perturbation is one type
// and one Register call: registered here and nowhere else, it appears in
// the benchmark grid, in "ambibench list" and in the table of "ambibench
// run". It is a package of its own so the registration stays out of every
// other test binary.
package extendtest
