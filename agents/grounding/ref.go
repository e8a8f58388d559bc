package grounding

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/scenes"
)

// Ref is a referring expression: what a phrase says about the thing it
// names.
type Ref struct {
	Phrase   string // the words, lower-cased
	Vague    bool   // "something", "that thing": says nothing usable
	ID       string // an exact node id: "red block 2"
	Place    string // a named place or the shared workspace
	Class    string // block or bowl
	Color    string
	Relation string // for "the (red) block to the left of X": left_of
	Anchor   *Ref   // X
	// Other marks an anchor "the other red block": the one of the two
	// alike objects that is not meant. A user says it when nothing else on
	// the table tells the two apart.
	Other bool
}

// String returns the phrase.
func (r Ref) String() string { return r.Phrase }

// clone returns r with its own copy of the chain of anchors.
func (r Ref) clone() Ref {
	if r.Anchor != nil {
		a := r.Anchor.clone()
		r.Anchor = &a
	}
	return r
}

// vagueWords are the phrases that name nothing in particular.
var vagueWords = []string{"something", "that thing", "the item", "the object", "this", "it", "anything", "the thing"}

var relationWords = []struct{ words, rel string }{
	{"to the left of", scenes.RelLeftOf},
	{"to the right of", scenes.RelRightOf},
	{"left of", scenes.RelLeftOf},
	{"right of", scenes.RelRightOf},
	{"above", scenes.RelAbove},
	{"below", scenes.RelBelow},
}

var (
	colorClass = regexp.MustCompile(`^(?:the |a |an )?([a-z]+) (block|bowl)(?: (\d+))?$`)
	relational = regexp.MustCompile(`^(?:the |a )?(?:([a-z]+) )?(block|bowl) (to the left of|to the right of|left of|right of|above|below) (.+)$`)
)

// ParseRef reads one referring phrase.
func ParseRef(phrase string) (Ref, error) {
	p := normalize(phrase)
	r := Ref{Phrase: p}
	if p == "" {
		return r, fmt.Errorf("empty phrase")
	}
	if slices.Contains(vagueWords, p) {
		r.Vague = true
		return r, nil
	}
	bare := strings.TrimPrefix(p, "the ")
	if bare == scenes.SharedPlace {
		r.Place = scenes.SharedPlace
		return r, nil
	}
	if _, ok := scenes.Places[bare]; ok {
		r.Place = bare
		return r, nil
	}
	if m := relational.FindStringSubmatch(p); m != nil && (m[1] == "" || slices.Contains(scenes.Colors, m[1])) && (m[1] != "" || m[2] == scenes.ClassBlock) {
		anchor, err := ParseRef(m[4])
		if err != nil {
			return r, fmt.Errorf("anchor of %q: %w", p, err)
		}
		if anchor.Vague || anchor.Relation != "" {
			return r, fmt.Errorf("anchor of %q must name an object plainly", p)
		}
		if anchor.Other && (m[1] != anchor.Color || m[2] != anchor.Class) {
			return r, fmt.Errorf("%q: \"the other\" must name the same colour and class as the object", p)
		}
		for _, rw := range relationWords {
			if rw.words == m[3] {
				r.Relation = rw.rel
			}
		}
		// "the block left of X" (a spatial task's phrase), or with a
		// colour, a bowl too ("the blue bowl left of X": a user's answer
		// to a robot that names what it sees).
		r.Color, r.Class, r.Anchor = m[1], m[2], &anchor
		return r, nil
	}
	if rest, ok := strings.CutPrefix(p, "the other "); ok {
		if m := colorClass.FindStringSubmatch(rest); m != nil && m[3] == "" && slices.Contains(scenes.Colors, m[1]) {
			r.Color, r.Class, r.Other = m[1], m[2], true
			return r, nil
		}
	}
	if m := colorClass.FindStringSubmatch(p); m != nil && slices.Contains(scenes.Colors, m[1]) {
		r.Color, r.Class = m[1], m[2]
		if m[3] != "" {
			n, err := strconv.Atoi(m[3])
			if err != nil {
				return r, fmt.Errorf("cannot read %q: the number is out of range", p)
			}
			r.ID = scenes.ObjectID(m[1], m[2], n)
		}
		return r, nil
	}
	return r, fmt.Errorf("cannot read %q as an object or a place", p)
}

// normalize lower-cases a phrase, folds spaces and drops end punctuation
// and quotes.
func normalize(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.Trim(s, ".!?,;:\"'` ")
	return strings.Join(strings.Fields(s), " ")
}
