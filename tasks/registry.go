package tasks

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Family is a kind of task. Generate draws one clear episode from rng and
// nothing else.
type Family interface {
	Name() string
	Description() string
	// TwoRobots reports whether the family's episodes have two robots.
	TwoRobots() bool
	Generate(rng *rand.Rand) (*Episode, error)
}

var families []Family

// Register adds a family. It is meant for init functions; registering a
// name twice panics, since it is a programming error.
func Register(f Family) {
	if _, ok := Lookup(f.Name()); ok {
		panic(fmt.Sprintf("tasks: family %q registered twice", f.Name()))
	}
	families = append(families, f)
}

// Lookup returns the family with the given name.
func Lookup(name string) (Family, bool) {
	for _, f := range families {
		if f.Name() == name {
			return f, true
		}
	}
	return nil, false
}

// All returns the registered families in registration order.
func All() []Family { return slices.Clone(families) }

// Names returns the registered family names in registration order.
func Names() []string {
	var out []string
	for _, f := range families {
		out = append(out, f.Name())
	}
	return out
}
