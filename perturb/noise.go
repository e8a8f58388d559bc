package perturb

// Noisy marks a perturbation that leaves the instruction clear and the
// label "none" but makes the robot's perception or execution imperfect.
// An agent with the ground truth, or a perfect planner, may still fail on
// it, so checks that demand perfection leave these out.
type Noisy interface {
	Perturbation
	// Noise says what is noisy, for documentation: "perception" or
	// "execution".
	Noise() string
}

// IsNoise reports whether the named perturbation is registered and Noisy.
func IsNoise(name string) bool {
	p, ok := Lookup(name)
	if !ok {
		return false
	}
	_, noisy := p.(Noisy)
	return noisy
}

// Clear returns the registered perturbations that are not Noisy, in
// registry order: the ones on which a perfect agent scores 1.
func Clear() []string {
	var out []string
	for _, p := range registry {
		if _, noisy := p.(Noisy); !noisy {
			out = append(out, p.Name())
		}
	}
	return out
}
