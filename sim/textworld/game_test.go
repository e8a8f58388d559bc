package textworld_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/sim/textworld"
)

func newGame(t testing.TB, h *scenes.House, opts textworld.Options) *textworld.Game {
	t.Helper()
	g, err := textworld.New(h, opts)
	if err != nil {
		t.Fatal(err)
	}
	g.Reset()
	return g
}

var (
	v03     = textworld.Options{}
	v04     = textworld.Options{Grammar: textworld.GrammarV04}
	explain = textworld.Options{Feedback: textworld.FeedbackExplain}
)

func TestReset(t *testing.T) {
	t.Parallel()
	g := newGame(t, tinyHouse(), v03)
	want := "You are in the middle of a room. Looking quickly around you, you see a cabinet 1, a countertop 1, a desk 1, a fridge 1, a microwave 1, and a sinkbasin 1."
	state := g.State()
	for _, cmd := range []string{"go to countertop 1", "take apple 1 from countertop 1", "go to fridge 1", "open fridge 1", "cool apple 1 with fridge 1"} {
		g.Step(cmd)
	}
	if got := g.Reset(); got != want {
		t.Errorf("Reset() =\n%q\nwant\n%q", got, want)
	}
	if g.State() != state {
		t.Errorf("State() changed pointer across Reset; callers hold it")
	}
	if !reflect.DeepEqual(g.State(), tinyHouse()) {
		t.Errorf("Reset left the house changed:\n%+v", g.State())
	}
	if g.Steps() != 0 {
		t.Errorf("Steps() = %d after Reset, want 0", g.Steps())
	}
	g.Step("dance")
	g.Step("think: where is it?")
	if g.Steps() != 2 {
		t.Errorf("Steps() = %d after a failed command and a thought, want 2: both count", g.Steps())
	}
}

// Every text the engine says, in ALFWorld's words; each row's setup runs
// first and must succeed.
func TestTexts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		why   string
		opts  textworld.Options
		setup []string
		cmd   string
		want  string
	}{
		{"v0.3 arrival names the location number, then what is on the receptacle", v03, nil,
			"go to countertop 1", "You arrive at loc 2. On the countertop 1, you see a apple 1, and a mug 2."},
		{"v0.4 arrival names the receptacle", v04, nil,
			"go to countertop 1", "You arrive at countertop 1. On the countertop 1, you see a apple 1, and a mug 2."},
		{"a closed receptacle hides its contents on arrival", v03, nil,
			"go to fridge 1", "You arrive at loc 1. The fridge 1 is closed."},
		{"opening shows the contents", v03, []string{"go to fridge 1"},
			"open fridge 1", "You open the fridge 1. The fridge 1 is open. In it, you see a egg 1."},
		{"an empty receptacle shows nothing", v03, []string{"go to microwave 1"},
			"open microwave 1", "You open the microwave 1. The microwave 1 is open. In it, you see nothing."},
		{"arriving at an open receptacle lists its contents", v04, []string{"go to fridge 1", "open fridge 1", "go to sinkbasin 1"},
			"go to fridge 1", "You arrive at fridge 1. The fridge 1 is open. In it, you see a egg 1."},
		{"closing", v03, []string{"go to fridge 1", "open fridge 1"},
			"close fridge 1", "You close the fridge 1."},
		{"taking", v03, []string{"go to countertop 1"},
			"take apple 1 from countertop 1", "You pick up the apple 1 from the countertop 1."},
		{"v0.3 put", v03, []string{"go to countertop 1", "take apple 1 from countertop 1", "go to sinkbasin 1"},
			"put apple 1 in/on sinkbasin 1", "You put the apple 1 in/on the sinkbasin 1."},
		{"v0.4 move", v04, []string{"go to countertop 1", "take apple 1 from countertop 1", "go to sinkbasin 1"},
			"move apple 1 to sinkbasin 1", "You move the apple 1 to the sinkbasin 1."},
		{"v0.3 accepts v0.4's move and answers in its own words", v03, []string{"go to countertop 1", "take apple 1 from countertop 1"},
			"move apple 1 to countertop 1", "You put the apple 1 in/on the countertop 1."},
		{"v0.4 has no put: its PutObject template is move (alfred.twl2:220)", v04, []string{"go to countertop 1", "take apple 1 from countertop 1"},
			"put apple 1 on countertop 1", textworld.NothingHappens},
		{"v0.3 also reads in or on alone", v03, []string{"go to countertop 1", "take apple 1 from countertop 1"},
			"put apple 1 on countertop 1", "You put the apple 1 in/on the countertop 1."},
		{"put needs canContain: a desk holds no apple (constants.py:780, alfred.pddl:300)", v03, []string{"go to countertop 1", "take apple 1 from countertop 1", "go to desk 1"},
			"put apple 1 in/on desk 1", textworld.NothingHappens},
		{"explain: what a receptacle cannot hold", explain, []string{"go to countertop 1", "take apple 1 from countertop 1", "go to desk 1"},
			"put apple 1 in/on desk 1", "A apple cannot go in or on a desk."},
		{"an item put down is listed where it lies", v03, []string{"go to countertop 1", "take mug 2 from countertop 1", "go to sinkbasin 1", "put mug 2 in/on sinkbasin 1", "go to countertop 1"},
			"examine countertop 1", "On the countertop 1, you see a apple 1."},
		{"heating needs no open microwave", v03, []string{"go to countertop 1", "take apple 1 from countertop 1", "go to microwave 1"},
			"heat apple 1 with microwave 1", "You heat the apple 1 using the microwave 1."},
		{"cooling", v03, []string{"go to countertop 1", "take apple 1 from countertop 1", "go to fridge 1"},
			"cool apple 1 with fridge 1", "You cool the apple 1 using the fridge 1."},
		{"cleaning", v03, []string{"go to countertop 1", "take mug 2 from countertop 1", "go to sinkbasin 1"},
			"clean mug 2 with sinkbasin 1", "You clean the mug 2 using the sinkbasin 1."},
		{"a lamp turns on", v03, []string{"go to desk 1"}, "use desklamp 1", "You turn on the desklamp 1."},
		{"a lamp used twice stays on: ToggleObject sets isToggled (alfred.pddl:458), whose feedback is turn on (alfred.twl2:250)", v03, []string{"go to desk 1", "use desklamp 1"}, "use desklamp 1", "You turn on the desklamp 1."},
		{"and still says so when examined", v03, []string{"go to desk 1", "use desklamp 1", "use desklamp 1"}, "examine desklamp 1", "This desklamp 1 is on."},
		{"a lamp not yet used is off (alfred.twl2:159)", v03, []string{"go to desk 1"}, "examine desklamp 1", "This desklamp 1 is off."},
		{"examining a lamp says whether it is on", v03, []string{"go to desk 1", "use desklamp 1"}, "examine desklamp 1", "This desklamp 1 is on."},
		{"examining a plain object says nothing of its colour (alfred.twl2:163)", v03, []string{"go to countertop 1"}, "examine apple 1", "There's nothing special about apple 1."},
		{"a movable receptacle is examined as one, first of all (alfred.twl2:108, constants.py:476)", v03, []string{"go to countertop 1"}, "examine mug 2", "This is a normal mug 2. In it, you see nothing."},
		{"describe tells colour and owner, outside ALFWorld's texts", v03, []string{"go to countertop 1"}, "describe mug 2", "The mug 2 is green. It belongs to Sam."},
		{"describe: colour alone", v03, []string{"go to countertop 1"}, "describe apple 1", "The apple 1 is red."},
		{"describe: neither", v03, []string{"go to desk 1"}, "describe book 1", "The book 1 has no colour or owner to tell it by."},
		{"describe: only what is in view or in hand", v03, nil, "describe apple 1", textworld.NothingHappens},
		{"a plain object", v03, []string{"go to desk 1"}, "examine book 1", "There's nothing special about book 1."},
		{"heat shows on examining a held item", v03, []string{"go to countertop 1", "take apple 1 from countertop 1", "go to microwave 1", "heat apple 1 with microwave 1"},
			"examine apple 1", "This is a hot apple 1."},
		{"heat and clean together", v03, []string{"go to countertop 1", "take apple 1 from countertop 1", "go to sinkbasin 1", "clean apple 1 with sinkbasin 1", "go to microwave 1", "heat apple 1 with microwave 1"},
			"examine apple 1", "This is a hot and clean apple 1."},
		{"cooling clears heat", v03, []string{"go to countertop 1", "take apple 1 from countertop 1", "go to microwave 1", "heat apple 1 with microwave 1", "go to fridge 1", "cool apple 1 with fridge 1"},
			"examine apple 1", "This is a cold apple 1."},
		{"heating clears cold", v03, []string{"go to countertop 1", "take apple 1 from countertop 1", "go to fridge 1", "cool apple 1 with fridge 1", "go to microwave 1", "heat apple 1 with microwave 1"},
			"examine apple 1", "This is a hot apple 1."},
		{"cool and clean", v03, []string{"go to countertop 1", "take apple 1 from countertop 1", "go to sinkbasin 1", "clean apple 1 with sinkbasin 1", "go to fridge 1", "cool apple 1 with fridge 1"},
			"examine apple 1", "This is a cool and clean apple 1."},
		{"examining a closed receptacle", v03, []string{"go to fridge 1"}, "examine fridge 1", "The fridge 1 is closed."},
		{"empty hands", v03, nil, "inventory", "You are not carrying anything."},
		{"full hands", v03, []string{"go to countertop 1", "take apple 1 from countertop 1"}, "inventory", "You are carrying: a apple 1."},
		{"looking from the middle of the room", v03, nil, "look",
			"You are in the middle of a room. Looking quickly around you, you see a cabinet 1, a countertop 1, a desk 1, a fridge 1, a microwave 1, and a sinkbasin 1."},
		{"looking in front of a receptacle", v03, []string{"go to desk 1"}, "look", "You are facing the desk 1. Next to it, you see nothing."},
		{"a thought", v03, nil, "think: first I need an apple.", "OK."},
		{"case, spaces and a full stop do not matter", v03, nil, "  Go TO\tcountertop 1. ", "You arrive at loc 2. On the countertop 1, you see a apple 1, and a mug 2."},

		{"failures are silent by default", v03, nil, "take apple 1 from countertop 1", textworld.NothingHappens},
		{"unknown words are silent too", v03, nil, "dance", textworld.NothingHappens},
		{"explain: not there", explain, nil, "take apple 1 from countertop 1", "You are not at the countertop 1; go to it first."},
		{"explain: closed", explain, []string{"go to fridge 1"}, "take egg 1 from fridge 1", "The fridge 1 is closed; open it first."},
		{"explain: putting into a closed receptacle", explain, []string{"go to countertop 1", "take apple 1 from countertop 1", "go to fridge 1"},
			"put apple 1 in/on fridge 1", "The fridge 1 is closed; open it first."},
		{"explain: one object in hand", explain, []string{"go to countertop 1", "take apple 1 from countertop 1"},
			"take mug 2 from countertop 1", "You are already carrying the apple 1; put it somewhere first."},
		{"explain: not where it is said to be", explain, []string{"go to countertop 1"}, "take cup 1 from countertop 1", "You see no cup 1 in/on the countertop 1."},
		{"explain: putting what one does not hold", explain, []string{"go to countertop 1"}, "put apple 1 in/on countertop 1", "You are not carrying the apple 1."},
		{"explain: heating needs a microwave", explain, []string{"go to countertop 1", "take apple 1 from countertop 1", "go to fridge 1"},
			"heat apple 1 with fridge 1", "You can heat things only with a microwave."},
		{"explain: cleaning needs a sinkbasin", explain, []string{"go to countertop 1", "take apple 1 from countertop 1"},
			"clean apple 1 with countertop 1", "You can clean things only with a sinkbasin."},
		{"explain: not everything heats", explain, []string{"go to desk 1", "take book 1 from desk 1", "go to microwave 1"},
			"heat book 1 with microwave 1", "The book 1 cannot be heated."},
		{"explain: treating away from the appliance", explain, []string{"go to countertop 1", "take apple 1 from countertop 1"},
			"heat apple 1 with microwave 1", "You are not at the microwave 1; go to it first."},
		{"explain: lamps stay", explain, []string{"go to desk 1"}, "take desklamp 1 from desk 1", "The desklamp 1 cannot be picked up."},
		{"explain: only lamps switch", explain, []string{"go to countertop 1"}, "use apple 1", "The apple 1 has no switch."},
		{"explain: a lamp elsewhere", explain, []string{"go to countertop 1"}, "use desklamp 1", "You see no desklamp 1 here."},
		{"explain: going where one is", explain, []string{"go to countertop 1"}, "go to countertop 1", "You are already at the countertop 1."},
		{"explain: no such receptacle", explain, nil, "go to garage 1", `There is no receptacle called "garage 1" here.`},
		{"explain: an object is no place to go", explain, nil, "go to apple 1", "The apple 1 is not a receptacle."},
		{"explain: a receptacle is no object", explain, []string{"go to desk 1"}, "take desk 1 from desk 1", "The desk 1 is a receptacle, not an object."},
		{"explain: no such object", explain, nil, "examine unicorn 1", `There is no object called "unicorn 1" here.`},
		{"explain: surfaces do not open", explain, []string{"go to countertop 1"}, "open countertop 1", "The countertop 1 cannot be opened."},
		{"explain: already open", explain, []string{"go to fridge 1", "open fridge 1"}, "open fridge 1", "The fridge 1 is already open."},
		{"explain: already closed", explain, []string{"go to fridge 1"}, "close fridge 1", "The fridge 1 is already closed."},
		{"explain: opening from afar", explain, nil, "open fridge 1", "You are not at the fridge 1; go to it first."},
		{"explain: examining what is hidden", explain, []string{"go to fridge 1"}, "examine egg 1", "You see no egg 1 here."},
		{"explain: examining a receptacle from afar", explain, nil, "examine fridge 1", "You are not at the fridge 1; go to it first."},
		{"explain: not a command", explain, nil, "dance", `"dance" is not a command; type "help" to see the commands.`},
		{"explain: a command cut short", explain, nil, "take apple 1", `"take apple 1" is not understood; the form is "take OBJECT from RECEPTACLE".`},
		{"explain: empty", explain, nil, "   ", `the command is empty; type "help" to see the commands.`},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			g := newGame(t, tinyHouse(), tt.opts)
			for _, c := range tt.setup {
				if o := g.Step(c); o == textworld.NothingHappens {
					t.Fatalf("setup %q: %s", c, o)
				}
			}
			if got := g.Step(tt.cmd); got != tt.want {
				t.Errorf("Step(%q) =\n%q\nwant\n%q", tt.cmd, got, tt.want)
			}
		})
	}
}

// Only ALFWorld 0.4's grammar has help (alfred.twl2:420), and it says it
// in that grammar's own words, byte for byte.
func TestHelpMatchesGrammar(t *testing.T) {
	t.Parallel()
	if h := newGame(t, tinyHouse(), v03).Step("help"); h != textworld.NothingHappens {
		t.Errorf("v0.3 help = %q, want %q: that grammar has no help", h, textworld.NothingHappens)
	}
	h := newGame(t, tinyHouse(), v04).Step("help")
	for _, line := range []string{
		"\nAvailable commands:\n  look:                             look around your current location\n",
		"  move (object) to (receptacle):  place an object in or on a receptacle\n",
		"  slice (object) with (object):     slice an object using a sharp object\n",
	} {
		if !strings.Contains(h, line) {
			t.Errorf("v0.4 help lacks ALFWorld's line %q:\n%s", line, h)
		}
	}
	if strings.Contains(h, "in/on") || strings.Contains(h, "think") {
		t.Errorf("v0.4 help teaches what ALFWorld's does not:\n%s", h)
	}
}

func TestNewErrors(t *testing.T) {
	t.Parallel()
	broken := tinyHouse()
	broken.Items[1].In = 99
	tests := []struct {
		why   string
		house *scenes.House
		opts  textworld.Options
		want  string
	}{
		{"grammars are named exactly", tinyHouse(), textworld.Options{Grammar: "0.4"}, `unknown grammar "0.4"`},
		{"feedback is named exactly", tinyHouse(), textworld.Options{Feedback: "verbose"}, `unknown feedback "verbose"`},
		{"no house", nil, v03, "no house"},
		{"a house that does not hold together", broken, v03, "apple 1"},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			_, err := textworld.New(tt.house, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New: error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestNewCopiesTheHouse(t *testing.T) {
	t.Parallel()
	h := tinyHouse()
	g := newGame(t, h, v03)
	g.Step("go to countertop 1")
	g.Step("take apple 1 from countertop 1")
	if !reflect.DeepEqual(h, tinyHouse()) {
		t.Errorf("playing changed the caller's house")
	}
	c := g.Clone()
	c.Step("go to sinkbasin 1")
	c.Step("put apple 1 in/on sinkbasin 1")
	if g.State().Held == scenes.Nowhere {
		t.Errorf("a clone's step changed the original")
	}
}

// allCommands is every command of the grammar over a house's names, in
// canonical form.
func allCommands(h *scenes.House, grammar string) []string {
	out := []string{"look", "inventory", "help"}
	for _, r := range h.Receptacles {
		out = append(out, "go to "+r.Name, "open "+r.Name, "close "+r.Name, "examine "+r.Name)
		for _, it := range h.Items {
			out = append(out,
				"take "+it.Name+" from "+r.Name,
				textworld.PutCommand(grammar, it.Name, r.Name),
				"heat "+it.Name+" with "+r.Name,
				"cool "+it.Name+" with "+r.Name,
				"clean "+it.Name+" with "+r.Name)
		}
	}
	for _, it := range h.Items {
		out = append(out, "examine "+it.Name, "use "+it.Name)
	}
	return out
}

// Admissible lists exactly the commands that succeed: over random walks in
// generated houses, every command of the grammar succeeds if and only if
// it is listed, and the list is sorted.
func TestAdmissibleIsExactlyWhatSucceeds(t *testing.T) {
	t.Parallel()
	for seed := range uint64(4) {
		for _, grammar := range []string{textworld.GrammarV03, textworld.GrammarV04} {
			rng := newRNG(seed)
			room := scenes.HouseRooms()[seed%4]
			h, err := scenes.GenerateHouse(rng, scenes.HouseConfig{Rooms: []string{room}})
			if err != nil {
				t.Fatal(err)
			}
			g := newGame(t, h, textworld.Options{Grammar: grammar})
			universe := allCommands(h, grammar)
			for step := range 25 {
				adm := g.Admissible()
				if !isSorted(adm) {
					t.Fatalf("Admissible() not sorted: %q", adm)
				}
				listed := map[string]bool{}
				for _, c := range adm {
					listed[c] = true
				}
				for _, c := range universe {
					ok := g.Clone().Step(c) != textworld.NothingHappens
					if ok != listed[c] {
						t.Fatalf("seed %d %s step %d: %q succeeds=%v but admissible=%v", seed, grammar, step, c, ok, listed[c])
					}
				}
				// Walk on, preferring commands that change something.
				var moves []string
				for _, c := range adm {
					if !strings.HasPrefix(c, "examine") && c != "look" && c != "help" && c != "inventory" {
						moves = append(moves, c)
					}
				}
				g.Step(moves[rng.IntN(len(moves))])
			}
		}
	}
}

// Every command the engine prints, as Admissible lists it, survives print
// and parse: over random walks in generated houses of every room, in both
// grammars, Parse reads each as a command that Format writes back as the
// same text.
func TestAdmissibleSurvivesPrintAndParse(t *testing.T) {
	t.Parallel()
	checked := 0
	for seed := range uint64(8) {
		for _, grammar := range []string{textworld.GrammarV03, textworld.GrammarV04} {
			rng := newRNG(seed)
			h, err := scenes.GenerateHouse(rng, scenes.HouseConfig{Rooms: []string{scenes.HouseRooms()[seed%uint64(len(scenes.HouseRooms()))]}})
			if err != nil {
				t.Fatal(err)
			}
			g := newGame(t, h, textworld.Options{Grammar: grammar})
			for range 30 {
				adm := g.Admissible()
				for _, text := range adm {
					c, err := textworld.Parse(text)
					if err != nil {
						t.Fatalf("seed %d %s: Admissible lists %q, which Parse refuses: %v", seed, grammar, text, err)
					}
					if back := c.Format(grammar); back != text {
						t.Fatalf("seed %d %s: %q parses to %+v, which Format writes as %q", seed, grammar, text, c, back)
					}
					checked++
				}
				g.Step(adm[rng.IntN(len(adm))])
			}
		}
	}
	if checked == 0 {
		t.Fatal("no command checked")
	}
}

func isSorted(s []string) bool {
	for i := 1; i < len(s); i++ {
		if s[i-1] > s[i] {
			return false
		}
	}
	return true
}

func TestShortestPlan(t *testing.T) {
	t.Parallel()
	tests := []struct {
		why  string
		goal func(*scenes.House) bool
		want int
	}{
		{"already true", func(*scenes.House) bool { return true }, 0},
		{"hold the egg: go, open, take", func(h *scenes.House) bool { return h.Held == 5 }, 3},
		{"a hot egg in the sinkbasin: go, open, take, go, heat, go, put",
			func(h *scenes.House) bool { return h.Items[5].Hot && h.Items[5].In == 5 }, 7},
		{"the book lit: go, take, use", func(h *scenes.House) bool { return h.Held == 4 && h.Items[3].On && h.At == 2 }, 3},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			g := newGame(t, tinyHouse(), v03)
			plan, ok := textworld.ShortestPlan(g, tt.goal, nil, 8)
			if !ok || len(plan) != tt.want {
				t.Fatalf("ShortestPlan = %q, %v; want %d commands", plan, ok, tt.want)
			}
			for _, c := range plan {
				g.Step(c)
			}
			if !tt.goal(g.State()) {
				t.Errorf("the plan %q does not reach the goal", plan)
			}
		})
	}
	g := newGame(t, tinyHouse(), v03)
	if _, ok := textworld.ShortestPlan(g, func(h *scenes.House) bool { return h.Items[4].Hot }, nil, 8); ok {
		t.Errorf("found a plan to heat a book, which cannot be heated")
	}
	if g.Steps() != 0 {
		t.Errorf("searching stepped the game itself")
	}
}
