package semmap

import (
	"slices"
	"strings"
	"testing"
)

func TestParseSemmapReply(t *testing.T) {
	for _, tc := range []struct {
		why, text  string
		ids        []string
		achievable bool
		errHas     string
	}{
		{"bare object", `{"relevant_objects": ["obj1", "obj2"], "query_achievable": true}`, []string{"obj1", "obj2"}, true, ""},
		{"in a fence after prose", "Here it is:\n```json\n{\"relevant_objects\": [\"obj3\"], \"query_achievable\": true}\n```\nDone.", []string{"obj3"}, true, ""},
		{"an example object first, without the field", `Like {"id": "x"} I answer {"relevant_objects": ["obj4"]}`, []string{"obj4"}, true, ""},
		{"the agentic-workflows paper's \"partially\"", `{"relevant_objects": ["obj2"], "query_achievable": "partially"}`, []string{"obj2"}, true, ""},
		{"empty answer", `{"relevant_objects": [], "query_achievable": false}`, []string{}, false, ""},
		{"null list", `{"relevant_objects": null}`, []string{}, false, ""},
		{"numbers and objects as ids, duplicates dropped", `{"relevant_objects": [3, {"id": "obj5"}, "obj5", " "]}`, []string{"3", "obj5"}, true, ""},
		{"achievable missing: read from the list", `{"relevant_objects": ["obj1"]}`, []string{"obj1"}, true, ""},
		{"not a list", `{"relevant_objects": "obj1"}`, nil, false, `field "relevant_objects"`},
		{"achievable neither bool nor word", `{"relevant_objects": [], "query_achievable": "maybe"}`, nil, false, `field "query_achievable"`},
		{"no field anywhere", `{"objects": ["obj1"]}`, nil, false, "no JSON object has"},
		{"no JSON", "I pick obj1.", nil, false, "no JSON object in"},
		{"truncated", `{"relevant_objects": ["obj1"`, nil, false, "no JSON object in"},
	} {
		a, err := ParseSemmapReply(tc.text)
		if tc.errHas != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errHas) {
				t.Errorf("%s: error %v, want %q", tc.why, err, tc.errHas)
			}
			continue
		}
		if err != nil || !slices.Equal(a.RelevantObjects, tc.ids) || a.QueryAchievable != tc.achievable {
			t.Errorf("%s: %+v, %v; want %v achievable %v", tc.why, a, err, tc.ids, tc.achievable)
		}
	}
}

func TestParseChoice(t *testing.T) {
	for _, tc := range []struct {
		text string
		n    int
		want int
		ok   bool
	}{
		{"C", 6, 2, true},
		{" **b**.\n", 6, 1, true},
		{"Response D", 6, 3, true},
		{"I choose response A because it is right.", 6, 0, true},
		{`{"choice": "F"}`, 6, 5, true},
		{"G", 6, 0, false},                  // past the responses
		{"They are all fine.", 6, 0, false}, // no letter
		{"\x99Response B", 6, 1, true},      // a byte that is not UTF-8 before the word: found, not a panic (fuzz)
		{"\x99\x99RESPONSE", 6, 0, false},   // and with nothing after it
		{"A", 0, 0, false},                  // nothing to choose from
	} {
		got, err := ParseChoice(tc.text, tc.n)
		if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
			t.Errorf("ParseChoice(%q, %d) = %d, %v; want %d ok %v", tc.text, tc.n, got, err, tc.want, tc.ok)
		}
	}
}

// Whatever the text, the parser returns an answer or an error, and an
// answer holds no empty or repeated id; what FormatAnswer writes reads
// back the same.
func FuzzParseSemmapReply(f *testing.F) {
	for _, s := range []string{
		`{"relevant_objects": ["obj1"], "query_achievable": true}`,
		"```json\n{\"relevant_objects\": []}\n```",
		`{"a": {"relevant_objects": [1, {"id": "x"}]}}`,
		`{{{{`, `{"relevant_objects": "x"}`, "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		a, err := ParseSemmapReply(text)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, id := range a.RelevantObjects {
			if strings.TrimSpace(id) == "" || seen[id] {
				t.Fatalf("%q: ids %q", text, a.RelevantObjects)
			}
			seen[id] = true
		}
		back, err := ParseSemmapReply(FormatAnswer(a))
		if err != nil || !slices.Equal(back.RelevantObjects, a.RelevantObjects) || back.QueryAchievable != a.QueryAchievable {
			t.Fatalf("%q: %+v wrote and read back as %+v, %v", text, a, back, err)
		}
	})
}

func FuzzParseChoice(f *testing.F) {
	for _, s := range []string{"A", "Response C", `{"choice":"b"}`, "none", ""} {
		f.Add(s, 6)
	}
	f.Fuzz(func(t *testing.T, text string, n int) {
		k, err := ParseChoice(text, n)
		if err == nil && (k < 0 || k >= n) {
			t.Fatalf("ParseChoice(%q, %d) = %d", text, n, k)
		}
	})
}
