package program

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func pnp(pick, place string) Call { return Call{Name: PickAndPlace, Args: []string{pick, place}} }

// stripLines zeroes the line numbers, to compare a parse with a program
// built in code.
func stripLines(p Program) Program {
	out := Program{Name: p.Name}
	for _, s := range p.Body {
		switch s := s.(type) {
		case Call:
			s.Line = 0
			out.Body = append(out.Body, s)
		case Assert:
			s.Line = 0
			if s.Else != nil {
				e := *s.Else
				e.Line = 0
				s.Else = &e
			}
			out.Body = append(out.Body, s)
		}
	}
	return out
}

func TestParse(t *testing.T) {
	move := Move("red block 1", "blue bowl 1")
	for _, tc := range []struct {
		why, src string
		want     Program
	}{
		{"the printer's own format, def line included",
			"def put_it():\n    pick_and_place(\"red block 1\", \"blue bowl 1\")\n    assert(\"red block 1\" in \"blue bowl 1\")\n        else: pick_and_place(\"red block 1\", \"blue bowl 1\")\n",
			Program{Name: "put_it", Body: move}},
		{"single quotes, the else on the assert's line, no parentheses around the assert",
			"pick_and_place('red block 1', 'blue bowl 1')\nassert 'red block 1' in 'blue bowl 1' else: pick_and_place('red block 1', 'blue bowl 1')",
			Program{Body: move}},
		{"comments, blank lines, trailing comments and CRLF line ends are skipped",
			"# step 1\r\n\r\n    ask(\"multiplicity\", \"Which one?\")  # the user picks\r\n",
			Program{Body: []Stmt{Call{Name: Ask, Args: []string{"multiplicity", "Which one?"}}}}},
		{"a # inside a string is not a comment; escaped quotes stay",
			`ask_robot("Please bring block #2, it's \"red\".")`,
			Program{Body: []Stmt{Call{Name: AskRobot, Args: []string{`Please bring block #2, it's "red".`}}}}},
		{"a model that wraps the program in prose and a fence: only the fence is read",
			"Here is the plan:\n```python\npick_and_place(\"a\", \"b\")\n```\nIt moves a to b.",
			Program{Body: []Stmt{pnp("a", "b")}}},
		{"a second function ends the task's",
			"def first():\n    pick_and_place(\"a\", \"b\")\ndef second():\n    pick_and_place(\"c\", \"d\")\n",
			Program{Name: "first", Body: []Stmt{pnp("a", "b")}}},
		{"repeated imports run nothing",
			"from actions import pick_and_place, ask\npick_and_place(\"a\", \"b\")",
			Program{Body: []Stmt{pnp("a", "b")}}},
		{"keyword arguments in their places, and a trailing comma",
			`pick_and_place(pick="a", place="b",)`,
			Program{Body: []Stmt{pnp("a", "b")}}},
		{"an assert without a recovery step, then on and at",
			"assert(\"a\" on \"b\")\nassert(\"a\" at \"middle\")\n    else: ask(\"absence\", \"Where is it?\")",
			Program{Body: []Stmt{Assert{Object: "a", Relation: On, Target: "b"},
				Assert{Object: "a", Relation: At, Target: "middle", Else: &Call{Name: Ask, Args: []string{"absence", "Where is it?"}}}}}},
		{"an empty reply is an empty program (nothing left to do)", "", Program{}},
	} {
		got, err := Parse(tc.src)
		if err != nil {
			t.Errorf("%s: %v", tc.why, err)
			continue
		}
		if !reflect.DeepEqual(stripLines(got), tc.want) {
			t.Errorf("%s:\ngot  %#v\nwant %#v", tc.why, stripLines(got), tc.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		why, src string
		line     int
		msg      string
	}{
		{"prose where a statement should be", "I will now pick up the block.", 1, "expected an action call"},
		{"the simulated model's malformed reply", "THOUGHT: I will act now.\nREQUEST: pick_and_place(pick=", 1, `expected an action call (pick_and_place, ask, ask_robot), an assert or a comment, got "THOUGHT: I will act now."`},
		{"an action the prompt does not import", "pick_and_place(\"a\", \"b\")\ndone()", 2, `unknown action "done"`},
		{"an unquoted argument", `pick_and_place(red block 1, "b")`, 1, "expected pick (argument 1 of pick_and_place(pick, place)) as a quoted string"},
		{"too few arguments", `pick_and_place("a")`, 1, "takes 2 argument(s), got 1"},
		{"too many arguments", `ask_robot("a", "b")`, 1, "takes 1 argument(s), got 2"},
		{"a missing comma", `ask("absence" "where?")`, 1, `expected ','`},
		{"an unclosed string", `ask("absence", "where?)`, 1, "has no closing"},
		{"an unclosed call", `pick_and_place("a", "b"`, 1, `expected ','`},
		{"a relation the assert does not know", `assert("a" near "b")`, 1, "expected in, on or at"},
		{"an unclosed assert", `assert("a" in "b"`, 1, `expected ')' to close the assert`},
		{"else with no assert before it", "pick_and_place(\"a\", \"b\")\nelse: pick_and_place(\"a\", \"b\")", 2, "else: without an assert"},
		{"else without a colon", "assert(\"a\" in \"b\")\n\n  else pick_and_place(\"a\", \"b\")", 3, `expected ':' after else`},
		{"text after a statement", `pick_and_place("a", "b") then stop`, 1, "expected the end of the line"},
		{"a keyword in the wrong place", `pick_and_place(place="b", pick="a")`, 1, `keyword "place" does not fit pick`},
		{"a def line without parentheses", "def task:\n  pick_and_place(\"a\", \"b\")", 1, `expected '(' in the def line`},
		{"line numbers count the prose before a fence", "Plan:\n```\npick_and_place(\"a\", \"b\")\njump()\n```", 4, `unknown action "jump"`},
	} {
		_, err := Parse(tc.src)
		var pe *Error
		if !errors.As(err, &pe) {
			t.Errorf("%s: got %v, want a *program.Error", tc.why, err)
			continue
		}
		if pe.Line != tc.line || !strings.Contains(pe.Msg, tc.msg) || !strings.HasPrefix(err.Error(), "line ") {
			t.Errorf("%s: got %q, want line %d with %q", tc.why, err, tc.line, tc.msg)
		}
	}
}

func TestStringRoundTrip(t *testing.T) {
	p := Program{Name: "stack_them", Body: append(Move("green block 1", "yellow block 1"),
		Call{Name: Ask, Args: []string{"multiplicity", `Which do you mean: "a" or \b?`}},
		Assert{Object: "cyan block 1", Relation: At, Target: "shared workspace"})}
	got, err := Parse(p.String())
	if err != nil {
		t.Fatalf("%v in\n%s", err, p)
	}
	if !reflect.DeepEqual(stripLines(got), p) {
		t.Errorf("got %#v\nfrom\n%s", got, p)
	}
	if !strings.Contains(p.String(), "    assert(\"green block 1\" on \"yellow block 1\")\n        else: pick_and_place(") {
		t.Errorf("the printer does not indent as the prompt's examples do:\n%s", p)
	}
}

func TestRelationFor(t *testing.T) {
	for _, tc := range []struct{ why, place, want string }{
		{"a bowl is entered", "blue bowl 1", In},
		{"a block is stacked on", "red block 2", On},
		{"a named place is reached", "top left corner", At},
		{"the shared workspace is a place", "shared workspace", At},
	} {
		if got := RelationFor(tc.place); got != tc.want {
			t.Errorf("%s: RelationFor(%q) = %q, want %q", tc.why, tc.place, got, tc.want)
		}
	}
}

func TestFuncName(t *testing.T) {
	for _, tc := range []struct{ why, in, want string }{
		{"words joined, punctuation dropped", "Put the red block in the blue bowl.", "put_the_red_block_in_the_blue_bowl"},
		{"commas and capitals", "First put A, then B!", "first_put_a_then_b"},
		{"digits may not lead a Python name", "3 blocks away", "task_3_blocks_away"},
		{"nothing usable", "?!", "task"},
	} {
		if got := FuncName(tc.in); got != tc.want {
			t.Errorf("%s: FuncName(%q) = %q, want %q", tc.why, tc.in, got, tc.want)
		}
	}
}

// FuzzParse: any text either parses, and then prints to a text that parses
// back to the same program, or fails with an *Error on one of its lines.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		Program{Name: "task", Body: Move("red block 1", "blue bowl 1")}.String(),
		"ask('multiplicity', 'Which do you mean: red block 1 or red block 2?')",
		"assert 'a' at 'middle' else: ask_robot('Please put a in the shared workspace.')",
		"```python\npick_and_place(pick=\"a\", place='b') # go\n```",
		"THOUGHT: I will act now.\nREQUEST: pick_and_place(pick=",
		`ask("x", "a\"b\\c\'d")`,
		"else: pick_and_place(\"a\", \"b\")",
		"def a():\ndef b():",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Parse(src)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.Line < 1 || pe.Line > strings.Count(src, "\n")+1 {
				t.Fatalf("error %v does not name a line of the text", err)
			}
			return
		}
		again, err := Parse(p.String())
		if err != nil {
			t.Fatalf("the printed program does not parse: %v\n%s", err, p)
		}
		if !reflect.DeepEqual(stripLines(again), stripLines(p)) {
			t.Fatalf("round trip changed the program:\n%#v\n%#v", stripLines(p), stripLines(again))
		}
	})
}
