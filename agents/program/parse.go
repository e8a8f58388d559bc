package program

import (
	"fmt"
	"strings"
)

// Error is a program that could not be read: the line of the text it was
// parsed from (counting from 1) and what was expected there.
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// params are the parameter names of each action, which a keyword argument
// must use.
func params(name string) []string {
	switch name {
	case PickAndPlace:
		return []string{"pick", "place"}
	case Ask:
		return []string{"tag", "question"}
	case AskRobot:
		return []string{"message"}
	}
	return nil
}

// Parse reads a program: a task function's body of action calls
// (pick_and_place, ask, ask_robot) and assertions
// (assert("a" in "b"), with on or at for in), each assertion optionally
// followed by its recovery step, "else: <call>", on the same line or the
// next. Strings take single or double quotes. Comments, blank lines,
// indentation, import lines and the def line are allowed; a model that
// goes on to write a second function has finished the first, so Parse
// stops there. When the text holds a fenced code block, only its inside
// is read, so a model may wrap the program in prose. Errors are *Error.
func Parse(src string) (Program, error) {
	lines := strings.Split(src, "\n")
	from, to := codeSpan(lines)
	var p Program
	pending := -1 // index in p.Body of an assert that may still get its else
	for i := from; i < to; i++ {
		t := strings.TrimSpace(lines[i])
		if t == "" || t[0] == '#' {
			continue
		}
		sc := &scanner{s: t, line: i + 1}
		var err error
		switch word := sc.ident(); word {
		case "def":
			if p.Name != "" || len(p.Body) > 0 {
				return p, nil
			}
			p.Name, err = sc.def()
			pending = -1
		case "from", "import":
			// The prompt's own imports, repeated: nothing to run.
			continue
		case "assert":
			var a Assert
			a, err = sc.assert()
			p.Body = append(p.Body, a)
			pending = -1
			if a.Else == nil {
				pending = len(p.Body) - 1
			}
		case "else":
			if pending < 0 {
				return Program{}, sc.fail("else: without an assert before it (a recovery step follows an assert)")
			}
			var c Call
			c, err = sc.elseStep()
			a := p.Body[pending].(Assert)
			a.Else = &c
			p.Body[pending] = a
			pending = -1
		default:
			sc.pos = 0
			var c Call
			c, err = sc.call()
			p.Body = append(p.Body, c)
			pending = -1
		}
		if err == nil {
			err = sc.end()
		}
		if err != nil {
			return Program{}, err
		}
	}
	return p, nil
}

// codeSpan returns the lines to read: those inside the first fenced block
// if there is one (to the end when it is not closed), else all.
func codeSpan(lines []string) (from, to int) {
	for i, l := range lines {
		if !strings.HasPrefix(strings.TrimSpace(l), "```") {
			continue
		}
		for j := i + 1; j < len(lines); j++ {
			if strings.HasPrefix(strings.TrimSpace(lines[j]), "```") {
				return i + 1, j
			}
		}
		return i + 1, len(lines)
	}
	return 0, len(lines)
}

// scanner reads the tokens of one trimmed line.
type scanner struct {
	s    string
	pos  int
	line int
}

func (sc *scanner) fail(format string, a ...any) error {
	return &Error{Line: sc.line, Msg: fmt.Sprintf(format, a...)}
}

func (sc *scanner) space() {
	for sc.pos < len(sc.s) && (sc.s[sc.pos] == ' ' || sc.s[sc.pos] == '\t') {
		sc.pos++
	}
}

// near shows what comes next, for an error message.
func (sc *scanner) near() string {
	sc.space()
	r := sc.s[sc.pos:]
	if r == "" {
		return "the end of the line"
	}
	if len(r) > 24 {
		r = r[:24] + "…"
	}
	return fmt.Sprintf("%q", r)
}

func isIdent(c byte, first bool) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || !first && c >= '0' && c <= '9'
}

// ident reads a Python identifier, or "" when none comes next.
func (sc *scanner) ident() string {
	sc.space()
	start := sc.pos
	for sc.pos < len(sc.s) && isIdent(sc.s[sc.pos], sc.pos == start) {
		sc.pos++
	}
	return sc.s[start:sc.pos]
}

// punct consumes c if it comes next.
func (sc *scanner) punct(c byte) bool {
	sc.space()
	if sc.pos < len(sc.s) && sc.s[sc.pos] == c {
		sc.pos++
		return true
	}
	return false
}

func (sc *scanner) expect(c byte, where string) error {
	if sc.punct(c) {
		return nil
	}
	return sc.fail("expected %q %s, got %s", c, where, sc.near())
}

// str reads a string literal in single or double quotes. A backslash
// escapes a quote or a backslash and is kept before any other character.
func (sc *scanner) str(what string) (string, error) {
	sc.space()
	if sc.pos >= len(sc.s) || sc.s[sc.pos] != '"' && sc.s[sc.pos] != '\'' {
		return "", sc.fail("expected %s as a quoted string, got %s", what, sc.near())
	}
	q := sc.s[sc.pos]
	sc.pos++
	var b strings.Builder
	for sc.pos < len(sc.s) {
		c := sc.s[sc.pos]
		switch {
		case c == q:
			sc.pos++
			return b.String(), nil
		case c == '\\' && sc.pos+1 < len(sc.s):
			next := sc.s[sc.pos+1]
			if next != '\\' && next != '"' && next != '\'' {
				b.WriteByte(c)
			}
			b.WriteByte(next)
			sc.pos += 2
		default:
			b.WriteByte(c)
			sc.pos++
		}
	}
	return "", sc.fail("%s has no closing %c", what, q)
}

// end checks that nothing but a comment follows the statement.
func (sc *scanner) end() error {
	sc.space()
	if sc.pos < len(sc.s) && sc.s[sc.pos] != '#' {
		return sc.fail("expected the end of the line after the statement, got %s", sc.near())
	}
	return nil
}

// def reads the rest of "def name():".
func (sc *scanner) def() (string, error) {
	name := sc.ident()
	if name == "" {
		return "", sc.fail("expected the task function's name after def, got %s", sc.near())
	}
	for _, c := range []byte("():") {
		if err := sc.expect(c, "in the def line"); err != nil {
			return "", err
		}
	}
	return name, nil
}

// call reads an action call.
func (sc *scanner) call() (Call, error) {
	c := Call{Line: sc.line}
	start := sc.pos
	c.Name = sc.ident()
	names := params(c.Name)
	if names == nil {
		if c.Name != "" && sc.punct('(') {
			return c, sc.fail("unknown action %q (want %s)", c.Name, strings.Join(Actions, ", "))
		}
		sc.pos = start
		return c, sc.fail("expected an action call (%s), an assert or a comment, got %s", strings.Join(Actions, ", "), sc.near())
	}
	signature := c.Name + "(" + strings.Join(names, ", ") + ")"
	if err := sc.expect('(', "after "+c.Name); err != nil {
		return c, err
	}
	for !sc.punct(')') {
		if len(c.Args) > 0 {
			if err := sc.expect(',', "or \")\" after argument "+fmt.Sprint(len(c.Args))+" of "+signature); err != nil {
				return c, err
			}
			if sc.punct(')') {
				break
			}
		}
		what := fmt.Sprintf("argument %d of %s", len(c.Args)+1, signature)
		if len(c.Args) < len(names) {
			what = fmt.Sprintf("%s (argument %d of %s)", names[len(c.Args)], len(c.Args)+1, signature)
		}
		// A keyword argument must name the parameter in its place.
		save := sc.pos
		if kw := sc.ident(); kw != "" {
			if !sc.punct('=') {
				sc.pos = save
			} else if len(c.Args) >= len(names) || kw != names[len(c.Args)] {
				return c, sc.fail("keyword %q does not fit %s", kw, what)
			}
		}
		a, err := sc.str(what)
		if err != nil {
			return c, err
		}
		c.Args = append(c.Args, a)
	}
	if len(c.Args) != len(names) {
		return c, sc.fail("%s takes %d argument(s), got %d", signature, len(names), len(c.Args))
	}
	return c, nil
}

// assert reads the rest of an assertion: ("a" in "b"), with or without
// the parentheses, and an else step on the same line if there is one.
func (sc *scanner) assert() (Assert, error) {
	a := Assert{Line: sc.line}
	paren := sc.punct('(')
	var err error
	if a.Object, err = sc.str("the object of the assert"); err != nil {
		return a, err
	}
	save := sc.pos
	switch a.Relation = sc.ident(); a.Relation {
	case In, On, At:
	default:
		sc.pos = save
		return a, sc.fail("expected in, on or at between the object and the target of the assert, got %s", sc.near())
	}
	if a.Target, err = sc.str("the target of the assert"); err != nil {
		return a, err
	}
	if paren {
		if err := sc.expect(')', "to close the assert"); err != nil {
			return a, err
		}
	}
	save = sc.pos
	if sc.ident() != "else" {
		sc.pos = save
		return a, nil
	}
	c, err := sc.elseStep()
	a.Else = &c
	return a, err
}

// elseStep reads the rest of "else: <call>".
func (sc *scanner) elseStep() (Call, error) {
	if err := sc.expect(':', "after else"); err != nil {
		return Call{}, err
	}
	return sc.call()
}
