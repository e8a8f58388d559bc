package semmap

import (
	"maps"
	"strings"
	"testing"

	agsm "github.com/ambibench/ambibench/agents/semmap"
)

func TestParseExamples(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		why, s string
		want   [3]int
		err    string
	}{
		{"the paper's counts", "3,7,3", [3]int{3, 7, 3}, ""},
		{"the project's earlier protocol, spaces allowed", "2, 0, 0", [3]int{2, 0, 0}, ""},
		{"one count for three prompts would be ambiguous", "3", [3]int{}, "want three counts"},
		{"a negative count", "3,-1,3", [3]int{}, "not a whole number"},
		{"not a number", "3,seven,3", [3]int{}, "not a whole number"},
	} {
		got, err := parseExamples(c.s)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: parseExamples(%q) error %v, want %q", c.why, c.s, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: parseExamples(%q) = %v, %v; want %v", c.why, c.s, got, err, c.want)
		}
	}
}

// The counts a run without --examples uses are the workflows' own,
// agents/semmap.PaperExamples; Settings reads the flag's value against
// paperExamples, so the two must be one.
func TestPaperExamplesAreTheDefault(t *testing.T) {
	t.Parallel()
	p := agsm.PaperExamples
	if got := [3]int{p.Plan, p.Reflect, p.Refine}; got != paperExamples {
		t.Errorf("paperExamples %v, agents/semmap.PaperExamples %v", paperExamples, got)
	}
}

// --examples set to the default's counts is the default: run.json's
// settings are those of a run without the flag, so that resuming one with
// the other is not refused (issue 33: "--examples 3,7,3", the stated
// default, was refused on a directory made without the flag); other
// counts are another protocol, and named.
func TestExamplesSettings(t *testing.T) {
	t.Parallel()
	settings := func(ex *[3]int) map[string]string {
		t.Helper()
		tr := New()
		tr.Examples = ex
		s, err := tr.Settings()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	none := settings(nil)
	for _, tc := range []struct {
		why  string
		ex   [3]int
		want string // the examples setting; "" for none
	}{
		{"the default's counts, given as a flag, are no setting", paperExamples, ""},
		{"the project's earlier protocol is one", [3]int{2, 0, 0}, "2,0,0"},
		{"one count off the default is another protocol", [3]int{3, 7, 2}, "3,7,2"},
	} {
		got := settings(&tc.ex)
		if got["examples"] != tc.want {
			t.Errorf("%s: examples setting %q, want %q", tc.why, got["examples"], tc.want)
		}
		if tc.want == "" && !maps.Equal(got, none) {
			t.Errorf("%s: settings %v, without the flag %v", tc.why, got, none)
		}
	}
}
