package perturb

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/ambibench/ambibench/tasks"
)

// Perturbation changes an episode in place. Apply draws only from rng.
type Perturbation interface {
	Name() string
	Description() string
	// Applies reports whether the perturbation makes sense for an episode
	// of this family; the grid leaves out the cells where it does not.
	Applies(f tasks.Family) bool
	// Apply perturbs ep and sets its Label and Answer. It returns
	// ErrNoRoom-like errors when this draw cannot be perturbed; the caller
	// draws again.
	Apply(rng *rand.Rand, ep *tasks.Episode) error
}

// ErrRedraw means this particular episode cannot take the perturbation
// (say, there is no spare object to offer instead); draw another.
var ErrRedraw = errors.New("episode cannot take this perturbation; draw another")

var registry []Perturbation

// Register adds a perturbation. Registering a name twice panics.
func Register(p Perturbation) {
	if _, ok := Lookup(p.Name()); ok {
		panic(fmt.Sprintf("perturb: %q registered twice", p.Name()))
	}
	registry = append(registry, p)
}

// Lookup returns the perturbation with the given name.
func Lookup(name string) (Perturbation, bool) {
	for _, p := range registry {
		if p.Name() == name {
			return p, true
		}
	}
	return nil, false
}

// All returns the registered perturbations: the built-ins in their fixed
// order, then any others in registration order.
func All() []Perturbation { return slices.Clone(registry) }

// Names returns the names of All.
func Names() []string {
	var out []string
	for _, p := range registry {
		out = append(out, p.Name())
	}
	return out
}
