// Package program reads and writes the programs of the ProgPrompt
// workflow: the body of a Python task function made of action calls
// (pick_and_place, ask, ask_robot) and assertions with a recovery step,
//
//	def put_the_red_block_in_the_blue_bowl():
//	    pick_and_place("red block 1", "blue bowl 1")
//	    assert("red block 1" in "blue bowl 1")
//	        else: pick_and_place("red block 1", "blue bowl 1")
//
// It is a package of its own so that the agent that runs the programs and
// the simulated model that writes them share one grammar and one printer:
// the model backends must not import package agents.
package program

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/scenes"
)

// The actions a program may call.
const (
	PickAndPlace = "pick_and_place" // (pick, place)
	Ask          = "ask"            // (tag, question)
	AskRobot     = "ask_robot"      // (message)
)

// Actions lists the actions in the order the prompt imports them.
var Actions = []string{PickAndPlace, Ask, AskRobot}

// The relations an assertion may state between an object and where it
// should be.
const (
	In = "in" // inside a bowl
	On = "on" // on top of a block
	At = "at" // at a named place or the shared workspace
)

// Stmt is one statement of a program: a [Call] or an [Assert].
type Stmt interface {
	// Pos is the statement's line in the text it was parsed from, 0 for a
	// statement built in code.
	Pos() int
}

// Call is an action call.
type Call struct {
	Line int
	Name string
	Args []string
}

// Assert checks that Object is In, On or At Target; when it is not, Else
// (if any) runs once.
type Assert struct {
	Line                     int
	Object, Relation, Target string
	Else                     *Call
}

func (c Call) Pos() int   { return c.Line }
func (a Assert) Pos() int { return a.Line }

// Program is a task function: its name, when the text had a def line, and
// its body.
type Program struct {
	Name string
	Body []Stmt
}

// RelationFor is the relation a move's destination calls for: at for a
// named place or the shared workspace, on for a block, in otherwise (a
// bowl).
func RelationFor(place string) string {
	switch {
	case place == scenes.SharedPlace || slices.Contains(scenes.PlaceNames, place):
		return At
	case strings.Contains(place, " "+scenes.ClassBlock+" "):
		return On
	}
	return In
}

// Move is a pick-and-place followed by the assertion that checks it, with
// the same move as its recovery step.
func Move(pick, place string) []Stmt {
	recovery := Call{Name: PickAndPlace, Args: []string{pick, place}}
	return []Stmt{
		Call{Name: PickAndPlace, Args: []string{pick, place}},
		Assert{Object: pick, Relation: RelationFor(place), Target: place, Else: &recovery},
	}
}

// FuncName turns an instruction into the name of its task function:
// lower case, words joined by underscores ("Put the red block in the blue
// bowl." → put_the_red_block_in_the_blue_bowl).
func FuncName(instruction string) string {
	var b strings.Builder
	gap := false
	for _, r := range strings.ToLower(instruction) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if gap && b.Len() > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
			gap = false
			continue
		}
		gap = true
	}
	name := b.String()
	switch {
	case name == "":
		return "task"
	case name[0] >= '0' && name[0] <= '9':
		return "task_" + name
	}
	return name
}

// Indent is one level of indentation, as the prompt's examples use it.
const Indent = "    "

// String prints the program as the prompt's examples are written: the def
// line when the program has a name, then the body one level in, each
// recovery step one level further. Parse reads it back to the same
// program (line numbers aside).
func (p Program) String() string {
	var b strings.Builder
	if p.Name != "" {
		fmt.Fprintf(&b, "def %s():\n", p.Name)
	}
	for _, s := range p.Body {
		b.WriteString(Indent + FormatStmt(s) + "\n")
		if a, ok := s.(Assert); ok && a.Else != nil {
			b.WriteString(Indent + Indent + "else: " + a.Else.String() + "\n")
		}
	}
	return b.String()
}

// FormatStmt prints one statement on one line; an assertion's recovery
// step is left out, since it goes on the next line.
func FormatStmt(s Stmt) string {
	switch s := s.(type) {
	case Call:
		return s.String()
	case Assert:
		return fmt.Sprintf("assert(%s %s %s)", Quote(s.Object), s.Relation, Quote(s.Target))
	}
	return fmt.Sprintf("# unknown statement %T", s)
}

func (c Call) String() string {
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = Quote(a)
	}
	return c.Name + "(" + strings.Join(args, ", ") + ")"
}

// Quote writes a string literal that Parse reads back unchanged.
func Quote(s string) string {
	return `"` + escaper.Replace(s) + `"`
}

// escaper is built once and only read, which a Replacer allows from any
// goroutine.
var escaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`)
