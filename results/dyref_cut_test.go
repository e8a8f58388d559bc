package results

import (
	"strings"
	"testing"
)

// dyrefCutRecords is householdRecords with games of the pick-two type
// added, which DyRef's cut leaves out: each of them solved by trial 4
// after failing trial 1, so that counting them would move every figure.
func dyrefCutRecords() []Record {
	recs := householdRecords()
	for _, agent := range []string{"reflexion", "dyref"} {
		for ep := range 4 {
			recs = append(recs, Record{Suite: 1, Outcome: OutcomeScored, Schema: SchemaVersion, Track: "household", Family: dyrefCutLeftOut, Perturbation: "none", Label: "none",
				Agent: agent, Model: "sim", Seed: 1, Episode: ep, Steps: 9, OptimalSteps: 9, Trials: 2, SolvedTrial: 2, Success: true, ADA: true,
				Reflections: 1, ReflectionTokens: 10000, ReflectionTokenCounts: []int{10000}, ReflectionTrials: []int{1}, ReflectionTools: map[string]int{FreeTextReflectTool: 1}})
		}
	}
	return recs
}

// The figures at trial k follow docs/metrics.md: Rate_rev@k counts the
// games failed at trial 1 and solved by trial k; Cost_ref@k divides the
// tokens of the reflections run before trial k by those games.
func TestSumTrialsAt(t *testing.T) {
	t.Parallel()
	game := func(solved, trials int, tokens ...int) Record {
		r := Record{Outcome: OutcomeScored, Trials: trials, SolvedTrial: solved, Success: solved > 0, Reflections: len(tokens), ReflectionTokenCounts: tokens}
		for i, n := range tokens {
			r.ReflectionTrials = append(r.ReflectionTrials, i+1)
			r.ReflectionTokens += n
		}
		return r
	}
	for _, tc := range []struct {
		why       string
		recs      []Record
		sr1, srk  int
		rev       Rate
		cost      float64
		costKnown bool
	}{
		{"solved at once: nothing to correct, Cost_ref@4 undefined", []Record{game(1, 1)}, 1, 1, Rate{0, 0}, 0, false},
		{"solved at trial 3 after two reflections: both count", []Record{game(3, 3, 100, 200)}, 0, 1, Rate{1, 1}, 300, true},
		{"solved at trial 6: not by trial 4, yet the three reflections before trial 4 count in the tokens", []Record{game(6, 6, 100, 100, 100, 100, 100), game(2, 2, 50)}, 0, 1, Rate{1, 2}, 350, true},
		{"never solved: in Rate_rev@4's denominator only, its tokens before trial 4 still spent", []Record{game(0, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10), game(4, 4, 1, 2, 3)}, 0, 1, Rate{1, 2}, 36, true},
		{"a reflection without its trial: Cost_ref@4 cannot be told", []Record{{Outcome: OutcomeScored, Trials: 2, SolvedTrial: 2, Success: true, Reflections: 1, ReflectionTokens: 5, ReflectionTokenCounts: []int{5}}}, 0, 1, Rate{1, 1}, 0, false},
	} {
		got := SumTrialsAt(tc.recs, 4)
		cost, ok := got.CostRef()
		if got.SR1.K != tc.sr1 || got.SRK.K != tc.srk || got.RateRev() != tc.rev || ok != tc.costKnown || cost != tc.cost {
			t.Errorf("%s: SR@1 %d, SR@4 %d, Rate_rev@4 %v, Cost_ref@4 %v (%v); want %d, %d, %v, %v (%v)",
				tc.why, got.SR1.K, got.SRK.K, got.RateRev(), cost, ok, tc.sr1, tc.srk, tc.rev, tc.cost, tc.costKnown)
		}
	}
}

// The cut is a section of its own only when the report asks for it, and
// it reads the clear games less pick-two.
func TestReportDyRefCut(t *testing.T) {
	t.Parallel()
	var plain, cut strings.Builder
	if err := Report(&plain, dyrefCutRecords(), ReportOptions{Tracks: testTracks}); err != nil {
		t.Fatal(err)
	}
	if err := Report(&cut, dyrefCutRecords(), ReportOptions{Tracks: testTracks, Cut: CutDyRef}); err != nil {
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
