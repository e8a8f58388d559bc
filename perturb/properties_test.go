package perturb_test

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/ambibench/ambibench/perturb"
	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/sim/physics"
	"github.com/ambibench/ambibench/sim/textworld"
	"github.com/ambibench/ambibench/tasks"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// These tests range over every registered perturbation and every track
// interface it implements, so that one registered later (by a user, or by
// another test file of this package) is held to the same properties
// without anyone listing names:
//
//  1. the reference solution solves every cell it applies to (the
//     tabletop episode's Plan, played in the physics; the household
//     expert, played in the text engine), at least at the rate the
//     perturbation declares (perturb.OracleRate, 1 unless it is noise);
//  2. its label is none or a known ambiguity tag, and a perturbation named
//     after a tag produces that tag;
//  3. the simulated user answers exactly when the label is a tag the user
//     is asked with (tasks.UserTags): not for none, and not for
//     partial_observability, which is resolved without the user;
//  4. the same seed gives the same episode.

// knownLabel reports whether l is none or a known ambiguity tag.
func knownLabel(l string) bool {
	return l == tasks.LabelNone || l == tasks.LabelPartialObservability || slices.Contains(tasks.UserTags, l)
}

// checkLabel checks properties 2 and 3 of one episode or game.
func checkLabel(t *testing.T, where, name, label, answer string) {
	t.Helper()
	if !knownLabel(label) {
		t.Errorf("%s: label %q is neither none nor a known tag", where, label)
	}
	if knownLabel(name) && label != name {
		t.Errorf("%s: label %q, want %q, the tag it is named after", where, label, name)
	}
	if userAnswers := slices.Contains(tasks.UserTags, label); userAnswers != (answer != "") {
		t.Errorf("%s: label %q with answer %q", where, label, answer)
	}
}

// drawEpisode applies a tabletop perturbation to episodes of a family
// until one fits, as the grid does.
func drawEpisode(t *testing.T, f tasks.Family, p perturb.Tabletop, seed uint64) *tasks.Episode {
	t.Helper()
	for attempt := range uint64(50) {
		rng := rand.New(rand.NewPCG(seed, attempt))
		ep, err := f.Generate(rng)
		if err != nil {
			continue
		}
		err = p.Apply(rng, ep)
		if err == nil {
			return ep
		}
		if !errors.Is(err, perturb.ErrRedraw) && !errors.Is(err, scenes.ErrNoRoom) {
			t.Fatalf("%s/%s seed %d: %v", f.Name(), p.Name(), seed, err)
		}
	}
	t.Fatalf("%s/%s seed %d: no draw fits", f.Name(), p.Name(), seed)
	return nil
}

// solves plays the episode's plan in the physics and reports whether the
// goal holds after it.
func solves(t *testing.T, ep *tasks.Episode) bool {
	t.Helper()
	w, err := physics.New(ep.Objects, physics.Config{
		TwoRobots: ep.TwoRobots, PartialView: ep.PartialView,
		PlaceNoise: ep.Physics.PlaceNoise, SlipRate: ep.Physics.SlipRate, NoiseSeed: ep.Physics.Seed,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range ep.Plan() {
		if s.Action != "pick_and_place" {
			continue // questions change nothing on the table
		}
		if _, err := w.PickAndPlace(s.Robot, s.Pick, s.Place); err != nil {
			return false
		}
	}
	ok, _ := ep.Goal().Holds(w.Objects())
	return ok
}

func TestLabelsAndAnswers(t *testing.T) {
	seeds := uint64(20)
	if testing.Short() {
		seeds = 5
	}
	for _, p := range perturb.ForTabletop() {
		solved, total := 0, 0
		for _, f := range tasks.All() {
			if !p.Applies(f) {
				continue
			}
			for seed := range seeds {
				ep := drawEpisode(t, f, p, seed)
				where := f.Name() + "/" + p.Name()
				checkLabel(t, where, p.Name(), ep.Label, ep.Answer)
				if again := drawEpisode(t, f, p, seed); !reflect.DeepEqual(ep, again) {
					t.Errorf("%s seed %d: two draws of one seed differ", where, seed)
				}
				// The intent must be reachable: every referred object is on
				// the table.
				for _, id := range ep.Referred() {
					if _, ok := ep.Object(id); !ok {
						t.Errorf("%s seed %d: the goal names %s, which is not on the table", where, seed, id)
					}
				}
				total++
				if solves(t, ep) {
					solved++
				} else if perturb.OracleRate(p) == 1 {
					t.Errorf("%s seed %d: the plan does not reach the goal of %q", where, seed, ep.Instruction())
				}
			}
		}
		if total == 0 {
			t.Errorf("tabletop %s applies to no family", p.Name())
		} else if rate := float64(solved) / float64(total); rate < perturb.OracleRate(p) {
			t.Errorf("tabletop %s: the plan solves %d of %d, below the declared %.2f", p.Name(), solved, total, perturb.OracleRate(p))
		}
	}
}

// expertSolves plays the household expert's plan in the engine and
// reports whether the goal holds after it.
func expertSolves(t *testing.T, g *alfworld.Game) bool {
	t.Helper()
	plan, err := g.Expert("")
	if err != nil {
		t.Errorf("%s: expert: %v", g.ID, err)
		return false
	}
	e, err := textworld.New(g.House, textworld.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e.Reset()
	for _, cmd := range plan {
		e.Step(cmd)
	}
	ok, _ := g.Goal.Holds(e.State())
	return ok && len(plan) <= g.StepLimit
}

func TestHouseholdLabelsAndAnswers(t *testing.T) {
	for _, p := range perturb.ForHousehold() {
		solved, total := 0, 0
		for i, s := range alfworld.EvalGames() {
			if testing.Short() && i%5 != 0 {
				continue
			}
			if !p.AppliesToGame(s.Type) {
				if _, err := s.BuildWith(p); err == nil {
					t.Errorf("%s/%s: built though it does not apply", s.ID, p.Name())
				}
				continue
			}
			g, err := s.BuildWith(p)
			if err != nil {
				t.Fatalf("%s/%s: %v", s.ID, p.Name(), err)
			}
			where := s.ID + "/" + p.Name()
			checkLabel(t, where, p.Name(), g.Label, g.Answer)
			if again, err := s.BuildWith(p); err != nil || !reflect.DeepEqual(g, again) {
				t.Errorf("%s: two builds differ (%v)", where, err)
			}
			if err := g.House.Validate(); err != nil {
				t.Errorf("%s: %v", where, err)
			}
			total++
			if expertSolves(t, g) {
				solved++
			} else if perturb.OracleRate(p) == 1 {
				t.Errorf("%s: the expert does not solve %q", where, g.Instruction)
			}
		}
		if total == 0 {
			t.Errorf("household %s applies to no task type", p.Name())
		} else if rate := float64(solved) / float64(total); rate < perturb.OracleRate(p) {
			t.Errorf("household %s: the expert solves %d of %d, below the declared %.2f", p.Name(), solved, total, perturb.OracleRate(p))
		}
	}
}

// Every registered perturbation belongs to a track, and the tabletop and
// household lookups find exactly the ones of their track.
func TestTracks(t *testing.T) {
	for _, p := range perturb.All() {
		if len(perturb.Tracks(p)) == 0 {
			t.Errorf("%s belongs to no track", p.Name())
		}
		_, isT := p.(perturb.Tabletop)
		_, isH := p.(perturb.Household)
		if _, ok := perturb.Lookup(p.Name()); ok != isT {
			t.Errorf("Lookup(%q) found %v; it is a tabletop perturbation: %v", p.Name(), ok, isT)
		}
		if _, ok := perturb.LookupHousehold(p.Name()); ok != isH {
			t.Errorf("LookupHousehold(%q) found %v; it is a household perturbation: %v", p.Name(), ok, isH)
		}
		if slices.Contains(perturb.Names(), p.Name()) != isT || slices.Contains(perturb.HouseholdNames(), p.Name()) != isH {
			t.Errorf("%s: Names %v / HouseholdNames %v disagree with its tracks %v", p.Name(), perturb.Names(), perturb.HouseholdNames(), perturb.Tracks(p))
		}
	}
}

// The name-based alfworld.Spec.Build, Perturbations and Applies, which
// know the built-in building blocks only, agree with the registry: the
// same names in the registry's order, the same cells, the same games.
func TestHouseholdBuiltinsAgreeWithTheRegistry(t *testing.T) {
	var registered []string
	for _, name := range perturb.HouseholdNames() {
		if slices.Contains(alfworld.Perturbations(), name) {
			registered = append(registered, name)
		}
	}
	if !slices.Equal(registered, alfworld.Perturbations()) {
		t.Fatalf("alfworld.Perturbations() %v; the registry has %v of them, in that order", alfworld.Perturbations(), registered)
	}
	for i, s := range alfworld.EvalGames() {
		for _, name := range alfworld.Perturbations() {
			p, _ := perturb.LookupHousehold(name)
			if alfworld.Applies(s.Type, name) != p.AppliesToGame(s.Type) {
				t.Errorf("%s/%s: Applies and AppliesToGame disagree", s.ID, name)
			}
			if !p.AppliesToGame(s.Type) || testing.Short() && i%5 != 0 {
				continue
			}
			a, errA := s.Build(name)
			b, errB := s.BuildWith(p)
			if errA != nil || errB != nil || !reflect.DeepEqual(a, b) {
				t.Errorf("%s/%s: Build and BuildWith differ (%v, %v)", s.ID, name, errA, errB)
			}
		}
	}
}
