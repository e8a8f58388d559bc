package mapqueries

import (
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

// FuzzParseResponses feeds the responses reader arbitrary files: it never
// panics, every error names the file, and what it accepts answers every
// query with distinct ids of the map.
func FuzzParseResponses(f *testing.F) {
	for _, s := range []string{`{"responses": {"q1": ["obj1"], "q2": []}}`, `{"responses": {"q1": ["obj7"], "q2": []}}`,
		`{"responses": {"q1": ["obj1", "obj1"], "q2": []}}`, `{"responses": {"q1": ["\u006fbj1"], "q2": []}}`, `{}`, `[]`, ``} {
		f.Add(s)
	}
	qs := []Query{{ID: "q1", Text: "a chair", Type: TypeDescriptive}, {ID: "q2", Text: "a couch", Type: TypeDescriptive}}
	ids := map[string]bool{"obj1": true, "obj2": true}
	f.Fuzz(func(t *testing.T, data string) {
		truth, err := ParseResponses([]byte(data), "r.json", qs, ids)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "r.json") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		for _, q := range qs {
			seen := map[string]bool{}
			for _, id := range truth[q.ID] {
				if !ids[id] || seen[id] {
					t.Fatalf("%q: accepted %q for %s", data, id, q.ID)
				}
				seen[id] = true
			}
		}
	})
}

// FuzzCheckMap feeds a map file through the decoder and checkMap: no
// panic, every error names the file, and a map accepted has an instance,
// each with the evidence for a class or results that are not an empty
// object.
func FuzzCheckMap(f *testing.F) {
	for _, s := range []string{`{"instances": {}}`, `{"instances": {"o": {"bbox": {"center": [0,0,0], "size": [1,1,1]}, "n_observations": 1, "results": {}}}}`,
		`{"instances": {"o": {"bbox": {"center": [0,0,0], "size": [1,1,1]}, "n_observations": 1, "results": {"chair": 1}}}}`,
		`{"instances": {"o": {"bbox": {"center": [0,0,0], "size": [1,1,1]}, "n_observations": 1, "results": {"chair": 0}}}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, all, err := loadMap([]byte(src), "m.json", scenes.VoxelandOptions{KeepUnknown: true})
		if err != nil {
			return
		}
		err = checkMap([]byte(src), "m.json", all)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "m.json:") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if len(m.Instances) == 0 {
			t.Fatalf("%q: a map of no instance accepted", src)
		}
	})
}
