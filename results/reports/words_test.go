package reports

import (
	"strings"
	"testing"

	"github.com/ambibench/ambibench/results"
)

// The rate tables define ADA and SR in the words of the tracks whose
// records they hold: a track's own, the tabletop's where it says none,
// and each track's apart when they differ.
func TestRateCaptionsInTheTracksWords(t *testing.T) {
	rec := func(track string, ep int) results.Record {
		return results.Record{Schema: results.SchemaVersion, Suite: 1, Outcome: results.OutcomeScored, Track: track, Family: "f", Perturbation: "partial_observability",
			Label: "partial_observability", Agent: "rules", Seed: 1, Episode: ep, Success: true, ADA: true}
	}
	tracks := map[string]Track{
		"tabletop":  {Sections: []Section{SectionRates}},
		"household": {Sections: []Section{SectionRates}, Words: Words{Families: "task types", ADA: "success.", SR: "a trial reached the goal."}},
	}
	tabletopADA := "ADA: on a clear episode (none), the goal reached without asking; on an ambiguous one, a question to the user (under partial_observability, a message to the other robot)."
	for _, tc := range []struct {
		why     string
		recs    []results.Record
		want    []string
		wantNot []string
	}{
		{"tabletop", []results.Record{rec("tabletop", 0)}, []string{tabletopADA, "SR: the settled scene satisfies the goal.", "; task families f;"}, []string{"task types"}},
		{"household", []results.Record{rec("household", 0)}, []string{"ADA: success.", "SR: a trial reached the goal.", "; task types f;"}, []string{"other robot", "settled"}},
		{"both", []results.Record{rec("tabletop", 0), rec("household", 1)},
			[]string{"ADA on household: success. ADA on tabletop: on a clear episode", "SR on household: a trial reached the goal. SR on tabletop: the settled scene", "; task families f;"}, []string{"task types"}},
	} {
		var b strings.Builder
		if err := Write(&b, tc.recs, Options{Tracks: tracks}); err != nil {
			t.Fatalf("%s: %v", tc.why, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: no %q in\n%s", tc.why, w, b.String())
			}
		}
		for _, w := range tc.wantNot {
			if strings.Contains(b.String(), w) {
				t.Errorf("%s: %q in\n%s", tc.why, w, b.String())
			}
		}
	}
}
