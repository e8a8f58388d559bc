// Package stack adds a tabletop task family from outside package tasks,
// with one file and one tasks.Register call: the recipe of the README's
// "Adding a task family". Its test runs the family through "ambibench
// run", under every perturbation that applies, and through the
// tabletop's Go benchmark.
package stack
