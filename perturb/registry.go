package perturb

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/ambibench/ambibench/tasks"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// Perturbation is what every registered perturbation is: a name, unique in
// the registry, and a line for `ambibench list`. What it does, and on which
// track, it says by implementing one or more track interfaces: [Tabletop],
// [Household], or one a track declares with [DeclareTrack].
type Perturbation interface {
	Name() string
	Description() string
}

// Tabletop is a perturbation of the tabletop track. Apply draws only from
// rng.
type Tabletop interface {
	Perturbation
	// Applies reports whether the perturbation makes sense for an episode
	// of this family; the grid leaves out the cells where it does not.
	Applies(f tasks.Family) bool
	// Apply perturbs ep and sets its Label and Answer. It returns
	// ErrRedraw (or scenes.ErrNoRoom) when this draw cannot be perturbed;
	// the caller draws again.
	Apply(rng *rand.Rand, ep *tasks.Episode) error
}

// Household is a perturbation of the household track; it satisfies
// alfworld.Perturbation, which alfworld.Spec.BuildWith applies.
type Household interface {
	Perturbation
	// AppliesToGame reports whether the perturbation makes sense for a
	// game of the task type (alfworld.Types); the grid leaves out the
	// cells where it does not.
	AppliesToGame(taskType string) bool
	// ApplyGame perturbs g in place, drawing only from rng, and sets its
	// Label and Answer. It returns alfworld.ErrRedraw when this game
	// cannot take the perturbation; the builder draws another.
	ApplyGame(rng *rand.Rand, g *alfworld.Game) error
}

var _ alfworld.Perturbation = Household(nil)

// ErrRedraw means this particular episode cannot take the perturbation
// (say, there is no spare object to offer instead); draw another.
var ErrRedraw = errors.New("episode cannot take this perturbation; draw another")

// Track names.
const (
	TrackTabletop  = "tabletop"
	TrackHousehold = "household"
)

type track struct {
	name string
	is   func(Perturbation) bool
}

// tracks are the declared tracks; the two of this package are there
// before any init function runs.
var tracks = []track{
	{name: TrackTabletop, is: implements[Tabletop]},
	{name: TrackHousehold, is: implements[Household]},
}

var registry []Perturbation

func implements[T Perturbation](p Perturbation) bool { _, ok := p.(T); return ok }

// DeclareTrack declares a track whose perturbations implement T, so that
// [Register] accepts a perturbation that implements T and no other track's
// interface. A track outside this package calls it from its init function
// (before any perturbation of it registers; Go runs the init of a package
// before those of packages importing it) and finds its perturbations with
// [For]. Declaring a name twice panics.
func DeclareTrack[T Perturbation](name string) {
	for _, t := range tracks {
		if t.name == name {
			panic(fmt.Sprintf("perturb: track %q declared twice", name))
		}
	}
	tracks = append(tracks, track{name: name, is: implements[T]})
}

// Register adds a perturbation. Registering a name twice panics, and so
// does registering one that implements no declared track's interface
// (it would appear in no grid).
func Register(p Perturbation) {
	if _, ok := Find(p.Name()); ok {
		panic(fmt.Sprintf("perturb: %q registered twice", p.Name()))
	}
	if len(Tracks(p)) == 0 {
		panic(fmt.Sprintf("perturb: %q (%T) implements no track's interface (perturb.Tabletop, perturb.Household or a declared track's)", p.Name(), p))
	}
	registry = append(registry, p)
}

// Tracks returns the names of the declared tracks whose interface p
// implements, in the order they were declared (tabletop, household, then
// others).
func Tracks(p Perturbation) []string {
	var out []string
	for _, t := range tracks {
		if t.is(p) {
			out = append(out, t.name)
		}
	}
	return out
}

// All returns the registered perturbations of every track: the built-ins
// in their fixed order, then any others in registration order.
func All() []Perturbation { return slices.Clone(registry) }

// For returns the registered perturbations that implement T, in registry
// order: the perturbations of T's track.
func For[T any]() []T {
	var out []T
	for _, p := range registry {
		if t, ok := p.(T); ok {
			out = append(out, t)
		}
	}
	return out
}

// ForTabletop returns the tabletop's perturbations in registry order.
func ForTabletop() []Tabletop { return For[Tabletop]() }

// ForHousehold returns the household's perturbations in registry order.
func ForHousehold() []Household { return For[Household]() }

// Find returns the registered perturbation with the given name, of any
// track.
func Find(name string) (Perturbation, bool) {
	for _, p := range registry {
		if p.Name() == name {
			return p, true
		}
	}
	return nil, false
}

// LookupFor returns the perturbation of T's track with the given name.
func LookupFor[T any](name string) (T, bool) {
	p, ok := Find(name)
	if !ok {
		var zero T
		return zero, false
	}
	t, ok := p.(T)
	return t, ok
}

// Lookup returns the tabletop perturbation with the given name; one of
// another track only is not found.
func Lookup(name string) (Tabletop, bool) { return LookupFor[Tabletop](name) }

// LookupHousehold returns the household perturbation with the given name.
func LookupHousehold(name string) (Household, bool) { return LookupFor[Household](name) }

// HouseholdDescriber is a perturbation of both tracks whose Description
// tells what it does to a table, and which says apart what it does to a
// household game; `ambibench list` shows each under its track.
type HouseholdDescriber interface {
	HouseholdDescription() string
}

// HouseholdDescription is what p does to a household game: its
// HouseholdDescription when it has one, else its Description.
func HouseholdDescription(p Household) string {
	if d, ok := p.(HouseholdDescriber); ok {
		return d.HouseholdDescription()
	}
	return p.Description()
}

// NamesOf returns the names of ps.
func NamesOf[T Perturbation](ps []T) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name())
	}
	return out
}

// Names returns the names of the tabletop's perturbations (ForTabletop),
// the tabletop grid's default columns. NamesOf(All()) names every track's.
func Names() []string { return NamesOf(ForTabletop()) }

// HouseholdNames returns the names of the household's perturbations
// (ForHousehold), the household grid's default columns.
func HouseholdNames() []string { return NamesOf(ForHousehold()) }
