package grounding

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
	"github.com/go-gl/mathgl/mgl64"
)

// obj is the Ref of a plain colour-and-class phrase.
func obj(phrase, color, class string) Ref {
	return Ref{Phrase: phrase, Color: color, Class: class}
}

// rel is the Ref of "the block <words> <anchor>".
func rel(phrase, relation string, anchor Ref) Ref {
	return Ref{Phrase: phrase, Class: scenes.ClassBlock, Relation: relation, Anchor: &anchor}
}

func TestParseRef(t *testing.T) {
	tests := []struct {
		name   string
		phrase string
		want   Ref
	}{
		{"colour and class with the", "the red block", obj("the red block", "red", "block")},
		{"colour and class with a", "a blue bowl", obj("a blue bowl", "blue", "bowl")},
		{"colour and class with an", "an orange bowl", obj("an orange bowl", "orange", "bowl")},
		{"bare colour and class", "green block", obj("green block", "green", "block")},
		{"case, spaces and end punctuation are folded", "  The  RED   Block. ", obj("the red block", "red", "block")},
		{"quotes are dropped", `"the red block"`, obj("the red block", "red", "block")},
		{"numbered id", "red block 2", Ref{Phrase: "red block 2", Color: "red", Class: "block", ID: "red block 2"}},
		{"numbered id with the", "the blue bowl 1", Ref{Phrase: "the blue bowl 1", Color: "blue", Class: "bowl", ID: "blue bowl 1"}},
		{"numbered id with two digits", "gray block 12", Ref{Phrase: "gray block 12", Color: "gray", Class: "block", ID: "gray block 12"}},
		{"vague: something", "something", Ref{Phrase: "something", Vague: true}},
		{"vague: that thing", "That thing", Ref{Phrase: "that thing", Vague: true}},
		{"vague: the item", "the item", Ref{Phrase: "the item", Vague: true}},
		{"vague: the object", "the object", Ref{Phrase: "the object", Vague: true}},
		{"vague: it", "it", Ref{Phrase: "it", Vague: true}},
		{"named place", "the top left corner", Ref{Phrase: "the top left corner", Place: "top left corner"}},
		{"named place without the", "middle", Ref{Phrase: "middle", Place: "middle"}},
		{"named side", "the bottom side", Ref{Phrase: "the bottom side", Place: "bottom side"}},
		{"the shared workspace", "the shared workspace", Ref{Phrase: "the shared workspace", Place: scenes.SharedPlace}},
		{"shared workspace without the", "Shared workspace", Ref{Phrase: "shared workspace", Place: scenes.SharedPlace}},
		{"to the left of a bowl", "the block to the left of the blue bowl",
			rel("the block to the left of the blue bowl", scenes.RelLeftOf, obj("the blue bowl", "blue", "bowl"))},
		{"to the right of a block", "the block to the right of the red block",
			rel("the block to the right of the red block", scenes.RelRightOf, obj("the red block", "red", "block"))},
		{"short left of", "a block left of the green bowl",
			rel("a block left of the green bowl", scenes.RelLeftOf, obj("the green bowl", "green", "bowl"))},
		{"short right of", "block right of the green bowl",
			rel("block right of the green bowl", scenes.RelRightOf, obj("the green bowl", "green", "bowl"))},
		{"above", "the block above the pink bowl",
			rel("the block above the pink bowl", scenes.RelAbove, obj("the pink bowl", "pink", "bowl"))},
		{"below a numbered anchor", "the block below blue bowl 2",
			rel("the block below blue bowl 2", scenes.RelBelow, Ref{Phrase: "blue bowl 2", Color: "blue", Class: "bowl", ID: "blue bowl 2"})},
		{"a coloured block by where it stands (a user's answer to a robot that names what it sees)", "the blue block to the left of the pink block",
			Ref{Phrase: "the blue block to the left of the pink block", Color: "blue", Class: scenes.ClassBlock, Relation: scenes.RelLeftOf, Anchor: ptr(obj("the pink block", "pink", "block"))}},
		{"a coloured bowl by where it stands", "the gray bowl above the red block",
			Ref{Phrase: "the gray bowl above the red block", Color: "gray", Class: scenes.ClassBowl, Relation: scenes.RelAbove, Anchor: ptr(obj("the red block", "red", "block"))}},
		{"one of a pair by where it stands from the other (no other anchor on the table)", "the red block left of the other red block",
			Ref{Phrase: "the red block left of the other red block", Color: "red", Class: scenes.ClassBlock, Relation: scenes.RelLeftOf,
				Anchor: &Ref{Phrase: "the other red block", Color: "red", Class: scenes.ClassBlock, Other: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseRef(tt.phrase)
			if err != nil {
				t.Fatalf("ParseRef(%q): %v", tt.phrase, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseRef(%q) =\n %+v\nwant\n %+v", tt.phrase, got, tt.want)
			}
			if got.String() != tt.want.Phrase {
				t.Errorf("String() = %q, want the phrase %q", got.String(), tt.want.Phrase)
			}
		})
	}
}

func TestParseRefErrors(t *testing.T) {
	tests := []struct {
		name   string
		phrase string
		want   string // a substring of the error
	}{
		{"empty", "", "empty"},
		{"only spaces and punctuation", "  . ", "empty"},
		{"unknown colour", "the magenta block", `"the magenta block"`},
		{"unknown class", "the red cup", "cannot read"},
		{"colour alone", "red", "cannot read"},
		{"class alone", "the block", "cannot read"},
		{"nonsense", "flibber jabber", "cannot read"},
		{"a number that is not an id", "red block two", "cannot read"},
		{"unknown place", "the top middle corner", "cannot read"},
		{"relational with a vague anchor", "the block to the left of something", "must name an object plainly"},
		{"relational with a relational anchor", "the block left of block right of the red bowl", "must name an object plainly"},
		{"relational with an unknown anchor", "the block above the magenta bowl", "anchor of"},
		{"relational with a bowl and no colour", "the bowl to the left of the red block", "cannot read"},
		{"relational with an unknown colour", "the magenta block to the left of the red bowl", "cannot read"},
		{"an id too large to be a number", "red block 99999999999999999999", "red block 99999999999999999999"},
		{"the other of another kind names no pair", "the red block left of the other blue block", "the same colour and class"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseRef(tt.phrase)
			if err == nil {
				t.Fatalf("ParseRef(%q) = %+v, want an error", tt.phrase, got)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseRef(%q) error %q does not mention %q", tt.phrase, err, tt.want)
			}
		})
	}
}

// move builds a Move; place "" means no destination.
func move(pick, place Ref) Move {
	if place == (Ref{}) {
		return Move{Pick: pick}
	}
	return Move{Pick: pick, Place: &place}
}

func TestParseInstruction(t *testing.T) {
	redBlock := obj("the red block", "red", "block")
	blueBowl := obj("the blue bowl", "blue", "bowl")
	greenBowl := obj("the green bowl", "green", "bowl")
	yellowBlock := obj("the yellow block", "yellow", "block")
	tests := []struct {
		name string
		text string
		want []Move
	}{
		{"pick up and place it in", "Pick up the red block and place it in the blue bowl.", []Move{move(redBlock, blueBowl)}},
		{"pick up and put it on", "Pick up the red block and put it on the yellow block.", []Move{move(redBlock, yellowBlock)}},
		{"put in", "Put the red block in the blue bowl.", []Move{move(redBlock, blueBowl)}},
		{"place on a block", "Place the red block on the yellow block.", []Move{move(redBlock, yellowBlock)}},
		{"put into", "put the red block into the blue bowl", []Move{move(redBlock, blueBowl)}},
		{"place at a named place", "Place the red block at the top left corner.",
			[]Move{move(redBlock, Ref{Phrase: "the top left corner", Place: "top left corner"})}},
		{"put in the shared workspace", "Put the red block in the shared workspace.",
			[]Move{move(redBlock, Ref{Phrase: "the shared workspace", Place: scenes.SharedPlace})}},
		{"numbered ids", "Put red block 2 in blue bowl 1.", []Move{move(
			Ref{Phrase: "red block 2", Color: "red", Class: "block", ID: "red block 2"},
			Ref{Phrase: "blue bowl 1", Color: "blue", Class: "bowl", ID: "blue bowl 1"})}},
		{"long horizon, two moves", "Put the red block in the blue bowl, then the yellow block in the green bowl.",
			[]Move{move(redBlock, blueBowl), move(yellowBlock, greenBowl)}},
		{"long horizon, three moves", "Put the red block in the blue bowl, then the yellow block in the green bowl, then the pink block on the red block.",
			[]Move{move(redBlock, blueBowl), move(yellowBlock, greenBowl), move(obj("the pink block", "pink", "block"), redBlock)}},
		{"long horizon with first and then put", "First put the red block in the blue bowl, then put the yellow block in the green bowl.",
			[]Move{move(redBlock, blueBowl), move(yellowBlock, greenBowl)}},
		{"long horizon with first, three moves", "First put the red block in the blue bowl, then put the yellow block in the green bowl, then put the pink block in the blue bowl.",
			[]Move{move(redBlock, blueBowl), move(yellowBlock, greenBowl), move(obj("the pink block", "pink", "block"), blueBowl)}},
		{"can you move away", "Can you move the red block away?", []Move{move(redBlock, Ref{})}},
		{"move away", "Move the red block away.", []Move{move(redBlock, Ref{})}},
		{"put somewhere else", "Put the red block somewhere else.", []Move{move(redBlock, Ref{})}},
		{"spatial pick", "Pick up the block to the left of the blue bowl and place it in the green bowl.",
			[]Move{move(rel("the block to the left of the blue bowl", scenes.RelLeftOf, blueBowl), greenBowl)}},
		{"spatial pick with put", "Put the block above the red block in the blue bowl.",
			[]Move{move(rel("the block above the red block", scenes.RelAbove, redBlock), blueBowl)}},
		{"vague pick: something", "Put something in the blue bowl.", []Move{move(Ref{Phrase: "something", Vague: true}, blueBowl)}},
		{"vague pick: that thing", "Pick up that thing and place it in the blue bowl.", []Move{move(Ref{Phrase: "that thing", Vague: true}, blueBowl)}},
		{"vague pick in a long horizon", "Put the red block in the blue bowl, then the object in the green bowl.",
			[]Move{move(redBlock, blueBowl), move(Ref{Phrase: "the object", Vague: true}, greenBowl)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseInstruction(tt.text)
			if err != nil {
				t.Fatalf("ParseInstruction(%q): %v", tt.text, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseInstruction(%q) =\n %s\nwant\n %s", tt.text, fmtMoves(got), fmtMoves(tt.want))
			}
		})
	}
}

func fmtMoves(ms []Move) string {
	var b strings.Builder
	for _, m := range ms {
		b.WriteString("{pick ")
		b.WriteString(fmtRef(m.Pick))
		if m.Place != nil {
			b.WriteString(" place ")
			b.WriteString(fmtRef(*m.Place))
		}
		b.WriteString("} ")
	}
	return b.String()
}

func fmtRef(r Ref) string {
	s := "[" + r.Phrase + " id=" + r.ID + " color=" + r.Color + " class=" + r.Class + " place=" + r.Place + " rel=" + r.Relation
	if r.Vague {
		s += " vague"
	}
	if r.Anchor != nil {
		s += " anchor=" + fmtRef(*r.Anchor)
	}
	return s + "]"
}

func TestParseInstructionErrors(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"empty", "", "empty"},
		{"no destination", "Pick up the red block.", "no destination"},
		{"unknown colour of the pick", "Put the magenta block in the blue bowl.", "magenta"},
		{"unknown destination", "Put the red block in the big box.", "the big box"},
		{"the second clause is named", "Put the red block in the blue bowl, then dance.", "clause 2"},
		{"move away with an unknown object", "Move the magenta block away.", "magenta"},
		{"nonsense", "What a lovely day.", "no destination"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseInstruction(tt.text)
			if err == nil {
				t.Fatalf("ParseInstruction(%q) = %s, want an error", tt.text, fmtMoves(got))
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseInstruction(%q) error %q does not mention %q", tt.text, err, tt.want)
			}
		})
	}
}

func TestParseAnswer(t *testing.T) {
	tests := []struct {
		name, text string
		want       Ref
	}{
		{"I mean an id", "I mean red block 2.", Ref{Phrase: "red block 2", Color: "red", Class: "block", ID: "red block 2"}},
		{"I meant a phrase", "I meant the blue block.", obj("the blue block", "blue", "block")},
		{"absence of a block: take another", "There is no such block here. Take the green block instead.", obj("the green block", "green", "block")},
		{"underspecified destination", "Put it in the blue bowl.", obj("the blue bowl", "blue", "bowl")},
		{"put it on a block", "Put it on the red block.", obj("the red block", "red", "block")},
		{"absence of a bowl: put it elsewhere", "There is no such bowl here. Put it in the green bowl instead.", obj("the green bowl", "green", "bowl")},
		{"relational answer", "I mean the block to the left of the red bowl.",
			rel("the block to the left of the red bowl", scenes.RelLeftOf, obj("the red bowl", "red", "bowl"))},
		{"place answer", "Put it at the top right corner.", Ref{Phrase: "the top right corner", Place: "top right corner"}},
		{"shared workspace answer", "Place it in the shared workspace!", Ref{Phrase: "the shared workspace", Place: scenes.SharedPlace}},
		{"a bare phrase", "The pink bowl.", obj("the pink bowl", "pink", "bowl")},
		{"the last sentence that names something wins", "Use the red block. Sorry.", obj("the red block", "red", "block")},
		{"use", "Use blue bowl 3!", Ref{Phrase: "blue bowl 3", Color: "blue", Class: "bowl", ID: "blue bowl 3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseAnswer(tt.text)
			if err != nil {
				t.Fatalf("ParseAnswer(%q): %v", tt.text, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseAnswer(%q) =\n %s\nwant\n %s", tt.text, fmtRef(got), fmtRef(tt.want))
			}
		})
	}
}

func TestParseAnswerErrors(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"empty", "", "names no object or place"},
		{"only context", "There is no such block here.", "names no object or place"},
		{"a vague bare phrase names nothing", "Something.", "names no object or place"},
		{"a lead with an unknown object", "I mean the magenta block.", "magenta"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseAnswer(tt.text)
			if err == nil {
				t.Fatalf("ParseAnswer(%q) = %s, want an error", tt.text, fmtRef(got))
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseAnswer(%q) error %q does not mention %q", tt.text, err, tt.want)
			}
		})
	}
}

func TestParseHandRequest(t *testing.T) {
	tests := []struct {
		name, text string
		want       Ref
		wantErr    bool
	}{
		{"put in the shared workspace", "Please put the red block in the shared workspace.", obj("the red block", "red", "block"), false},
		{"an id", "Please put red block 2 in the shared workspace.", Ref{Phrase: "red block 2", Color: "red", Class: "block", ID: "red block 2"}, false},
		{"after a first sentence", "I cannot see the red block. If you can, please put the red block in the shared workspace.", obj("the red block", "red", "block"), false},
		{"bring to", "Could you bring the green block to the shared workspace?", obj("the green block", "green", "block"), false},
		{"move into", "Move the blue block into the shared workspace", obj("the blue block", "blue", "block"), false},
		{"place on", "PLACE the yellow block ON the shared workspace.", obj("the yellow block", "yellow", "block"), false},
		{"no shared workspace", "Please put the red block in the blue bowl.", Ref{}, true},
		{"no request", "Hello there.", Ref{}, true},
		{"an unknown object", "Please put the magenta block in the shared workspace.", Ref{}, true},
		{"empty", "", Ref{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseHandRequest(tt.text)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("ParseHandRequest(%q) = %s, want an error", tt.text, fmtRef(got))
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseHandRequest(%q): %v", tt.text, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseHandRequest(%q) = %s, want %s", tt.text, fmtRef(got), fmtRef(tt.want))
			}
		})
	}
}

// A robot that sees the block but not its destination, with a partner:
// it puts the block in the shared workspace and asks the partner to place
// it (no move of its own is left once the partner reports it did); a
// block already in the partner's workspace is not moved first; a partner
// that cannot see the destination either leaves the absence question.
func TestDecideHandsOffAnUnseenDestination(t *testing.T) {
	in := func(o scenes.Object, region string) scenes.Object { o.Region = region; return o }
	mine := scenes.BuildGraph([]scenes.Object{
		in(scenes.NewBlock("red block 1", "red", -0.2, -0.3), scenes.RegionRobot1),
		in(scenes.NewBowl("green bowl 1", "green", 0, -0.6), scenes.RegionShared),
	})
	theirs := scenes.BuildGraph([]scenes.Object{
		in(scenes.NewBlock("red block 1", "red", 0.2, -0.3), scenes.RegionRobot2),
		in(scenes.NewBowl("green bowl 1", "green", 0, -0.6), scenes.RegionShared),
	})
	const inst = "Put the red block in the blue bowl."
	handOff := DeliverRequest("red block 1", Ref{Phrase: "the blue bowl", Class: scenes.ClassBowl}, true)
	for _, tc := range []struct {
		why     string
		g       *scenes.Graph
		partner string
		history []Exchange
		kind    string
		text    string
		moves   []Binding
	}{
		{"first: the block to the shared workspace, then the message", mine, scenes.Robot2, nil,
			ActAskRobot, handOff, []Binding{{"red block 1", scenes.SharedPlace}}},
		{"the partner placed it: nothing left to move", mine, scenes.Robot2,
			[]Exchange{{Kind: ActAskRobot, Text: handOff, Reply: DeliverReply("red block 1", "blue bowl 1")}},
			ActMove, "", nil},
		{"the partner cannot see it either: absence", mine, scenes.Robot2,
			[]Exchange{{Kind: ActAskRobot, Text: handOff, Reply: "I see 0 objects matching the blue bowl."}},
			ActAsk, "I cannot find the blue bowl. What should I use instead?", nil},
		{"the block is in the partner's workspace: no move first", theirs, scenes.Robot2, nil,
			ActAskRobot, "I cannot see the blue bowl. Please put red block 1 in the blue bowl.", nil},
		{"no partner: absence at once", mine, "", nil,
			ActAsk, "I cannot find the blue bowl. What should I use instead?", nil},
	} {
		t.Run(tc.why, func(t *testing.T) {
			d := Decide(Situation{Instruction: inst, Partner: tc.partner, View: GraphView{G: tc.g}, History: tc.history})
			if d.Kind != tc.kind || d.Text != tc.text || !slices.Equal(d.Moves, tc.moves) {
				t.Errorf("got %s %q moves %v, want %s %q moves %v", d.Kind, d.Text, d.Moves, tc.kind, tc.text, tc.moves)
			}
		})
	}
}

// The partner reads the block and the destination out of a hand-off, and
// the robot reads the partner's report back; a request to bring a block
// to the shared workspace is not a hand-off.
func TestDeliverMessagesRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		why, msg, id, dst string
		ok                bool
	}{
		{"after a move to the shared workspace", DeliverRequest("red block 1", Ref{Phrase: "the blue bowl", Class: scenes.ClassBowl}, true), "red block 1", "the blue bowl", true},
		{"onto a block, no move first", DeliverRequest("red block 1", Ref{Phrase: "the cyan block", Class: scenes.ClassBlock}, false), "red block 1", "the cyan block", true},
		{"a hand request is not a hand-off", HandRequest("red block 1"), "", "", false},
	} {
		t.Run(tc.why, func(t *testing.T) {
			id, dst, err := ParseDeliverRequest(tc.msg)
			if (err == nil) != tc.ok || id != tc.id || (tc.ok && dst.Phrase != tc.dst) {
				t.Errorf("ParseDeliverRequest(%q) = %q, %q, %v", tc.msg, id, dst.Phrase, err)
			}
		})
	}
	if id, dst, ok := ParseDeliverReply(DeliverReply("red block 1", "blue bowl 1")); !ok || id != "red block 1" || dst != "blue bowl 1" {
		t.Errorf("ParseDeliverReply: %q %q %v", id, dst, ok)
	}
	if _, _, ok := ParseDeliverReply(HandReply("red block 1")); ok {
		t.Error("a hand reply read as a delivery")
	}
}

// ParseInstruction gives what reading the instruction gives, whether it
// read it before or not, and what a caller changes of the moves it was
// given changes nothing that a later call returns.
func TestParseInstructionKept(t *testing.T) {
	for _, s := range []string{
		"put the block to the left of the blue bowl in the red bowl",
		"pick up the red block and place it in the green bowl, then put the blue block on the red block",
		"move the yellow block away",
		"put the red block in", // an error, kept as well
	} {
		want, wantErr := parseInstruction(s)
		// The first call reads it, the second takes it from what was
		// kept, the third finds it unchanged by what the second's caller did.
		for range 3 {
			got, err := ParseInstruction(s)
			if !reflect.DeepEqual(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("ParseInstruction(%q) = %+v, %v; reading it gives %+v, %v", s, got, err, want, wantErr)
			}
			for i := range got {
				got[i].Pick.Phrase = "changed"
				for a := got[i].Pick.Anchor; a != nil; a = a.Anchor {
					a.Color = "changed"
				}
				if got[i].Place != nil {
					got[i].Place.ID = "changed"
				}
			}
		}
	}
}

func ptr[T any](v T) *T { return &v }

// TestDescribe: a robot that does not share the other's ids names a block
// by a phrase the other can resolve to it alone on the same table, and
// Resolve reads each phrase back to the block described.
func TestDescribe(t *testing.T) {
	at := func(id, class string, x, y float64) scenes.Object {
		c := strings.Fields(id)[0]
		return scenes.Object{ID: id, Class: class, Attributes: map[string]string{scenes.AttrColor: c, scenes.AttrType: class},
			Pose: mgl64.Vec3{x, y, 0.02}, Extent: mgl64.Vec3{0.04, 0.04, 0.04}}
	}
	tests := []struct {
		name string
		objs []scenes.Object
		id   string
		want string
	}{
		{"the only one of its kind: its colour and class", []scenes.Object{at("red block 1", "block", 0, -0.5), at("blue bowl 1", "bowl", 0.2, -0.5)},
			"red block 1", "the red block"},
		{"one of two, told apart by a unique anchor", []scenes.Object{at("red block 1", "block", -0.2, -0.5), at("red block 2", "block", 0.2, -0.5), at("blue bowl 1", "bowl", 0, -0.5)},
			"red block 2", "the red block right of the blue bowl"},
		{"one of two with no anchor that tells them apart: from the other", []scenes.Object{at("red block 1", "block", -0.2, -0.5), at("red block 2", "block", 0.2, -0.5)},
			"red block 1", "the red block left of the other red block"},
		{"three alike and nothing else: only the id names it", []scenes.Object{at("red block 1", "block", -0.2, -0.5), at("red block 2", "block", 0, -0.5), at("red block 3", "block", 0.2, -0.5)},
			"red block 2", "red block 2"},
		{"not on the table: the id as given", []scenes.Object{at("red block 1", "block", 0, -0.5)}, "green block 1", "green block 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := GraphView{G: scenes.BuildGraph(tt.objs)}
			got := Describe(v, tt.id)
			if got != tt.want {
				t.Fatalf("Describe(%s) = %q, want %q", tt.id, got, tt.want)
			}
			ref, err := ParseRef(got)
			if err != nil {
				t.Fatalf("ParseRef(%q): %v", got, err)
			}
			want := []string{tt.id}
			if !slices.ContainsFunc(tt.objs, func(o scenes.Object) bool { return o.ID == tt.id }) {
				want = nil // an id not on the table resolves to nothing
			}
			if ids, err := Resolve(v, ref); err != nil || !slices.Equal(ids, want) {
				t.Errorf("Resolve(%q) = %v, %v; want %v", got, ids, err, want)
			}
		})
	}
}
