package mapqueries_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks/mapqueries"
)

func TestParseIntent(t *testing.T) {
	type q = scenes.ObjectQuery
	for _, c := range []struct {
		why, s string
		want   q
		err    string
	}{
		{"a class", "classes=refrigerator", q{Classes: []string{"refrigerator"}}, ""},
		{"a class of two words, spaces around the parts", " classes = dining table ;near=tv", q{Classes: []string{"dining table"}, Relation: scenes.MapRelNear, Anchor: "tv"}, ""},
		{"lists join by |", "affordance=store; exclude=backpack|handbag", q{Affordance: scenes.AffordStore, Exclude: []string{"backpack", "handbag"}}, ""},
		{"far is the negated near", "affordance=sit; far=tv", q{Affordance: scenes.AffordSit, Relation: scenes.MapRelFar, Anchor: "tv"}, ""},
		{"an excluded affordance", "affordance=pour; exclude_affordance=open", q{Affordance: scenes.AffordPour, ExcludeAffordance: scenes.AffordOpen}, ""},
		{"a typo in a class would make the truth empty unseen", "classes=fridge", q{}, "not a class"},
		{"an unknown affordance", "affordance=fly", q{}, "not an affordance"},
		{"two relations cannot both hold in an ObjectQuery", "classes=cup; near=sink; on=desk", q{}, "two relations"},
		{"a key twice", "classes=cup; classes=bowl", q{}, "twice"},
		{"nothing wanted", "exclude=cup", q{}, "wants nothing"},
		{"not key=value", "classes", q{}, "want key=value"},
		{"an unknown key", "colour=red", q{}, "unknown key"},
	} {
		got, err := mapqueries.ParseIntent(c.s)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: ParseIntent(%q) error %v, want one containing %q", c.why, c.s, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: ParseIntent(%q) = %v, %v; want %v", c.why, c.s, got, err, c.want)
		}
	}
}

func TestParseIntentQueries(t *testing.T) {
	const ok = "queries:\n  q1: \"Where is the bed?\"\nintents:\n  q1: \"classes=bed\"\n"
	qs, err := mapqueries.ParseIntentQueries([]byte(ok), "w.yaml")
	if err != nil || len(qs) != 1 || qs[0].Text != "Where is the bed?" || qs[0].Intent.Classes[0] != "bed" {
		t.Fatalf("got %+v, %v", qs, err)
	}
	for _, c := range []struct{ why, data, want string }{
		{"every query needs its intent", "queries:\n  q1: a bed\n  q2: a cup\nintents:\n  q1: classes=bed\n", `"q2" has no intent`},
		{"an intent of no query", "queries:\n  q1: a bed\nintents:\n  q1: classes=bed\n  q9: classes=cup\n", `"q9" is not a query`},
		{"the section is required", "queries:\n  q1: a bed\n", "no intents: section"},
		{"a bad intent names its line", "queries:\n  q1: a bed\nintents:\n  q1: classes=beds\n", "w.yaml:4:"},
		{"other sections are still refused", "queries:\n  q1: a bed\nintents:\n  q1: classes=bed\nnotes:\n  q1: x\n", "unknown section"},
	} {
		if _, err := mapqueries.ParseIntentQueries([]byte(c.data), "w.yaml"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.why, err, c.want)
		}
	}
}

// formatIntent writes q in ParseIntent's syntax.
func formatIntent(q scenes.ObjectQuery) string { return strings.Join(q.Fields(), "; ") }

// FuzzParseIntent checks that ParseIntent never panics, that what it
// accepts wants something, and that it reads its own canonical form back
// to the same reading.
func FuzzParseIntent(f *testing.F) {
	for _, s := range []string{"classes=bed", "affordance=sit; exclude=couch|bed", "classes=cup; near=sink", "affordance=pour; exclude_affordance=open",
		";;", "=", "classes=|", "far=tv; near=tv", "classes=dining table; on=shelf"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := mapqueries.ParseIntent(s)
		if err != nil {
			return
		}
		if len(q.Classes) == 0 && q.Affordance == "" {
			t.Fatalf("accepted %q wanting nothing", s)
		}
		back, err := mapqueries.ParseIntent(formatIntent(q))
		if err != nil || !reflect.DeepEqual(back, q) {
			t.Fatalf("%q reads as %v; its canonical form %q reads as %v, %v", s, q, formatIntent(q), back, err)
		}
	})
}
