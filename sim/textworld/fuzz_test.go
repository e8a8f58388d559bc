package textworld_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/sim/textworld"
)

var fuzzSeeds = []string{
	"go to countertop 1",
	"take apple 1 from countertop 1",
	"put apple 1 in/on fridge 1",
	"move apple 1 to fridge 1",
	"put apple 1 on fridge 1",
	"heat apple 1 with microwave 1",
	"cool egg 1 with fridge 1",
	"clean mug 2 with sinkbasin 1",
	"use desklamp 1",
	"examine apple 1",
	"examine countertop 1",
	"open fridge 1",
	"close fridge 1",
	"inventory",
	"look",
	"help",
	"think: where is the apple?",
	"",
	"   ",
	"GO TO FRIDGE 1.",
	"go to",
	"go to ",
	"take  from ",
	"put in/on",
	"move to",
	"heat with",
	"take apple 1 from",
	"think:",
	"go to countertop 1 from fridge 1",
	"\x00\xff\xfe",
	"examine \u00e9clair 1",
	"put apple 1 in/on in/on fridge 1",
	strings.Repeat("go to ", 50),
	// Parse drops one final full stop, so these once came back from
	// Format without the name's own: "examine ." written as "examine .",
	// which reads as "examine" alone.
	"examine ..",
	"examine apple 1..",
	"GO TO ..",
	"think: why..",
	"examine a . .",
	// Names holding the joining words: no trouble for a verb of one name.
	"examine apple 1 from fridge 1",
	"examine mug with a handle to put in/on",
}

// FuzzStep checks that any string is a command: Step never panics, counts
// one step, leaves a house that holds together, and either has an effect
// or changes nothing and says "Nothing happens." — or, with explanations
// on, says why in other words and changes nothing either.
func FuzzStep(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	// A few states to start from, so that the fuzzed command meets open,
	// held and treated things.
	preludes := [][]string{
		nil,
		{"go to countertop 1", "take apple 1 from countertop 1"},
		{"go to fridge 1", "open fridge 1"},
		{"go to desk 1", "use desklamp 1", "take book 1 from desk 1"},
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		for _, prelude := range preludes {
			plain := newGame(t, tinyHouse(), textworld.Options{})
			told := newGame(t, tinyHouse(), textworld.Options{Feedback: textworld.FeedbackExplain})
			for _, c := range prelude {
				plain.Step(c)
				told.Step(c)
			}
			before := plain.State().Clone()
			steps := plain.Steps()
			got := plain.Step(cmd)
			why := told.Step(cmd)
			if plain.Steps() != steps+1 {
				t.Fatalf("Step(%q) counted %d steps, want 1", cmd, plain.Steps()-steps)
			}
			if err := plain.State().Validate(); err != nil {
				t.Fatalf("Step(%q) broke the house: %v", cmd, err)
			}
			if got == "" {
				t.Fatalf("Step(%q) said nothing", cmd)
			}
			if !reflect.DeepEqual(plain.State(), told.State()) {
				t.Fatalf("Step(%q): explaining changed the outcome", cmd)
			}
			if got == textworld.NothingHappens {
				if !reflect.DeepEqual(plain.State(), before) {
					t.Fatalf("Step(%q) said nothing happens but changed the house", cmd)
				}
				if why == textworld.NothingHappens || why == "" {
					t.Fatalf("Step(%q) with explanations gave no reason: %q", cmd, why)
				}
			} else if why != got {
				t.Fatalf("Step(%q) succeeded as %q but with explanations said %q", cmd, got, why)
			}
		}
	})
}

// FuzzParse checks that Parse never panics and that a parsed command,
// written back in either grammar, parses to itself: always for a verb of
// one name or none (go to, open, close, use, examine, think, …), and for
// a verb of two names whenever they do not contain the grammar's own
// joining words, which make "put a in b in c" ambiguous.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	joins := []string{" in/on ", " in ", " on ", " to ", " from ", " with "}
	plainName := func(s string) bool {
		for _, j := range joins {
			if strings.Contains(" "+s+" ", j) {
				return false
			}
		}
		return true
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := textworld.Parse(s)
		if err != nil {
			if c != (textworld.Command{}) {
				t.Fatalf("Parse(%q) returned %+v with error %v", s, c, err)
			}
			return
		}
		if c.Verb == textworld.VerbNone {
			t.Fatalf("Parse(%q) returned no verb and no error", s)
		}
		twoNames := c.Object != "" && c.Target != ""
		if twoNames && (!plainName(c.Object) || !plainName(c.Target)) {
			return
		}
		for _, grammar := range []string{textworld.GrammarV03, textworld.GrammarV04} {
			text := c.Format(grammar)
			back, err := textworld.Parse(text)
			if err != nil || back != c {
				t.Fatalf("Parse(%q) = %+v; written in %s as %q it parses to %+v, %v", s, c, grammar, text, back, err)
			}
		}
	})
}
