package housework

import (
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/scenes"
)

// The knowledge table is read once into lookups; they are never written
// after.
var (
	knowledge = func() map[string]scenes.Kind {
		m := map[string]scenes.Kind{}
		for _, k := range scenes.Kinds() {
			m[k.Name] = k
		}
		return m
	}()
	// palette is every colour an object of the table may have: the words
	// a user may pick one object out by.
	palette = func() []string {
		var out []string
		for _, k := range scenes.Kinds() {
			for _, c := range k.Colors {
				if !slices.Contains(out, c) {
					out = append(out, c)
				}
			}
		}
		return out
	}()
)

// objectKind reports whether a word is the name of an object kind (not a
// receptacle) in the knowledge table.
func objectKind(w string) bool {
	k, ok := knowledge[w]
	return ok && !k.Receptacle
}

// singular returns the kind a word names: itself when the table knows it,
// else the table's kind whose plural it is ("knives", "tomatoes",
// "apples"), else the word with a plural ending dropped by rule.
func singular(w string) string {
	if _, ok := knowledge[w]; ok {
		return w
	}
	for _, c := range []struct{ suffix, repl string }{{"ves", "fe"}, {"es", ""}, {"s", ""}} {
		if stem, ok := strings.CutSuffix(w, c.suffix); ok && stem != "" {
			if _, known := knowledge[stem+c.repl]; known {
				return stem + c.repl
			}
		}
	}
	if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
		return strings.TrimSuffix(w, "s")
	}
	return w
}

// kindOf returns the kind part of a name such as "cabinet 3" or "mug 12";
// a name without a number is its own kind.
func kindOf(name string) string {
	i := strings.LastIndexByte(name, ' ')
	if i < 0 {
		return name
	}
	if _, err := strconv.Atoi(name[i+1:]); err != nil {
		return name
	}
	return name[:i]
}

// isName reports whether s looks like an instance name: a word and a
// positive number ("apple 1").
func isName(s string) bool {
	i := strings.LastIndexByte(s, ' ')
	if i <= 0 {
		return false
	}
	n, err := strconv.Atoi(s[i+1:])
	return err == nil && n > 0 && !strings.ContainsAny(s[:i], " ,.")
}

// words lower-cases s and splits it into words, keeping letters, digits
// and apostrophes.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '\'' || r == '/')
	})
}

// normalize lower-cases s, makes its white space single spaces, and drops
// a leading "your task is to:" and a final full stop.
func normalize(s string) string {
	s = strings.Join(strings.Fields(strings.ToLower(s)), " ")
	if i := strings.LastIndex(s, "your task is to:"); i >= 0 {
		s = strings.TrimSpace(s[i+len("your task is to:"):])
	}
	for strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") {
		s = strings.TrimSpace(s[:len(s)-1])
	}
	return s
}

// KindOfName is the kind an object or receptacle name speaks of: "egg"
// for "egg 1", "countertop" for "countertop 2".
func KindOfName(name string) string { return kindOf(name) }

// NormalCommand writes a command as the world parses it: lower case,
// single spaces, without one final full stop. Two commands that differ
// only so are the same command.
func NormalCommand(c string) string {
	c = strings.Join(strings.Fields(strings.ToLower(c)), " ")
	return strings.TrimSpace(strings.TrimSuffix(c, "."))
}
