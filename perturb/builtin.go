package perturb

// The built-ins are registered here, in one place, so that their order in
// tables does not depend on file names.
func init() {
	Register(none{})
	Register(absence{})
	Register(multiplicity{})
	Register(underspecified{})
	Register(partialObservability{})
	Register(sceneGraphNoise{})
	Register(executionNoise{})
}
