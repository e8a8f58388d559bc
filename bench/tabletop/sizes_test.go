package tabletop

import (
	"slices"
	"strings"
	"testing"
)

func TestParseSceneSizes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why, in string
		want    []int
		err     string
	}{
		{"empty is the family's own size", "", nil, ""},
		{"a list keeps its order", "6, 12,24,48", []int{6, 12, 24, 48}, ""},
		{"0 names the family's own size beside others", "0,24", []int{0, 24}, ""},
		{"a word is not a size", "6,many", nil, `"many", is not a whole number`},
		{"a trailing comma leaves an empty size", "6,", nil, "size 2 is empty"},
		{"more than the table holds", "6,49", nil, "49 is out of range"},
		{"negative", "-1", nil, "-1 is out of range"},
		{"a repeat would run the same episodes twice", "12,12", nil, "12 is given twice"},
	} {
		got, err := ParseSceneSizes(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %q: error %v, want %q", tc.why, tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q: got %v, %v; want %v", tc.why, tc.in, got, err, tc.want)
		}
	}
}

func FuzzParseSceneSizes(f *testing.F) {
	for _, s := range []string{"", "6,12,24,48", "0", " 7 , 8", "x", "1,,2", "99999999999999999999", "-0", "+5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sizes, err := ParseSceneSizes(s)
		if err != nil {
			return
		}
		for i, n := range sizes {
			if n < 0 || n > 48 || slices.Contains(sizes[:i], n) {
				t.Fatalf("%q: accepted %v", s, sizes)
			}
		}
	})
}
