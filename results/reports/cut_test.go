package reports

import (
	"strings"
	"testing"

	"github.com/ambibench/ambibench/results"
)

// dyrefCutRecords is householdRecords with games of the pick-two type
// added, which DyRef's cut leaves out: each of them solved by trial 4
// after failing trial 1, so that counting them would move every figure.
func dyrefCutRecords() []results.Record {
	recs := householdRecords()
	for _, agent := range []string{"reflexion", "dyref"} {
		for ep := range 4 {
			recs = append(recs, results.Record{Suite: 1, Outcome: results.OutcomeScored, Schema: results.SchemaVersion, Track: "household", Family: "pick_two_obj_and_place", Perturbation: "none", Label: "none",
				Agent: agent, Model: "sim", Seed: 1, Episode: ep, Steps: 9, OptimalSteps: 9, Trials: 2, SolvedTrial: 2, Success: true, ADA: true,
				Reflections: 1, ReflectionTokens: 10000, ReflectionTokenCounts: []int{10000}, ReflectionTrials: []int{1}, ReflectionTools: map[string]int{results.FreeTextReflectTool: 1}})
		}
	}
	return recs
}

// The cut is a section of its own only when the report asks for it, and
// it reads the clear games less pick-two.
func TestReportDyRefCut(t *testing.T) {
	t.Parallel()
	var plain, cut strings.Builder
	if err := Write(&plain, dyrefCutRecords(), Options{Tracks: testTracks}); err != nil {
		t.Fatal(err)
	}
	if err := Write(&cut, dyrefCutRecords(), Options{Tracks: testTracks, Cut: testDyRefCut.Name}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "## DyRef's cut") {
		t.Error("the cut shows though the report did not ask for it")
	}
	sec := cut.String()[strings.Index(cut.String(), "## DyRef's cut"):]
	sec = sec[:strings.Index(sec[3:], "\n## ")+3]
	// householdRecords has 16 clear games per agent (2 families × 8); the
	// 4 pick-two games are left out.
	for _, want := range []string{"| reflexion | 16 |", "| dyref | 16 |", "| oracle | 16 |", "| SR@1 | SR@4 | Cost_ref@4 | Rate_rev@4 |"} {
		if !strings.Contains(sec, want) {
			t.Errorf("the cut lacks %q:\n%s", want, sec)
		}
	}
}
