package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/results"
)

// householdFixture writes a small household run: reflexion and dyref
// reflect, react plays one trial, on the same four games.
func householdFixture(t *testing.T) string {
	t.Helper()
	var buf bytes.Buffer
	w := results.NewWriter(&buf)
	for _, agent := range []string{"react", "reflexion", "dyref"} {
		for ep := range 4 {
			r := results.Record{Suite: 1, Outcome: results.OutcomeScored, Track: "household", Family: "put", Perturbation: "none", Label: "none",
				Agent: agent, Model: "sim", Seed: 1, Episode: ep, Trials: 1, SolvedTrial: 1}
			if ep%2 == 1 && agent != "react" { // failed once, reflected, solved at trial 2
				r.Trials, r.SolvedTrial, r.Reflections, r.ReflectionTokens = 2, 2, 1, 100
				r.ReflectionTokenCounts = []int{100}
				r.ReflectionTools = map[string]int{results.FreeTextReflectTool: 1}
				if agent == "dyref" {
					r.ReflectionTools = map[string]int{"lesson": 1, "plan": 1}
				}
			}
			if ep == 3 && agent == "react" {
				r.SolvedTrial = 0
			}
			r.Success = r.SolvedTrial > 0
			if err := w.Write(r); err != nil {
				t.Fatal(err)
			}
		}
	}
	return copyFixture(t, buf.Bytes())
}

// On household records the report compares with reflexion on SR@k by
// default, --baseline still picks another agent, and the reflection
// section lists each tool.
func TestReportHousehold(t *testing.T) {
	t.Parallel()
	dir := householdFixture(t)
	def, errOut, err := runCLI(t, "report", "--out", "-", dir)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	base, _, err := runCLI(t, "report", "--out", "-", "--baseline", "react", dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		why, report, want string
		present           bool
	}{
		{"default: dyref against reflexion on SR@2, the most trials played", def, "| dyref | reflexion | SR@2 | 4 |", true},
		{"default: react against reflexion", def, "| react | reflexion | SR@2 | 4 |", true},
		{"default: no tabletop baseline on household records", def, "| sgcot", false},
		{"--baseline react: every other agent against react", base, "| reflexion | react | SR@2 | 4 |", true},
		{"--baseline react: not against reflexion", base, "| dyref | reflexion |", false},
		{"the reflection section has a column per tool", def, "| lesson calls/game | plan calls/game | reflect calls/game |", true},
	} {
		if strings.Contains(tc.report, tc.want) != tc.present {
			t.Errorf("%s: contains %q = %v, want %v\n%s", tc.why, tc.want, !tc.present, tc.present, tc.report)
		}
	}
}

// --cut dyref adds DyRef's cut to the household report; an unknown cut
// is refused.
func TestReportCutDyRef(t *testing.T) {
	t.Parallel()
	dir := householdFixture(t)
	out, errOut, err := runCLI(t, "report", "--out", "-", "--cut", "dyref", dir)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	// The fixture's games are clear and of family "put": all four are in
	// the cut; reflexion corrected two, each with one reflection of 100
	// tokens after trial 1.
	for _, want := range []string{"## DyRef's cut", "| SR@1 | SR@4 | Cost_ref@4 | Rate_rev@4 |", "| reflexion | 4 | 0.50"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if _, _, err := runCLI(t, "report", "--out", "-", "--cut", "paper", dir); err == nil || !strings.Contains(err.Error(), `--cut "paper"`) {
		t.Errorf("--cut paper: %v; want it refused", err)
	}
}
