package mapqueries_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/tasks/mapqueries"
)

// queries.yaml is read as YAML, by a YAML module: the forms a person
// writes it in (folded, literal and multi-line quoted texts, flow
// mappings, anchors) read as they would anywhere, and what the loader
// cannot use is refused naming the file and line.
func TestParseQueriesIsYAML(t *testing.T) {
	for _, c := range []struct {
		why, data string
		want      []mapqueries.Query
	}{
		{"a folded block", "queries:\n  q1: >\n    Is there\n    a chair?\n", []mapqueries.Query{{ID: "q1", Text: "Is there a chair?\n", Type: mapqueries.TypeDescriptive}}},
		{"a quoted text over two lines", "queries:\n  q1: \"Is there\n    a chair?\"\n", []mapqueries.Query{{ID: "q1", Text: "Is there a chair?", Type: mapqueries.TypeDescriptive}}},
		{"flow mappings", "queries: {q1: 'a cup', q2: \"a bed\"}\ntypes: {q2: negation}\n", []mapqueries.Query{{ID: "q1", Text: "a cup", Type: mapqueries.TypeDescriptive}, {ID: "q2", Text: "a bed", Type: mapqueries.TypeNegation}}},
		{"an anchor", "queries:\n  q1: &cup a cup\n  q2: *cup\n", []mapqueries.Query{{ID: "q1", Text: "a cup", Type: mapqueries.TypeDescriptive}, {ID: "q2", Text: "a cup", Type: mapqueries.TypeDescriptive}}},
		{"a number is its text", "queries:\n  q1: 42\n", []mapqueries.Query{{ID: "q1", Text: "42", Type: mapqueries.TypeDescriptive}}},
		{"a document marker and an escape", "---\nqueries:\n  q1: \"caf\\xe9\"\n", []mapqueries.Query{{ID: "q1", Text: "café", Type: mapqueries.TypeDescriptive}}},
	} {
		qs, err := mapqueries.ParseQueries([]byte(c.data), "queries.yaml")
		if err != nil || !reflect.DeepEqual(qs, c.want) {
			t.Errorf("%s: got %+v, %v\nwant %+v", c.why, qs, err, c.want)
		}
	}
	for _, c := range []struct{ why, data, want string }{
		{"a second document", "queries:\n  q1: x\n---\nqueries:\n  q2: y\n", "queries.yaml:3: a second YAML document; the file holds one"},
		{"a list of sections", "- queries\n", `queries.yaml:1: want sections (queries:, …), got a list`},
		{"a section twice", "queries:\n  q1: x\nqueries:\n  q2: y\n", `queries.yaml:3: section "queries" appears twice`},
		{"a mapping for a text", "queries:\n  q1:\n    text: x\n", `queries.yaml:3: key "q1": want text, got a mapping; quote the text`},
		{"a list for a key", "queries:\n  ? [a]\n  : x\n", `queries.yaml:2: an entry of section "queries" keyed by a list; want an id`},
		{"null is no text", "queries:\n  q1: ~\n", `queries.yaml:2: key "q1" has no value; want key: "text"`},
		{"a fault deep in the file names its line", "queries:\n  q1: a\n  q2: b\n  q3: c\n  q4: \"d\" e\n", "queries.yaml:5: did not find expected key"},
		{"invalid UTF-8", "queries:\n  q1: \xff\n", "queries.yaml:"},
	} {
		_, err := mapqueries.ParseQueries([]byte(c.data), "queries.yaml")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %s", c.why, err, c.want)
		}
	}
}
