package textworld_test

import (
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/sim/textworld"
)

// stackedKitchen is a layout of our own with what ALFWorld's rooms have
// and the older generator could not make: two cabinets at one place
// (cabinet 2 and cabinet 1 at loc 3), a cabinet that does not open
// (cabinet 3), and a countertop whose items are stored out of ALFWorld's
// listing order.
func stackedKitchen() *scenes.House {
	return &scenes.House{
		Rooms: []string{scenes.RoomKitchen},
		Receptacles: []scenes.Receptacle{
			{Name: "cabinet 3", Kind: "cabinet", Room: scenes.RoomKitchen, Loc: 1},
			{Name: "cabinet 2", Kind: "cabinet", Room: scenes.RoomKitchen, Loc: 3, Openable: true},
			{Name: "cabinet 1", Kind: "cabinet", Room: scenes.RoomKitchen, Loc: 3, Openable: true},
			{Name: "countertop 1", Kind: "countertop", Room: scenes.RoomKitchen, Loc: 2},
			{Name: "toaster 1", Kind: "toaster", Room: scenes.RoomKitchen, Loc: 4},
		},
		Items: []scenes.Item{
			{Name: "fork 1", Kind: "fork", In: 3},
			{Name: "bowl 1", Kind: "bowl", In: 3},
			{Name: "fork 3", Kind: "fork", In: 3},
			{Name: "bread 1", Kind: "bread", In: 3},
			{Name: "bowl 2", Kind: "bowl", In: 3},
			{Name: "fork 2", Kind: "fork", In: 3},
			{Name: "saltshaker 1", Kind: "saltshaker", In: 1},
			{Name: "houseplant 1", Kind: "houseplant", In: 3},
		},
		At:   scenes.Nowhere,
		Held: scenes.Nowhere,
	}
}

// Each transcript is what ALFWorld's grammar (alfred.twl2) and domain
// (alfred.pddl) say for these commands in this house, written out by hand
// from them; the engine must say it byte for byte.
func TestALFWorldTranscripts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		why   string
		opts  textworld.Options
		steps [][2]string // command, observation
	}{
		{"contents are listed by kind, then by number from the highest, as ALFWorld's transcripts show", v03, [][2]string{
			{"go to countertop 1", "You arrive at loc 2. On the countertop 1, you see a bowl 2, a bowl 1, a bread 1, a fork 3, a fork 2, a fork 1, and a houseplant 1."},
		}},
		{"a cabinet that does not open shows its contents on arrival (examineReceptacle.feedback's third case)", v03, [][2]string{
			{"go to cabinet 3", "You arrive at loc 1. On the cabinet 3, you see nothing."},
			{"open cabinet 3", textworld.NothingHappens},
		}},
		{"two cabinets at one place: going from one to the other does nothing, look faces both (look-variations)", v03, [][2]string{
			{"go to cabinet 1", "You arrive at loc 3. The cabinet 1 is closed."},
			{"go to cabinet 2", textworld.NothingHappens},
			{"look", "You are facing the cabinet 2, and cabinet 1. Next to it, you see nothing."},
			{"open cabinet 2", "You open the cabinet 2. The cabinet 2 is open. In it, you see a saltshaker 1."},
			{"take saltshaker 1 from cabinet 2", "You pick up the saltshaker 1 from the cabinet 2."},
			{"open cabinet 1", "You open the cabinet 1. The cabinet 1 is open. In it, you see nothing."},
			{"put saltshaker 1 in/on cabinet 1", "You put the saltshaker 1 in/on the cabinet 1."},
			{"examine cabinet 2", "The cabinet 2 is open. In it, you see nothing."},
		}},
		{"v0.4 names the receptacle on arrival and moves with move alone", v04, [][2]string{
			{"go to cabinet 1", "You arrive at cabinet 1. The cabinet 1 is closed."},
			{"open cabinet 2", "You open the cabinet 2. The cabinet 2 is open. In it, you see a saltshaker 1."},
			{"take saltshaker 1 from cabinet 2", "You pick up the saltshaker 1 from the cabinet 2."},
			{"go to countertop 1", "You arrive at countertop 1. On the countertop 1, you see a bowl 2, a bowl 1, a bread 1, a fork 3, a fork 2, a fork 1, and a houseplant 1."},
			{"put saltshaker 1 in/on countertop 1", textworld.NothingHappens},
			{"move saltshaker 1 to countertop 1", "You move the saltshaker 1 to the countertop 1."},
		}},
		{"scenery stays; a toaster holds nothing unsliced (constants.py:1125)", v03, [][2]string{
			{"go to countertop 1", "You arrive at loc 2. On the countertop 1, you see a bowl 2, a bowl 1, a bread 1, a fork 3, a fork 2, a fork 1, and a houseplant 1."},
			{"take houseplant 1 from countertop 1", textworld.NothingHappens},
			{"examine houseplant 1", "There's nothing special about houseplant 1."},
			{"take bread 1 from countertop 1", "You pick up the bread 1 from the countertop 1."},
			{"go to toaster 1", "You arrive at loc 4. On the toaster 1, you see nothing."},
			{"put bread 1 in/on toaster 1", textworld.NothingHappens},
			{"inventory", "You are carrying: a bread 1."},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			g := newGame(t, stackedKitchen(), tt.opts)
			for i, st := range tt.steps {
				if got := g.Step(st[0]); got != st[1] {
					t.Fatalf("step %d, %q:\n got %q\nwant %q", i+1, st[0], got, st[1])
				}
			}
		})
	}
}

// What is admissible at a shared place covers every receptacle there, and
// never a go to the place itself or a put that canContain forbids.
func TestAdmissibleAtSharedPlace(t *testing.T) {
	t.Parallel()
	g := newGame(t, stackedKitchen(), v03)
	g.Step("go to cabinet 1")
	got := strings.Join(g.Admissible(), "|")
	for _, want := range []string{"open cabinet 1", "open cabinet 2", "go to cabinet 3", "go to countertop 1"} {
		if !strings.Contains(got, want) {
			t.Errorf("Admissible lacks %q: %s", want, got)
		}
	}
	for _, not := range []string{"go to cabinet 1", "go to cabinet 2", "help"} {
		if strings.Contains(got, not+"|") || strings.HasSuffix(got, not) {
			t.Errorf("Admissible offers %q: %s", not, got)
		}
	}
	g.Step("go to countertop 1")
	g.Step("take bread 1 from countertop 1")
	g.Step("go to toaster 1")
	if adm := strings.Join(g.Admissible(), "|"); strings.Contains(adm, "put bread 1") {
		t.Errorf("Admissible offers a put the toaster cannot take: %s", adm)
	}
}
