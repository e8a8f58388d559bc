package scenes_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
	"github.com/go-gl/mathgl/mgl64"
)

func TestParseObjectQuery(t *testing.T) {
	type q = scenes.ObjectQuery
	for _, c := range []struct {
		why, text string
		want      q
		ok        bool
	}{
		{"a class by a synonym", "Do we have a fridge?", q{Classes: []string{"refrigerator"}}, true},
		{"plural matches the singular", "Where are the chairs?", q{Classes: []string{"chair"}}, true},
		{"an irregular plural", "Any books on the shelves?", q{Classes: []string{"book"}, Relation: scenes.MapRelOn, Anchor: "shelf"}, true},
		{"the longest class phrase wins", "Is there a dining table?", q{Classes: []string{"dining table"}}, true},
		{"a word naming two classes", "Where is my bag?", q{Classes: []string{"backpack", "handbag"}}, true},
		{"relation with an anchor", "A mug next to the sink", q{Classes: []string{"cup"}, Relation: scenes.MapRelNear, Anchor: "sink"}, true},
		{"a participle before the relation is the relation's, not sit's", "The laptop sitting on the desk", q{Classes: []string{"laptop"}, Relation: scenes.MapRelOn, Anchor: "desk"}, true},
		{"'on' followed by no class is not a relation", "What can I sit on?", q{Affordance: scenes.AffordSit}, true},
		{"the affordance's name in an inflection", "I need somewhere for sleeping", q{Affordance: scenes.AffordLie}, true},
		{"a verb before a noun: 'my drinks' is what gets cooled", "I want to chill my drinks", q{Affordance: scenes.AffordCool}, true},
		{"a noun when no verb names an affordance", "Is there a seat?", q{Affordance: scenes.AffordSit}, true},
		{"'a place' is a noun, 'to nap' the activity", "A place to nap", q{Affordance: scenes.AffordLie}, true},
		{"a class narrows an affordance", "Find a sofa to sit on", q{Classes: []string{"couch"}, Affordance: scenes.AffordSit}, true},
		{"a class that does not serve the affordance was phrasing", "Where can I chill a bottle of juice?", q{Affordance: scenes.AffordCool}, true},
		{"contraction and two excluded classes", "Storage that isn't a backpack or a purse", q{Affordance: scenes.AffordStore, Exclude: []string{"backpack", "handbag"}}, true},
		{"an excluded affordance", "Somewhere to pour water that doesn't close", q{Affordance: scenes.AffordPour, ExcludeAffordance: scenes.AffordOpen}, true},
		{"a negated relation", "A seat that is not near the TV", q{Affordance: scenes.AffordSit, Relation: scenes.MapRelFar, Anchor: "tv"}, true},
		{"'apart from' negates", "Something to heat food with, apart from the oven", q{Affordance: scenes.AffordHeat, Exclude: []string{"oven"}}, true},
		{"can't is can not, not ca", "Something I can sit on that can't be opened", q{Affordance: scenes.AffordSit, ExcludeAffordance: scenes.AffordOpen}, true},
		{"'close' inside 'closet'-like words does not trigger", "Where is the toaster?", q{Classes: []string{"toaster"}}, true},
		{"a negated opposite is the affordance", "Something that is not at room temperature", q{Affordance: scenes.AffordTemperature}, true},
		{"an unnegated opposite asks for a complement no query can say", "Something at room temperature", q{}, false},
		{"a negated affordance leaves nothing wanted", "Something that is not hot", q{}, false},
		{"nothing wanted", "Hello there, robot", q{}, false},
		{"empty text", "", q{}, false},
	} {
		got, ok := scenes.ParseObjectQuery(c.text)
		if ok != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: ParseObjectQuery(%q) = %v, %v; want %v, %v", c.why, c.text, got, ok, c.want, c.ok)
		}
	}
}

func box(id, class string, x, y, z, sx, sy, sz float64) scenes.Instance {
	return scenes.Instance{ID: id, Center: mgl64.Vec3{x, y, z}, Size: mgl64.Vec3{sx, sy, sz},
		Classes: []scenes.ClassScore{{Class: class, P: 1}}}
}

func TestResolveObjects(t *testing.T) {
	m := &scenes.SemanticMap{Instances: []scenes.Instance{
		box("obj1", "dining table", 0, 0, 0.375, 1.6, 0.9, 0.75),
		box("obj2", "book", 0.2, 0.1, 0.77, 0.2, 0.15, 0.04),                         // on the table
		box("obj3", "book", 3, 3, 0.02, 0.2, 0.15, 0.04),                             // on the floor, far away
		box("obj4", "chair", 0.8, 0.6, 0.45, 0.5, 0.5, 0.9),                          // near the table and obj2
		box("obj5", "couch", 5, 5, 0.42, 2, 0.9, 0.85),                               // far from everything
		box("obj6", "bed", 0.5, 1.0, 0.27, 2, 1.6, 0.55),                             // sit fit 0.6, near obj2
		box("obj7", "tv", 5, 6, 1.0, 1.1, 0.1, 0.65),                                 // near the couch
		{ID: "obj8", Classes: []scenes.ClassScore{{"couch", 0.55}, {"chair", 0.45}}}, // at the origin
	}}
	type q = scenes.ObjectQuery
	for _, c := range []struct {
		why  string
		q    q
		want []string
	}{
		{"on: only the book resting on the table", q{Classes: []string{"book"}, Relation: scenes.MapRelOn, Anchor: "dining table"}, []string{"obj2"}},
		{"affordance ranks by fit, then map order", q{Affordance: scenes.AffordSit}, []string{"obj4", "obj5", "obj8", "obj6"}},
		{"near ranks by distance to the nearest anchor", q{Affordance: scenes.AffordSit, Relation: scenes.MapRelNear, Anchor: "book"}, []string{"obj8", "obj4", "obj6"}},
		{"far keeps only what no anchor is near, farthest first", q{Affordance: scenes.AffordSit, Relation: scenes.MapRelFar, Anchor: "tv"}, []string{"obj8", "obj4", "obj6"}},
		{"exclusion", q{Affordance: scenes.AffordSit, Exclude: []string{"couch"}}, []string{"obj4", "obj6"}},
		{"a missing anchor gives an empty answer", q{Classes: []string{"book"}, Relation: scenes.MapRelNear, Anchor: "oven"}, []string{}},
		{"no class in the map", q{Classes: []string{"bicycle"}}, []string{}},
		{"nothing asked", q{}, []string{}},
	} {
		if got := scenes.ResolveObjects(m, c.q); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: ResolveObjects(%v) = %v, want %v", c.why, c.q, got, c.want)
		}
	}
	// With MinP the 0.45 chair reading of obj8 counts too, and it ranks by
	// its weight below the sure chair.
	got := scenes.ResolveObjectsWith(m, q{Classes: []string{"chair"}}, scenes.ResolveOptions{MinP: 0.3})
	if want := []string{"obj4", "obj8"}; !reflect.DeepEqual(got, want) {
		t.Errorf("MinP 0.3: %v, want %v", got, want)
	}
}

// FuzzParseObjectQuery checks that ParseObjectQuery never panics and that
// what it reads names only known classes and affordances.
func FuzzParseObjectQuery(f *testing.F) {
	for _, s := range []string{
		"Is there a microwave that is close to an oven?", "Tell me something I can sit on that is not a couch",
		"Something that is not at room temperature", "not not not", "on on the on", "isn't'''", "Где стул?",
		"Somewhere to sit that is not near the TV", "Find the bag on top of the bed except the sofa",
	} {
		f.Add(s)
	}
	known := map[string]bool{"": true}
	for _, a := range scenes.Affordances() {
		known[a.Name] = true
	}
	f.Fuzz(func(t *testing.T, text string) {
		q, ok := scenes.ParseObjectQuery(text)
		if !ok {
			if !reflect.DeepEqual(q, scenes.ObjectQuery{}) {
				t.Fatalf("not ok but %v", q)
			}
			return
		}
		if len(q.Classes) == 0 && q.Affordance == "" {
			t.Fatalf("ok with nothing wanted: %v", q)
		}
		for _, c := range append(append(slices.Clone(q.Classes), q.Exclude...), q.Anchor) {
			if c != "" && !scenes.IsMapClass(c) {
				t.Fatalf("unknown class %q in %v", c, q)
			}
		}
		if !known[q.Affordance] || !known[q.ExcludeAffordance] {
			t.Fatalf("unknown affordance in %v", q)
		}
		if (q.Relation == "") != (q.Anchor == "") {
			t.Fatalf("relation without anchor or the reverse: %v", q)
		}
	})
}

// The vocabulary is single activity words, matched in any inflection
// (inflections builds the forms of one word), and no affordance word is a
// class word, which the class would shadow.
func TestVocabularyWords(t *testing.T) {
	classWords := map[string]bool{}
	for _, c := range scenes.MapClasses() {
		if c.Words[0] != c.Name {
			t.Errorf("class %s: its first word is %q, not its name", c.Name, c.Words[0])
		}
		for _, w := range c.Words {
			classWords[w] = true
		}
	}
	for _, a := range scenes.Affordances() {
		for _, w := range append([]string{a.Name}, a.Words...) {
			if strings.ToLower(w) != w || len(strings.Fields(w)) != 1 {
				t.Errorf("affordance %s: %q is not one lower-case word", a.Name, w)
			}
			if classWords[w] {
				t.Errorf("affordance %s: %q is a class word too", a.Name, w)
			}
		}
	}
}

// The reading the rules agent and the simulated model make of a query's
// text: parsed, then resolved over the map from each object's most
// probable class, or, hedging as the uncertainty input allows, from any
// class it gives probability at least MinP.
func TestParseThenResolve(t *testing.T) {
	m := &scenes.SemanticMap{Instances: []scenes.Instance{
		{ID: "obj1", Center: mgl64.Vec3{0, 0, 0.4}, Classes: []scenes.ClassScore{{Class: "couch", P: 0.6}, {Class: "chair", P: 0.4}}},
		{ID: "obj2", Center: mgl64.Vec3{1, 0, 0.4}, Classes: []scenes.ClassScore{{Class: "chair", P: 1}}},
	}}
	for _, c := range []struct {
		why, text string
		want      []string
		ok        bool
	}{
		{"the detector's best class decides: obj1 reads as a couch", "Tell me something I can sit on that is not a couch", []string{"obj2"}, true},
		{"an empty answer is [] not nil", "Is there a bicycle?", []string{}, true},
		{"unreadable text names nothing, and nothing serves it", "hello", []string{}, false},
	} {
		req, ok := scenes.ParseObjectQuery(c.text)
		if got := scenes.ResolveObjects(m, req); ok != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %q reads %v (%v) and resolves to %v; want %v, %v", c.why, c.text, req, ok, got, c.want, c.ok)
		}
	}
	// Hedging over the distribution finds the chair reading of obj1.
	req, _ := scenes.ParseObjectQuery("Where is a chair?")
	if got := scenes.ResolveObjectsWith(m, req, scenes.ResolveOptions{MinP: 0.3}); !reflect.DeepEqual(got, []string{"obj2", "obj1"}) {
		t.Errorf("ResolveObjectsWith MinP 0.3 = %v, want [obj2 obj1]", got)
	}
}
