// Package perturbations adds two perturbations from outside package
// perturb, each one file and one perturb.Register call: courteous, a
// household perturbation (the recipe of the README's "Adding a
// perturbation"), and distractor, a tabletop one. Their tests run them
// through "ambibench list", "ambibench run" and the track's Go
// benchmark. The package is apart from every other, so that the
// registrations stay out of every other test binary.
package perturbations
