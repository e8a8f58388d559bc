package alfworld

import (
	"strings"
	"testing"
)

// A clear game's instruction is one of ALFWorld's two goal templates for
// its type (goal_library.py, the 'templates' of each goal), with the
// object and destination filled in and a final full stop; the form that
// means one in particular says "that", which no template does.
func TestPhrasingsAreALFWorlds(t *testing.T) {
	t.Parallel()
	templates := map[string][2]string{
		TypePickAndPlace:       {"put a {o} in {d}", "put some {o} on {d}"},                    // goal_library.py:37–38
		TypePickCleanThenPlace: {"put a clean {o} in {d}", "clean some {o} and put it in {d}"}, // :68–69
		TypePickHeatThenPlace:  {"put a hot {o} in {d}", "heat some {o} and put it in {d}"},    // :97–98
		TypePickCoolThenPlace:  {"put a cool {o} in {d}", "cool some {o} and put it in {d}"},   // :124–125
		TypePickTwoObjAndPlace: {"put two {o} in {d}", "find two {o} and put them in {d}"},     // :157–158
		TypeLookAtObjInLight:   {"look at {o} under the {l}", "examine the {o} with the {l}"},  // :194–195
	}
	for typ, tt := range templates {
		for i, tmpl := range tt {
			if got := phrasings[typ][i][FormIndefinite]; got != tmpl+"." {
				t.Errorf("%s phrasing %d = %q, want ALFWorld's %q", typ, i, got, tmpl+".")
			}
			if def := phrasings[typ][i][FormDefinite]; def != "" && !strings.Contains(def, "that {o}") && !strings.Contains(def, "that clean {o}") && !strings.Contains(def, "that hot {o}") && !strings.Contains(def, "that cool {o}") {
				t.Errorf("%s phrasing %d's definite form %q does not say that", typ, i, def)
			}
		}
	}
	for _, s := range EvalGames() {
		g, err := s.Build("")
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(g.Instruction, "that ") {
			t.Errorf("%s: a clear game says %q", g.ID, g.Instruction)
		}
	}
}

// The opening is ALFWorld's intro (alfred.twl2:5): the banner, the room,
// the task, each a paragraph.
func TestIntroIsALFWorlds(t *testing.T) {
	t.Parallel()
	g, err := EvalGames()[0].Build("")
	if err != nil {
		t.Fatal(err)
	}
	room := "You are in the middle of a room. Looking quickly around you, you see a cabinet 1."
	want := "-= Welcome to TextWorld, ALFRED! =-\n\n" + room + "\n\nYour task is to: " + g.Instruction
	if got := g.Intro(room); got != want {
		t.Errorf("Intro =\n%q\nwant\n%q", got, want)
	}
}
