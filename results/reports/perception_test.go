package reports

import (
	"strings"
	"testing"

	"github.com/ambibench/ambibench/results"
)

// The perception section counts each kind of error per episode, and of
// the failed episodes those whose perception erred; an agent whose
// records carry no perception is left out of it.
func TestPerceptionSection(t *testing.T) {
	t.Parallel()
	rec := func(agent string, ep, phantoms, missed, wrong int, success bool) results.Record {
		return results.Record{Suite: 2, Outcome: results.OutcomeScored, Track: "tabletop", Family: "pick_place", Perturbation: "none", Label: "none",
			Agent: agent, Seed: 1, Episode: ep, Perception: "image", PhantomNodes: phantoms, MissedObjects: missed,
			WrongRelations: wrong, Success: success, ADA: success}
	}
	recs := []results.Record{
		rec("sgcot", 0, 1, 0, 0, false), // erred, then failed
		rec("sgcot", 1, 0, 2, 0, true),  // erred, and succeeded all the same
		rec("sgcot", 2, 0, 0, 0, false), // failed with a perception that was right
		rec("sgcot", 3, 0, 0, 4, true),
	}
	blind := rec("rules", 0, 0, 0, 0, true)
	blind.Perception = "" // reads the table itself
	recs = append(recs, blind)
	tracks := map[string]Track{"tabletop": {Sections: []Section{SectionPerception}}}
	var b strings.Builder
	if err := Write(&b, recs, Options{Tracks: tracks}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"## Perception",
		// phantoms 1/4, missed 2/4, wrong 4/4; of 2 failures 1 erred.
		"| sgcot | none | 4 | 0.25 [0.00, 0.75] | 0.50 [0.00, 1.50] | 1.00 [0.00, 3.00] | 0.50 [0.09, 0.91] (n=2) |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "| rules | none |") {
		t.Errorf("rules, which perceives nothing itself, has a row:\n%s", out)
	}
	// Nothing perceived: no section.
	b.Reset()
	if err := Write(&b, []results.Record{blind}, Options{Tracks: tracks}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "## Perception") {
		t.Errorf("a report of agents that perceive nothing has a perception section:\n%s", b.String())
	}
}
