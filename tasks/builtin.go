package tasks

// The built-in families are registered here, in one place, so that their
// order (Table 1 of the SG-CoT paper, then the two-robot family) does not
// depend on file names.
func init() {
	Register(pickPlace{})
	Register(longHorizon{})
	Register(spatial{})
	Register(handover{})
}
