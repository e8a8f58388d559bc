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

// OracleRater is implemented by a perturbation on which the reference
// solution (the tabletop episode's Plan, the household expert) may fail:
// OracleRate is the least share of episodes it must still solve. The
// registry's property tests read it through [OracleRate].
type OracleRater interface {
	OracleRate() float64
}

// OracleRate returns the share of episodes the reference solution must
// solve under p: what p declares as an [OracleRater], else 1.
func OracleRate(p Perturbation) float64 {
	if r, ok := p.(OracleRater); ok {
		return r.OracleRate()
	}
	return 1
}

// IsNoise reports whether the named perturbation is registered and Noisy.
func IsNoise(name string) bool {
	p, ok := Find(name)
	if !ok {
		return false
	}
	_, noisy := p.(Noisy)
	return noisy
}

// Clear returns the tabletop's perturbations that are not Noisy, in
// registry order: the ones on which a perfect agent scores 1.
func Clear() []string {
	var out []string
	for _, p := range ForTabletop() {
		if _, noisy := p.(Noisy); !noisy {
			out = append(out, p.Name())
		}
	}
	return out
}
