package semmap

import (
	"strings"
	"testing"
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
