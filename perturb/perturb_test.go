package perturb

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks"
)

// draw applies a perturbation to episodes of a family until one fits.
func draw(t *testing.T, family, name string, seed uint64) *tasks.Episode {
	t.Helper()
	f, _ := tasks.Lookup(family)
	p, ok := Lookup(name)
	if !ok {
		t.Fatalf("no perturbation %q", name)
	}
	for attempt := range uint64(50) {
		rng := rand.New(rand.NewPCG(seed, attempt))
		ep, err := f.Generate(rng)
		if err != nil {
			continue
		}
		if err := p.Apply(rng, ep); err == nil {
			return ep
		} else if !errors.Is(err, ErrRedraw) {
			t.Fatal(err)
		}
	}
	t.Fatalf("%s/%s: no draw fits", family, name)
	return nil
}

// matches counts the objects of the table a plain phrase names.
func matches(ep *tasks.Episode, phrase string) int {
	n := 0
	for _, o := range ep.Objects {
		if tasks.Phrase(o) == phrase {
			n++
		}
	}
	return n
}

func TestAbsenceRemovesWhatIsNamed(t *testing.T) {
	for seed := range uint64(30) {
		ep := draw(t, "pick_place", "absence", seed)
		m := ep.Moves[0]
		if matches(ep, m.Pick.Phrase)+matches(ep, m.Place.Phrase) != 1 {
			t.Errorf("seed %d: %q: want exactly one of pick and place gone", seed, ep.Instruction())
		}
		if !strings.HasSuffix(ep.Answer, "instead.") {
			t.Errorf("seed %d: answer %q offers nothing instead", seed, ep.Answer)
		}
	}
}

func TestMultiplicityDuplicatesWhatIsNamed(t *testing.T) {
	for seed := range uint64(30) {
		ep := draw(t, "pick_place", "multiplicity", seed)
		m := ep.Moves[0]
		if matches(ep, m.Pick.Phrase) != 2 && matches(ep, m.Place.Phrase) != 2 {
			t.Errorf("seed %d: %q: no phrase matches two objects", seed, ep.Instruction())
		}
		if !strings.Contains(ep.Answer, m.Pick.ID) && !strings.Contains(ep.Answer, m.Place.ID) {
			t.Errorf("seed %d: answer %q names neither intended object", seed, ep.Answer)
		}
	}
	// On a spatial task the twin lies in the named direction.
	for seed := range uint64(30) {
		ep := draw(t, "spatial", "multiplicity", seed)
		rel, anchor, ok := spatialPick(ep, 0)
		if !ok {
			t.Fatalf("seed %d: %q has no spatial phrase", seed, ep.Instruction())
		}
		if matches(ep, ep.Moves[0].Place.Phrase) == 2 {
			continue // the destination was doubled instead
		}
		n := 0
		for _, o := range ep.Objects {
			if o.Class == scenes.ClassBlock && o.ID != anchor.ID && scenes.Direction(o, anchor) == rel {
				n++
			}
		}
		if n != 2 {
			t.Errorf("seed %d: %d blocks %s %s, want 2", seed, n, rel, anchor.ID)
		}
	}
}

func TestUnderspecifiedHidesSomething(t *testing.T) {
	for seed := range uint64(30) {
		ep := draw(t, "pick_place", "underspecified", seed)
		inst := ep.Instruction()
		m := ep.Moves[0]
		vague := false
		for _, w := range VagueWords {
			if m.Pick.Phrase == w {
				vague = true
			}
		}
		if !vague && strings.Contains(inst, m.Place.Phrase) {
			t.Errorf("seed %d: %q is neither vague nor missing its destination", seed, inst)
		}
	}
}

// Partial observability hides one of the two things robot 1 needs, drawn
// per episode: the block (in robot 2's workspace, its destination in robot
// 1's) or the destination (the other way round). Both cases occur in each
// family, about half the time each.
func TestPartialObservabilityHidesTheBlockOrItsDestination(t *testing.T) {
	for _, tc := range []struct {
		why, outOfView, pickRegion, placeRegion string
	}{
		{"the object out of view: robot 2 must bring the block", tasks.OutOfViewObject, scenes.RegionRobot2, scenes.RegionRobot1},
		{"the destination out of view: robot 2 must place the block", tasks.OutOfViewDestination, scenes.RegionRobot1, scenes.RegionRobot2},
	} {
		t.Run(tc.why, func(t *testing.T) {
			for _, family := range []string{"pick_place", "handover"} {
				n := 0
				const seeds = 60
				for seed := range uint64(seeds) {
					ep := draw(t, family, tasks.LabelPartialObservability, seed)
					if !ep.TwoRobots || !ep.PartialView {
						t.Fatalf("%s seed %d: not a two-robot partial view", family, seed)
					}
					if ep.OutOfView != tasks.OutOfViewObject && ep.OutOfView != tasks.OutOfViewDestination {
						t.Fatalf("%s seed %d: out of view %q, want object or destination", family, seed, ep.OutOfView)
					}
					if ep.OutOfView != tc.outOfView {
						continue
					}
					n++
					pick, _ := ep.Object(ep.Moves[0].Pick.ID)
					place, _ := ep.Object(ep.Moves[0].Place.ID)
					if pick.Region != tc.pickRegion || place.Region != tc.placeRegion {
						t.Errorf("%s seed %d: block in %s, destination in %s; want %s and %s", family, seed, pick.Region, place.Region, tc.pickRegion, tc.placeRegion)
					}
					for _, o := range ep.Objects {
						if got := scenes.RegionAt(true, o.Pose.X(), o.Pose.Y()); got != o.Region {
							t.Errorf("%s seed %d: %s at x=%.3f says region %s, lies in %s", family, seed, o.ID, o.Pose.X(), o.Region, got)
						}
					}
				}
				if n < seeds/4 || n > seeds*3/4 {
					t.Errorf("%s: %d of %d episodes of this case, want about half", family, n, seeds)
				}
			}
		})
	}
}

// The built-ins are registered in builtin.go's order, each once, and
// registering one again panics.
func TestRegistry(t *testing.T) {
	for i, p := range All() {
		if q, ok := Find(p.Name()); !ok || q != p {
			t.Errorf("Find(%q) = %v, %v", p.Name(), q, ok)
		}
		for _, q := range All()[:i] {
			if q.Name() == p.Name() {
				t.Errorf("%q registered twice", p.Name())
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("registering a name twice did not panic")
		}
	}()
	Register(none{})
}

// noTrack implements no track's interface.
type noTrack struct{}

func (noTrack) Name() string        { return "no-track" }
func (noTrack) Description() string { return "does nothing anywhere" }

func TestRegisterRefusesATracklessPerturbation(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("registering a perturbation of no track did not panic")
		}
		if _, ok := Find("no-track"); ok {
			t.Error("the refused perturbation is registered")
		}
	}()
	Register(noTrack{})
}
