package textworld

import (
	"fmt"
	"strings"
)

// Verb is what a command does.
type Verb uint8

// The verbs of the command grammar.
const (
	VerbNone Verb = iota
	VerbGoTo
	VerbOpen
	VerbClose
	VerbTake
	VerbPut // "put O in/on R" and "move O to R" alike
	VerbUse
	VerbHeat
	VerbCool
	VerbClean
	VerbExamine
	VerbInventory
	VerbLook
	VerbHelp
	VerbThink
	// VerbDescribe is the one command ALFWorld lacks: "describe O" tells
	// an object's colour and owner, which the household's instructions and
	// answers may use, so that ALFWorld's own texts stay as they are.
	VerbDescribe
)

var verbNames = [...]string{"none", "go to", "open", "close", "take", "put", "use", "heat", "cool", "clean", "examine", "inventory", "look", "help", "think", "describe"}

func (v Verb) String() string {
	if int(v) < len(verbNames) {
		return verbNames[v]
	}
	return fmt.Sprintf("Verb(%d)", v)
}

// Command is a parsed command. Object and Target are names as written
// ("apple 1", "countertop 1"); whether they exist is the game's business.
type Command struct {
	Verb   Verb
	Object string // what is acted on: taken, put, heated, used, examined
	Target string // where: the receptacle gone to, opened, taken from, put in, heated with
	Text   string // a thought, for VerbThink
}

// Format writes the command in its canonical form in a grammar's words:
// what Admissible lists and what Parse reads back as c. Parse drops one
// final full stop, so a command whose last name or thought ends in one
// ("examine ." read from "examine ..") is written with another.
func (c Command) Format(grammar string) string {
	s := c.format(grammar)
	if strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

func (c Command) format(grammar string) string {
	switch c.Verb {
	case VerbGoTo:
		return "go to " + c.Target
	case VerbOpen, VerbClose:
		return c.Verb.String() + " " + c.Target
	case VerbUse, VerbExamine, VerbDescribe:
		return c.Verb.String() + " " + c.Object
	case VerbTake:
		return "take " + c.Object + " from " + c.Target
	case VerbPut:
		return PutCommand(grammar, c.Object, c.Target)
	case VerbHeat, VerbCool, VerbClean:
		return c.Verb.String() + " " + c.Object + " with " + c.Target
	case VerbInventory, VerbLook, VerbHelp:
		return c.Verb.String()
	case VerbThink:
		return "think: " + c.Text
	}
	return ""
}

// Parse reads one command. It accepts both grammars for placing an object
// ("put O in/on R", also with "in" or "on" alone, and "move O to R"),
// ignores case, extra spaces and a final full stop, and never panics; an
// error says what was expected.
func Parse(s string) (Command, error) {
	s = normalize(s)
	if rest, ok := strings.CutPrefix(s, "think:"); ok {
		return Command{Verb: VerbThink, Text: strings.TrimSpace(rest)}, nil
	}
	switch s {
	case "":
		return Command{}, fmt.Errorf("the command is empty; type \"help\" to see the commands")
	case "look":
		return Command{Verb: VerbLook}, nil
	case "inventory":
		return Command{Verb: VerbInventory}, nil
	case "help":
		return Command{Verb: VerbHelp}, nil
	}
	word, rest, _ := strings.Cut(s, " ")
	switch word {
	case "go":
		if r, ok := strings.CutPrefix(rest, "to "); ok {
			return Command{Verb: VerbGoTo, Target: r}, nil
		}
		return Command{}, usage(s, "go to RECEPTACLE")
	case "open", "close", "use", "examine", "describe":
		if rest == "" {
			return Command{}, usage(s, word+" SOMETHING")
		}
		switch word {
		case "open":
			return Command{Verb: VerbOpen, Target: rest}, nil
		case "close":
			return Command{Verb: VerbClose, Target: rest}, nil
		case "use":
			return Command{Verb: VerbUse, Object: rest}, nil
		case "describe":
			return Command{Verb: VerbDescribe, Object: rest}, nil
		}
		return Command{Verb: VerbExamine, Object: rest}, nil
	case "take":
		if o, r, ok := strings.Cut(rest, " from "); ok && o != "" && r != "" {
			return Command{Verb: VerbTake, Object: o, Target: r}, nil
		}
		return Command{}, usage(s, "take OBJECT from RECEPTACLE")
	case "put":
		for _, sep := range [...]string{" in/on ", " in ", " on "} {
			if o, r, ok := strings.Cut(rest, sep); ok && o != "" && r != "" {
				return Command{Verb: VerbPut, Object: o, Target: r}, nil
			}
		}
		return Command{}, usage(s, "put OBJECT in/on RECEPTACLE")
	case "move":
		if o, r, ok := strings.Cut(rest, " to "); ok && o != "" && r != "" {
			return Command{Verb: VerbPut, Object: o, Target: r}, nil
		}
		return Command{}, usage(s, "move OBJECT to RECEPTACLE")
	case "heat", "cool", "clean":
		if o, r, ok := strings.Cut(rest, " with "); ok && o != "" && r != "" {
			v := VerbHeat
			switch word {
			case "cool":
				v = VerbCool
			case "clean":
				v = VerbClean
			}
			return Command{Verb: v, Object: o, Target: r}, nil
		}
		return Command{}, usage(s, word+" OBJECT with RECEPTACLE")
	}
	return Command{}, fmt.Errorf("%q is not a command; type \"help\" to see the commands", clip(s))
}

func usage(s, form string) error {
	return fmt.Errorf("%q is not understood; the form is %q", clip(s), form)
}

// clip shortens what an error quotes, so that a long input does not make a
// long observation.
func clip(s string) string {
	const n = 60
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}

// normalize lower-cases ASCII letters, turns runs of white space into one
// space, and drops surrounding space and one final full stop. A command
// that is already in that form is returned as it is, without allocating.
func normalize(s string) string {
	if isNormal(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			space = b.Len() > 0
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteByte(c)
	}
	out := b.String()
	out = strings.TrimSuffix(out, ".")
	return strings.TrimRight(out, " ")
}

func isNormal(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' || s[len(s)-1] == '.' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z', c == '\t', c == '\n', c == '\r', c == '\v', c == '\f':
			return false
		case c == ' ' && s[i+1] == ' ':
			return false
		}
	}
	return true
}
