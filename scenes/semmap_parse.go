package scenes

import (
	"slices"
	"strings"
)

// ParseObjectQuery reads an English object-centred query into an
// ObjectQuery. Its vocabulary is the class and affordance tables (the
// class names and synonyms, the affordance names and their words, in any
// inflection) and a small grammar of its own, not the wording of any
// dataset's queries:
//
//   - a negation marker ("not", "n't", "except", "other than", …) splits
//     the query; what follows names excluded classes, an excluded
//     affordance ("… that does not open"), or a relation that must not
//     hold ("not near the TV" is far from it);
//   - a relation marker followed by a class names the anchor ("next to a
//     sink", "on top of the desk"); a participle just before it belongs
//     to the relation ("the laptop lying on the bed"), not to an
//     affordance;
//   - an affordance word names the affordance, one used as a verb before
//     one used as a noun (after a determiner: "keep my drinks cold" is
//     about cooling), the first mentioned among equals;
//   - a negated opposite of an affordance asks for it ("not at room
//     temperature" is hot or cold);
//   - the class words name the wanted classes; a class that does not
//     serve the affordance was a word of the phrasing ("chill a bottle
//     of juice" wants what cools).
//
// It reports false when it finds nothing wanted. The parse is a keyword
// reading, not understanding: it is the rules agent's and the simulated
// model's reading of a query.
func ParseObjectQuery(text string) (ObjectQuery, bool) {
	var q ObjectQuery
	toks := queryTokens(text)

	pos, neg := toks, []string(nil)
	if i, n := findNegation(toks); i >= 0 {
		pos, neg = toks[:i], toks[i+n:]
	}
	if len(neg) > 0 {
		if a, span, ok := findOpposite(neg); ok {
			// Not the opposite of serving it is serving it.
			q.Affordance = a
			neg = slices.Concat(neg[:span[0]], neg[span[1]:])
		}
		if rel, anchor, _, ok := findRelation(neg); ok && rel == MapRelNear {
			q.Relation, q.Anchor = MapRelFar, anchor
		} else if cs := findClasses(neg); len(cs) > 0 {
			q.Exclude = cs
		} else if a, _ := findAffordance(neg); a != "" {
			q.ExcludeAffordance = a
		}
	}
	if rel, anchor, span, ok := findRelation(pos); ok {
		if q.Relation == "" {
			q.Relation, q.Anchor = rel, anchor
		}
		pos = slices.Concat(pos[:span[0]], pos[span[1]:])
	}
	if _, span, ok := findOpposite(pos); ok {
		// Unnegated, an opposite asks for what does not serve the
		// affordance; no ObjectQuery says that, and its words name
		// neither the affordance nor a class.
		pos = slices.Concat(pos[:span[0]], pos[span[1]:])
	}
	if q.Affordance == "" {
		var at int
		if q.Affordance, at = findAffordance(pos); q.Affordance != "" {
			pos = slices.Delete(slices.Clone(pos), at, at+1)
		}
	}
	q.Classes = findClasses(pos)
	if q.Affordance != "" && len(q.Classes) > 0 {
		q.Classes = slices.DeleteFunc(q.Classes, func(c string) bool { return AffordanceFit(q.Affordance, c) == 0 })
		if len(q.Classes) == 0 {
			q.Classes = nil // the affordance alone, as if no class were named
		}
	}
	if len(q.Classes) == 0 && q.Affordance == "" {
		return ObjectQuery{}, false
	}
	return q, true
}

// contractions expands the negated ones; "can't" and "won't" match before
// the general n't (a replacer matches leftmost first), which would leave
// "ca" and "wo".
var contractions = strings.NewReplacer(
	"can't", "can not", "won't", "will not", "cannot", "can not", "n't", " not",
	"'s", "", "'", " ",
)

// queryTokens lower-cases text, expands contractions and splits it into
// words, punctuation dropped.
func queryTokens(text string) []string {
	s := strings.ToLower(text)
	s = strings.ReplaceAll(s, "’", "'")
	s = contractions.Replace(s)
	return strings.FieldsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
}

// The grammar: negation and relation markers, and the determiners that
// make the word after them a noun. They are English, not a dataset's.
var (
	negations = [][]string{
		{"other", "than"}, {"apart", "from"}, {"aside", "from"}, {"instead", "of"}, {"rather", "than"},
		{"except"}, {"excluding"}, {"not"},
	}
	relations = []struct {
		words []string
		rel   string
	}{
		{[]string{"on", "top", "of"}, MapRelOn},
		{[]string{"close", "to"}, MapRelNear},
		{[]string{"next", "to"}, MapRelNear},
		{[]string{"near"}, MapRelNear},
		{[]string{"nearby"}, MapRelNear},
		{[]string{"beside"}, MapRelNear},
		{[]string{"by"}, MapRelNear},
		{[]string{"away", "from"}, MapRelFar},
		{[]string{"far", "from"}, MapRelFar},
		{[]string{"on"}, MapRelOn},
		{[]string{"upon"}, MapRelOn},
	}
	determiners = []string{"a", "an", "the", "some", "any", "my", "your", "our", "his", "her", "their", "this", "these", "those"}
)

// irregular are the verb forms no suffix rule makes, for the verbs of the
// affordance table.
var irregular = map[string][]string{
	"sit": {"sat"}, "lie": {"lay", "lain"}, "sleep": {"slept"}, "eat": {"ate", "eaten"},
	"write": {"wrote", "written"}, "drink": {"drank", "drunk"}, "stand": {"stood"},
	"light": {"lit"}, "freeze": {"froze", "frozen"}, "shelf": {"shelves"},
}

// inflections are the forms of a word a query may use: plural and third
// person, past, participles, by English's suffix rules (e dropped before
// -ing, y to -ies/-ied, -ie to -ying, a final consonant doubled after a
// short vowel: sitting, napped), and the irregular forms. Overgenerating
// a form no one writes costs nothing.
func inflections(w string) []string {
	out := append([]string{w, w + "s", w + "es", w + "ed", w + "ing"}, irregular[w]...)
	n := len(w)
	if n < 2 {
		return out
	}
	last, prev := w[n-1], w[n-2]
	vowel := func(c byte) bool { return strings.IndexByte("aeiou", c) >= 0 }
	switch {
	case strings.HasSuffix(w, "ie"):
		out = append(out, w[:n-2]+"ying", w+"d")
	case last == 'e':
		out = append(out, w[:n-1]+"ing", w+"d")
	case last == 'y' && !vowel(prev):
		out = append(out, w[:n-1]+"ies", w[:n-1]+"ied")
	case last == 'f':
		out = append(out, w[:n-1]+"ves")
	case !vowel(last) && vowel(prev) && (n < 3 || !vowel(w[n-3])) && !strings.ContainsRune("wxy", rune(last)):
		out = append(out, w+string(last)+"ing", w+string(last)+"ed")
	}
	return out
}

// vocabulary maps every form of a class word's last word, and of an
// affordance word, to what it names: built once from the tables.
type vocabulary struct {
	// classes[first word] lists the class words starting with that form
	// of their first word (most are one word).
	classes map[string][]classWord
	// affords[form] is the affordance a word form names.
	affords map[string]string
}

type classWord struct {
	words []string // the phrase, its last word in some form
	class string
}

var vocab = buildVocabulary()

func buildVocabulary() vocabulary {
	v := vocabulary{classes: map[string][]classWord{}, affords: map[string]string{}}
	for _, c := range mapClasses {
		for _, w := range c.Words {
			ws := strings.Fields(w)
			for _, form := range inflections(ws[len(ws)-1]) {
				phrase := append(slices.Clone(ws[:len(ws)-1]), form)
				v.classes[phrase[0]] = append(v.classes[phrase[0]], classWord{phrase, c.Name})
			}
		}
	}
	for _, a := range affordances {
		for _, w := range append([]string{a.Name}, a.Words...) {
			for _, form := range inflections(w) {
				if _, dup := v.affords[form]; !dup { // the table's order breaks a tie
					v.affords[form] = a.Name
				}
			}
		}
	}
	return v
}

// findOpposite finds an affordance's opposite (see opposites) and its
// span.
func findOpposite(toks []string) (string, [2]int, bool) {
	for _, a := range affordances {
		for _, o := range opposites[a.Name] {
			ws := strings.Fields(o)
			for i := 0; i+len(ws) <= len(toks); i++ {
				if slices.Equal(toks[i:i+len(ws)], ws) {
					return a.Name, [2]int{i, i + len(ws)}, true
				}
			}
		}
	}
	return "", [2]int{}, false
}

// findNegation returns the leftmost negation marker and its length.
func findNegation(toks []string) (int, int) {
	for i := range toks {
		for _, n := range negations {
			if i+len(n) <= len(toks) && slices.Equal(toks[i:i+len(n)], n) {
				return i, len(n)
			}
		}
	}
	return -1, 0
}

// findRelation finds a relation marker followed (after a determiner) by a
// class phrase, and returns the relation, the anchor class and the span
// of marker and anchor, with a participle just before the marker ("lying
// on the bed").
func findRelation(toks []string) (string, string, [2]int, bool) {
	for i := range toks {
		for _, r := range relations {
			if i+len(r.words) > len(toks) || !slices.Equal(toks[i:i+len(r.words)], r.words) {
				continue
			}
			j := i + len(r.words)
			if j < len(toks) && slices.Contains(determiners, toks[j]) {
				j++
			}
			cs, n := classAt(toks, j)
			if n == 0 {
				continue
			}
			start := i
			if i > 0 && (strings.HasSuffix(toks[i-1], "ing") || strings.HasSuffix(toks[i-1], "ed")) {
				start--
			}
			return r.rel, cs[0], [2]int{start, j + n}, true
		}
	}
	return "", "", [2]int{}, false
}

// classAt matches the longest class phrase starting at toks[i] and returns
// the classes it names and its length in words.
func classAt(toks []string, i int) ([]string, int) {
	if i >= len(toks) {
		return nil, 0
	}
	var best []string
	bestN := 0
	for _, cw := range vocab.classes[toks[i]] {
		n := len(cw.words)
		if n < bestN || i+n > len(toks) || !slices.Equal(toks[i:i+n], cw.words) {
			continue
		}
		if n > bestN {
			best, bestN = nil, n
		}
		if !slices.Contains(best, cw.class) {
			best = append(best, cw.class)
		}
	}
	return best, bestN
}

// findClasses returns every class named in toks, in order of mention.
func findClasses(toks []string) []string {
	var out []string
	for i := 0; i < len(toks); {
		cs, n := classAt(toks, i)
		if n == 0 {
			i++
			continue
		}
		for _, c := range cs {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
		i += n
	}
	return out
}

// findAffordance returns the affordance toks name and the index of the
// word that names it: the first word not after a determiner (a verb, or
// an adjective: "sit", "cold"), else the first after one (a noun: "a
// seat", "my lunch"). A word that is also a class word is the class.
func findAffordance(toks []string) (string, int) {
	noun, nounAt := "", -1
	for i, t := range toks {
		a, ok := vocab.affords[t]
		if !ok {
			continue
		}
		if _, n := classAt(toks, i); n > 0 {
			continue
		}
		if i > 0 && slices.Contains(determiners, toks[i-1]) {
			if nounAt < 0 {
				noun, nounAt = a, i
			}
			continue
		}
		return a, i
	}
	return noun, nounAt
}
