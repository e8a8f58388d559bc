package housework

import (
	"slices"
	"strings"
)

// KindAnswer reads the object kind a user's answer names, for a vague
// instruction ("I mean an apple.", "Two pens.") or an absent object
// ("There is no apple here. Use a tomato instead."). not is a kind to pass
// over: the absent one, which such an answer also names. count is 2 when
// the answer says two, else 1. Kinds are read against the knowledge
// table's names, plurals included; ok is false when none is named.
func KindAnswer(answer, not string) (kind string, count int, ok bool) {
	ws := words(answer)
	count = 1
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if w == "two" || w == "both" {
			count = 2
		}
		// A kind may be written as two words ("butter knife").
		if i+1 < len(ws) {
			if k := singular(w + ws[i+1]); objectKind(k) && k != not {
				kind, ok = k, true
				i++
				continue
			}
		}
		if k := singular(w); objectKind(k) && k != not {
			kind, ok = k, true
		}
	}
	return kind, count, ok
}

// Which is how a user's answer picks one object out of several: by name
// ("mug 2"), by colour ("the red one") or by owner ("Sam's", "the one that
// belongs to Sam").
type Which struct {
	Item  string
	Color string
	Owner string
}

// Matches reports whether an object the belief knows is the one picked
// out. Colour and owner are known only once the object was examined.
func (w Which) Matches(it Item) bool {
	switch {
	case w.Item != "":
		return it.Name == w.Item
	case w.Color != "" && !strings.EqualFold(it.Color, w.Color):
		return false
	case w.Owner != "" && !strings.EqualFold(it.Owner, w.Owner):
		return false
	}
	return w.Color != "" || w.Owner != ""
}

// byLook reports whether the answer picks by colour or owner, which takes
// examining the candidates.
func (w Which) byLook() bool { return w.Item == "" && (w.Color != "" || w.Owner != "") }

// WhichAnswer reads a user's answer to "which one?". ok is false when the
// answer names no object, colour or owner.
func WhichAnswer(answer string) (w Which, ok bool) {
	ws := words(answer)
	for i, x := range ws {
		switch {
		case i+1 < len(ws) && isName(x+" "+ws[i+1]):
			w.Item = singular(x) + " " + ws[i+1]
		case slices.Contains(palette, x):
			w.Color = x
		case x == "to" && i > 0 && ws[i-1] == "belongs" && i+1 < len(ws):
			w.Owner = ws[i+1]
		case strings.HasSuffix(x, "'s") && len(x) > 2 && x != "it's" && x != "that's" && x != "one's":
			w.Owner = strings.TrimSuffix(x, "'s")
		}
	}
	return w, w.Item != "" || w.Color != "" || w.Owner != ""
}
