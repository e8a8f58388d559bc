package semmap

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	agsm "github.com/ambibench/ambibench/agents/semmap"
	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks/mapqueries"
)

// The worked examples of the semmap prompts must not give away a query
// the benchmark asks: no example's request may be a query of any dataset
// ambibench ships or generates, word for word, reworded, or read the same
// way. The queries checked are the generator's (tasks/mapqueries.Builtin,
// whose queries are its templates whatever the seed) and every query file
// under tasks/mapqueries/testdata (the golden dataset and the two wordings of
// the project's own intents, which are the same intents in other words).
//
// Three checks, each failing the test:
//
//   - word for word: the texts are equal once lower-cased, with
//     punctuation and runs of spaces dropped;
//   - by content words (contentWords): the two sets of content words are
//     equal, or their overlap (Jaccard: shared words over all the words
//     the two use) is at least maxContentOverlap;
//   - by reading: scenes.ParseObjectQuery reads the example as the query's
//     intent (its template's reading, or the intent a wording file gives,
//     or else the query's own parse), which is a rewording the words
//     alone miss ("a seat, but not the sofa" is "something I can sit on
//     that is not a couch").
//
// maxContentOverlap is 0.5: a pair that shares half of the content words
// the two use between them asks nearly the same thing ("is there a
// bicycle here" against "can you point me to the bicycle?" shares bicycle
// out of bicycle and point, 0.5, and fails); the examples as written
// share at most TestWorkedExamplesAreNotDatasetQueries's logged maximum
// (0.33).
const maxContentOverlap = 0.5

// stopWords are the words that carry no content of a request: articles,
// pronouns, auxiliaries, prepositions, question words, and the
// politeness and request verbs any query may open with.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the some any this that these those there here it its
		i me my mine we us our you your he him his she her they them their one
		is are was were be been being am do does did have has had will would can could should may might must shall
		to of in on at for with from by into onto about up down out off over under as than then so and or but if
		what which who whom whose where when why how
		please tell find give show get let help need want like looking look
		something somewhere anything anywhere thing things someone some
		just also too very really all each every other another same own
		not no nor`) {
		m[w] = true
	}
	return m
}()

// contentWords are a request's words that carry its content: lower-cased,
// contractions expanded, stop words dropped, "close to", "next to",
// "beside" and "nearby" written near, each word of the class and
// affordance tables replaced by the name of its class or affordance (in
// any of the simple inflections: "sofas" is couch, "napping" is lie),
// other words with a plural s dropped.
func contentWords(text string) []string {
	s := strings.ToLower(strings.ReplaceAll(text, "’", "'"))
	s = strings.NewReplacer("can't", "can not", "won't", "will not", "n't", " not", "'s", "", "'d", "", "'m", "", "'re", "", "'ll", "", "'ve", "").Replace(s)
	toks := strings.FieldsFunc(s, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
	var out []string
	for i := 0; i < len(toks); i++ {
		if i+1 < len(toks) && toks[i+1] == "to" && (toks[i] == "close" || toks[i] == "next") {
			out = append(out, "near") // a relation, not "close" the verb
			i++
			continue
		}
		if toks[i] == "beside" || toks[i] == "nearby" {
			out = append(out, "near")
			continue
		}
		if i+1 < len(toks) {
			if name, ok := vocabWords[toks[i]+" "+toks[i+1]]; ok {
				out = append(out, name)
				i++
				continue
			}
		}
		w := toks[i]
		if stopWords[w] {
			continue
		}
		if name, ok := vocabWords[w]; ok {
			out = append(out, name)
			continue
		}
		out = append(out, singular(w))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func singular(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return w[:len(w)-1]
	}
	return w
}

// vocabWords maps the class and affordance words, in simple inflections,
// to the class or affordance they name.
var vocabWords = func() map[string]string {
	m := map[string]string{}
	add := func(word, name string) {
		for _, f := range forms(word) {
			if _, taken := m[f]; !taken {
				m[f] = name
			}
		}
	}
	for _, c := range scenes.MapClasses() {
		for _, w := range c.Words {
			add(w, c.Name)
		}
	}
	for _, a := range scenes.Affordances() {
		add(a.Name, "afford:"+a.Name)
		for _, w := range a.Words {
			add(w, "afford:"+a.Name)
		}
	}
	return m
}()

// forms are a word's simple inflections (of its last word, for a phrase).
func forms(w string) []string {
	out := []string{w, w + "s", w + "es", w + "d", w + "ed", w + "ing"}
	switch n := len(w); {
	case strings.HasSuffix(w, "e"):
		out = append(out, w[:n-1]+"ing")
	case strings.HasSuffix(w, "y"):
		out = append(out, w[:n-1]+"ies", w[:n-1]+"ied")
	case n > 2 && strings.ContainsRune("aeiou", rune(w[n-2])) && !strings.ContainsRune("aeiouwxy", rune(w[n-1])):
		out = append(out, w+w[n-1:]+"ing", w+w[n-1:]+"ed")
	}
	return out
}

// overlap is the Jaccard overlap of two word sets.
func overlap(a, b []string) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	shared := 0
	for _, w := range a {
		if slices.Contains(b, w) {
			shared++
		}
	}
	return float64(shared) / float64(len(a)+len(b)-shared)
}

// verbatim is a text as the word-for-word check compares it.
func verbatim(text string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '\'')
	}), " ")
}

// shippedQuery is a query of a dataset ambibench ships or generates, with
// the reading its author meant (nil when none is known and the text does
// not parse).
type shippedQuery struct {
	source, text string
	intent       *scenes.ObjectQuery
}

func shippedQueries(t *testing.T) []shippedQuery {
	t.Helper()
	var out []shippedQuery
	for _, tp := range mapqueries.Templates() {
		out = append(out, shippedQuery{"the built-in dataset's " + tp.ID, tp.Text, &tp.Request})
	}
	for _, q := range mapqueries.Builtin(2).Queries {
		// Builtin's queries are the templates whatever the seed: checked
		// here, so that a generator that made more would be too.
		if !slices.ContainsFunc(out, func(s shippedQuery) bool { return s.text == q.Text }) {
			r, ok := scenes.ParseObjectQuery(q.Text)
			out = append(out, shippedQuery{"the generated dataset's " + q.ID, q.Text, ptrIf(r, ok)})
		}
	}
	root := filepath.Join("..", "..", "tasks", "mapqueries", "testdata")
	files := 0
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || filepath.Ext(path) != ".yaml" {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		if iqs, err := mapqueries.ParseIntentQueries(data, path); err == nil {
			for _, q := range iqs {
				out = append(out, shippedQuery{path + " " + q.ID, q.Text, &q.Intent})
			}
			return nil
		}
		qs, err := mapqueries.ParseQueries(data, path)
		if err != nil {
			return fmt.Errorf("%s is neither a query set with intents nor a queries file: %w", path, err)
		}
		for _, q := range qs {
			r, ok := scenes.ParseObjectQuery(q.Text)
			out = append(out, shippedQuery{path + " " + q.ID, q.Text, ptrIf(r, ok)})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 3 {
		t.Fatalf("found %d query files under %s; want the golden dataset's and the two wordings", files, root)
	}
	return out
}

func ptrIf(q scenes.ObjectQuery, ok bool) *scenes.ObjectQuery {
	if !ok {
		return nil
	}
	return &q
}

func TestWorkedExamplesAreNotDatasetQueries(t *testing.T) {
	t.Parallel()
	// agents/semmap's TestExampleRequestsAreThePrompts holds these to the
	// examples every prompt (plan, reflect, refine, and the multi-agent
	// variants) shows.
	examples := agsm.ExampleRequests()
	if len(examples) == 0 {
		t.Fatal("no worked examples")
	}
	shipped := shippedQueries(t)
	worst, worstPair := 0.0, ""
	for _, ex := range examples {
		cw := contentWords(ex)
		if len(cw) == 0 {
			t.Errorf("example %q has no content words", ex)
		}
		reading, parsed := scenes.ParseObjectQuery(ex)
		for _, q := range shipped {
			where := fmt.Sprintf("example %q and %s %q", ex, q.source, q.text)
			if verbatim(ex) == verbatim(q.text) {
				t.Errorf("%s are the same words", where)
				continue
			}
			qw := contentWords(q.text)
			if o := overlap(cw, qw); slices.Equal(cw, qw) || o >= maxContentOverlap {
				t.Errorf("%s share the content words %v and %v (overlap %.2f, at most %.2f allowed)", where, cw, qw, o, maxContentOverlap)
			} else if o > worst {
				worst, worstPair = o, fmt.Sprintf("%v and %v", cw, qw)
			}
			if parsed && q.intent != nil && sameReading(reading, *q.intent) {
				t.Errorf("%s read the same: %v", where, reading)
			}
		}
	}
	t.Logf("%d example requests against %d shipped queries; the largest content-word overlap is %.2f (%s)", len(examples), len(shipped), worst, worstPair)
}

// sameReading compares two readings, lists as sets.
func sameReading(a, b scenes.ObjectQuery) bool {
	sorted := func(s []string) []string { return slices.Sorted(slices.Values(s)) }
	return slices.Equal(sorted(a.Classes), sorted(b.Classes)) && a.Affordance == b.Affordance &&
		slices.Equal(sorted(a.Exclude), sorted(b.Exclude)) && a.ExcludeAffordance == b.ExcludeAffordance &&
		a.Relation == b.Relation && a.Anchor == b.Anchor
}

// The checks catch what they are for: the example the prompts once
// carried (query_23 word for word), its rewording in the reflection
// examples (the same reading), and a close paraphrase (content words).
func TestWorkedExampleChecksBite(t *testing.T) {
	q23 := "Tell me something I can sit on that is not a couch"
	if verbatim("Tell me something I can sit on that is not a couch.") != verbatim(q23) {
		t.Error("the word-for-word check misses the old first example")
	}
	old, _ := scenes.ParseObjectQuery("Find me a seat, but not the sofa.")
	want := scenes.ObjectQuery{Affordance: scenes.AffordSit, Exclude: []string{"couch"}}
	if !sameReading(old, want) {
		t.Errorf("the old reflection example reads %v, not query_23's %v: the reading check would miss it", old, want)
	}
	for _, c := range []struct{ a, b string }{
		{"Is there a bicycle here?", "Can you point me to the bicycle?"},
		{"Give me something to read", "Give me something to read."},
		{"Somewhere to sit that is not near the dining table", "Somewhere to sit that is not near the TV"},
	} {
		if o := overlap(contentWords(c.a), contentWords(c.b)); o < maxContentOverlap {
			t.Errorf("%q and %q overlap %.2f (%v, %v): the content-word check misses them", c.a, c.b, o, contentWords(c.a), contentWords(c.b))
		}
	}
	if _, err := os.Stat(filepath.Join("..", "..", "tasks", "mapqueries", "testdata", "wording")); errors.Is(err, fs.ErrNotExist) {
		t.Error("the wordings moved: shippedQueries must find them")
	}
}
