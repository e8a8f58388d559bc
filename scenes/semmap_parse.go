package scenes

import (
	"slices"
	"strings"
)

// ParseObjectQuery reads an English object-centred query into an
// ObjectQuery. It understands the built-in dataset's templates and many
// plain variants of them:
//
//   - a negation splits the query ("… that is not a couch", "… other than
//     the table", "… but isn't the TV", "… that doesn't close"): what
//     follows names excluded classes, an excluded affordance, or a
//     relation that must not hold ("that is not near the TV");
//   - a relation marker followed by a class names the anchor ("close to an
//     oven", "on the table", "near a book");
//   - the rest names an affordance by one of its phrases (longest wins)
//     and/or the wanted classes.
//
// It reports false when it finds nothing wanted. The parse is a keyword
// reading, not understanding: it is the rules agent's and the simulated
// model's reading of a query, and the dataset's queries are written so
// that it reads them right.
func ParseObjectQuery(text string) (ObjectQuery, bool) {
	var q ObjectQuery
	toks := queryTokens(text)

	// Affordance phrases containing "not" go first, before the negation
	// split would cut them in two.
	for _, a := range affordances {
		for _, p := range a.Phrases {
			pw := strings.Fields(p)
			if !slices.Contains(pw, "not") {
				continue
			}
			if i := findWords(toks, pw); i >= 0 {
				q.Affordance = a.Name
				toks = slices.Delete(slices.Clone(toks), i, i+len(pw))
			}
		}
	}

	pos, neg := toks, []string(nil)
	if i, n := findNegation(toks); i >= 0 {
		pos, neg = toks[:i], toks[i+n:]
	}
	if len(neg) > 0 {
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
	if q.Affordance == "" {
		var span [2]int
		if q.Affordance, span = findAffordance(pos); q.Affordance != "" {
			pos = slices.Concat(pos[:span[0]], pos[span[1]:])
		}
	}
	q.Classes = findClasses(pos)
	if q.Affordance != "" && len(q.Classes) > 0 {
		// "Find a sofa to sit on": the classes narrow the affordance; a
		// class that does not serve it was a word of the phrasing.
		q.Classes = slices.DeleteFunc(q.Classes, func(c string) bool { return AffordanceFit(q.Affordance, c) == 0 })
	}
	if len(q.Classes) == 0 && q.Affordance == "" {
		return ObjectQuery{}, false
	}
	return q, true
}

var contractions = strings.NewReplacer(
	"isn't", "is not", "aren't", "are not", "doesn't", "does not",
	"don't", "do not", "won't", "will not", "i'm", "i am", "can't", "can not",
	"cannot", "can not", "'s", "", "'", " ",
	"’", "'",
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

// wordMatches lets a query's plural match a singular phrase word.
func wordMatches(tok, w string) bool {
	return tok == w || tok == w+"s" || tok == w+"es"
}

func findWords(toks, words []string) int {
	for i := 0; i+len(words) <= len(toks); i++ {
		ok := true
		for j, w := range words {
			if !wordMatches(toks[i+j], w) {
				ok = false
				break
			}
		}
		if ok {
			return i
		}
	}
	return -1
}

var negations = [][]string{
	{"that", "is", "not"}, {"which", "is", "not"}, {"but", "is", "not"},
	{"that", "are", "not"}, {"that", "does", "not"}, {"that", "do", "not"},
	{"which", "does", "not"}, {"but", "does", "not"}, {"but", "not"},
	{"other", "than"}, {"except", "for"}, {"except"}, {"excluding"},
	{"apart", "from"}, {"instead", "of"}, {"is", "not"}, {"does", "not"},
	{"not"},
}

// findNegation returns the leftmost negation marker, the longest at that
// position.
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

var relations = []struct {
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
}

var articles = []string{"a", "an", "the", "some", "any", "my"}

// findRelation finds a relation marker followed (after an article) by a
// class phrase, and returns the relation, the anchor class and the span
// of marker and anchor.
func findRelation(toks []string) (string, string, [2]int, bool) {
	for i := range toks {
		for _, r := range relations {
			if i+len(r.words) > len(toks) || !slices.Equal(toks[i:i+len(r.words)], r.words) {
				continue
			}
			j := i + len(r.words)
			if j < len(toks) && slices.Contains(articles, toks[j]) {
				j++
			}
			cs, n := classAt(toks, j)
			if n == 0 {
				continue
			}
			return r.rel, cs[0], [2]int{i, j + n}, true
		}
	}
	return "", "", [2]int{}, false
}

// classAt matches the longest class phrase starting at toks[i] and returns
// the classes it names and its length in words.
func classAt(toks []string, i int) ([]string, int) {
	var best []string
	bestN := 0
	for _, c := range mapClasses {
		for _, w := range c.Words {
			ws := strings.Fields(w)
			if len(ws) < bestN || i+len(ws) > len(toks) {
				continue
			}
			ok := true
			for k, x := range ws {
				if !wordMatches(toks[i+k], x) {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			if len(ws) > bestN {
				best, bestN = nil, len(ws)
			}
			if !slices.Contains(best, c.Name) {
				best = append(best, c.Name)
			}
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

// findAffordance returns the affordance whose phrase is longest in toks
// (ties: the table's order) and the phrase's span.
func findAffordance(toks []string) (string, [2]int) {
	name, bestN, span := "", 0, [2]int{}
	for _, a := range affordances {
		for _, p := range a.Phrases {
			pw := strings.Fields(p)
			if len(pw) <= bestN {
				continue
			}
			if i := findWords(toks, pw); i >= 0 {
				name, bestN, span = a.Name, len(pw), [2]int{i, i + len(pw)}
			}
		}
	}
	return name, span
}
