package perturb_test

import (
	"slices"
	"testing"

	"github.com/ambibench/ambibench/perturb"
)

// queries stands for a fourth track, declared outside package perturb with
// an interface of its own.
type queries interface {
	perturb.Perturbation
	Rephrase(query string) string
}

type shouted struct{}

func (shouted) Name() string                 { return "shouted" }
func (shouted) Description() string          { return "the query is shouted" }
func (shouted) Rephrase(query string) string { return query + "!" }

func init() {
	perturb.DeclareTrack[queries]("queries")
	perturb.Register(shouted{})
}

func TestAnotherTrack(t *testing.T) {
	got := perturb.For[queries]()
	if len(got) != 1 || got[0].Name() != "shouted" {
		t.Fatalf("For[queries]() = %v", got)
	}
	if tr := perturb.Tracks(shouted{}); !slices.Equal(tr, []string{"queries"}) {
		t.Errorf("Tracks = %v", tr)
	}
	if _, ok := perturb.Lookup("shouted"); ok {
		t.Error("the tabletop finds a perturbation of another track")
	}
	if slices.Contains(perturb.Names(), "shouted") || slices.Contains(perturb.HouseholdNames(), "shouted") {
		t.Error("another track's perturbation is among the tabletop's or household's names")
	}
	if p, ok := perturb.LookupFor[queries]("shouted"); !ok || p.Rephrase("where") != "where!" {
		t.Errorf("LookupFor[queries]: %v, %v", p, ok)
	}
}
