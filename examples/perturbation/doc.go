// Package courteous adds a household perturbation from outside package
// perturb, with one file and one perturb.Register call: the recipe of the
// README's "Adding a perturbation". Its test runs the new perturbation
// through "ambibench run" and through the household's Go benchmark.
package courteous
