package cli

// Extensions of one's own (a track, a task family, a perturbation or an
// agent, each in a package of its own) register themselves from their
// init functions, so the command has them once it links their packages:
// import each in an import declaration of this file, for that side
// effect alone, one line a package, as the README's recipes say:
//
//	import _ "github.com/ambibench/ambibench/bench/jars"
//
// Then "ambibench list" shows them, "ambibench run" plays them, and so
// do the command's tests and make bench, which run this package. The
// built-ins need no line here: bench/tracks registers the tracks, and
// each track's package imports its task families, perturbations and
// agents. A package imported here cannot itself import this one from an
// in-package test (that would be a cycle); a test of it that drives the
// command is an external test package (package jars_test).
