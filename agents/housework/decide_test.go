package housework

import (
	"strings"
	"testing"
)

// room is a small kitchen and bedroom corner: two surfaces, three things
// that open, the appliances, and a desk.
const room = "You are in the middle of a room. Looking quickly around you, you see a cabinet 1, a countertop 1, a desk 1, a drawer 1, a fridge 1, a microwave 1, a shelf 1, and a sinkbasin 1."

func tu(cmd, obs string) Turn    { return Turn{Command: cmd, Observation: obs} }
func asked(tag, ans string) Turn { return Turn{Tag: tag, Question: "?", Answer: ans} }

var (
	atCountertopApple = tu("go to countertop 1", "You arrive at loc 2. On the countertop 1, you see a apple 1, and a mug 1.")
	takeApple         = tu("take apple 1 from countertop 1", "You pick up the apple 1 from the countertop 1.")
	atMicrowave       = tu("go to microwave 1", "You arrive at loc 6. The microwave 1 is closed.")
	heatApple         = tu("heat apple 1 with microwave 1", "You heat the apple 1 using the microwave 1.")
	atFridge          = tu("go to fridge 1", "You arrive at loc 5. The fridge 1 is closed.")
	openFridge        = tu("open fridge 1", "You open the fridge 1. The fridge 1 is open. In it, you see nothing.")
	atShelfMug        = tu("go to shelf 1", "You arrive at loc 7. On the shelf 1, you see a mug 2.")
	atSinkEmpty       = tu("go to sinkbasin 1", "You arrive at loc 8. On the sinkbasin 1, you see nothing.")
	atCountertopEmpty = tu("go to countertop 1", "You arrive at loc 2. On the countertop 1, you see nothing.")
	atCabinet         = tu("go to cabinet 1", "You arrive at loc 1. The cabinet 1 is closed.")
	openCabinetEmpty  = tu("open cabinet 1", "You open the cabinet 1. The cabinet 1 is open. In it, you see nothing.")
	atDrawer          = tu("go to drawer 1", "You arrive at loc 4. The drawer 1 is closed.")
	openDrawerEmpty   = tu("open drawer 1", "You open the drawer 1. The drawer 1 is open. In it, you see nothing.")
	openMicroEmpty    = tu("open microwave 1", "You open the microwave 1. The microwave 1 is open. In it, you see nothing.")
	atDeskEmpty       = tu("go to desk 1", "You arrive at loc 3. On the desk 1, you see nothing.")
)

func TestDecide(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why         string
		instruction string
		turns       []Turn
		slips       Slips
		noPriors    bool
		kind        string // Act, Ask or Stuck
		want        string // the command, the tag, or a part of Why
		step        string
	}{
		{"a vague task is asked about before anything else", "put something hot in fridge.", nil, Slips{}, false, Ask, "underspecified", StepAsk},
		{"an apple is searched for on a likely surface first, not in the cabinet listed first",
			"put a hot apple in fridge.", nil, Slips{}, false, Act, "go to countertop 1", StepSearch},
		{"without priors the search follows the room's listing",
			"put a hot apple in fridge.", nil, Slips{}, true, Act, "go to cabinet 1", StepSearch},
		{"arrived at a closed likely place: open it", "put a hot apple in fridge.",
			[]Turn{atCountertopEmpty, atSinkEmpty, atFridge}, Slips{}, false, Act, "open fridge 1", StepSearch},
		{"an apple in view is taken", "put a hot apple in fridge.", []Turn{atCountertopApple}, Slips{}, false, Act, "take apple 1 from countertop 1", StepTake},
		{"an untreated apple in hand goes to the microwave", "put a hot apple in fridge.",
			[]Turn{atCountertopApple, takeApple}, Slips{}, false, Act, "go to microwave 1", StepTreat},
		{"at the microwave, closed, heat at once", "put a hot apple in fridge.",
			[]Turn{atCountertopApple, takeApple, atMicrowave}, Slips{}, false, Act, "heat apple 1 with microwave 1", StepTreat},
		{"a hot apple goes to the fridge", "put a hot apple in fridge.",
			[]Turn{atCountertopApple, takeApple, atMicrowave, heatApple}, Slips{}, false, Act, "go to fridge 1", StepPlace},
		{"the closed fridge is opened before putting", "put a hot apple in fridge.",
			[]Turn{atCountertopApple, takeApple, atMicrowave, heatApple, atFridge}, Slips{}, false, Act, "open fridge 1", StepPlace},
		{"then put", "put a hot apple in fridge.",
			[]Turn{atCountertopApple, takeApple, atMicrowave, heatApple, atFridge, openFridge}, Slips{}, false, Act, "put apple 1 in/on fridge 1", StepPlace},
		{"in ALFWorld 0.4's grammar the put is a move", "put a hot apple in fridge.",
			[]Turn{atCountertopApple, takeApple, atMicrowave, heatApple, tu("go to fridge 1", "You arrive at fridge 1. The fridge 1 is open. In it, you see nothing.")},
			Slips{}, false, Act, "move apple 1 to fridge 1", StepPlace},
		{"the skip slip goes straight to the fridge", "put a hot apple in fridge.",
			[]Turn{atCountertopApple, takeApple}, Slips{SkipTreatment: true}, false, Act, "go to fridge 1", StepPlace},
		{"the X with two seen: ask which, with both as options", "put that mug in sinkbasin.",
			[]Turn{atCountertopApple, atShelfMug}, Slips{}, false, Ask, "multiplicity", StepAsk},
		{"the X with one seen: look for another in likely places first", "put that mug in sinkbasin.",
			[]Turn{atCountertopApple}, Slips{}, false, Act, "go to desk 1", StepSearch},
		{"a mug (indefinite) with one seen: take it", "put a mug in sinkbasin.",
			[]Turn{atCountertopApple}, Slips{}, false, Act, "take mug 1 from countertop 1", StepTake},
		{"ignoring multiplicity takes the one at hand without asking", "put that mug in sinkbasin.",
			[]Turn{atCountertopApple, atShelfMug}, Slips{IgnoreMultiplicity: true}, false, Act, "take mug 2 from shelf 1", StepTake},
		{"told by name: fetch that one", "put that mug in sinkbasin.",
			[]Turn{atCountertopApple, atShelfMug, asked("multiplicity", "I mean the mug 2.")}, Slips{}, false, Act, "take mug 2 from shelf 1", StepTake},
		{"the wrong-instance slip fetches the other", "put that mug in sinkbasin.",
			[]Turn{atCountertopApple, atShelfMug, asked("multiplicity", "I mean the mug 2.")}, Slips{WrongInstance: true}, false, Act, "go to countertop 1", StepTake},
		{"told by colour: describe the one at hand first", "put that mug in sinkbasin.",
			[]Turn{atCountertopApple, atShelfMug, asked("multiplicity", "I mean the red one.")}, Slips{}, false, Act, "describe mug 2", StepExamine},
		{"described and not it: go describe the other", "put that mug in sinkbasin.",
			[]Turn{atCountertopApple, atShelfMug, asked("multiplicity", "I mean the red one."), tu("describe mug 2", "The mug 2 is blue.")},
			Slips{}, false, Act, "go to countertop 1", StepExamine},
		{"described and it: take it", "put that mug in sinkbasin.",
			[]Turn{atCountertopApple, atShelfMug, asked("multiplicity", "I mean the one that belongs to Sam."), tu("describe mug 2", "The mug 2 is blue. It belongs to Sam.")},
			Slips{}, false, Act, "take mug 2 from shelf 1", StepTake},
		{"nothing on the surfaces and closed places unopened: open them, never call it absent", "put a hot apple in fridge.",
			[]Turn{atCountertopEmpty, atSinkEmpty, atDeskEmpty, tu("go to shelf 1", "You arrive at loc 7. On the shelf 1, you see nothing.")},
			Slips{}, false, Act, "go to fridge 1", StepSearch},
		{"every likely place and every closed one seen: ask, absence", "put a hot apple in fridge.",
			[]Turn{atCountertopEmpty, atSinkEmpty, atFridge, openFridge, atMicrowave, openMicroEmpty, atCabinet, openCabinetEmpty, atDrawer, openDrawerEmpty},
			Slips{}, false, Ask, "absence", StepAsk},
		{"absence answered: the other kind, seen on the way, is fetched", "put a hot apple in fridge.",
			[]Turn{tu("go to countertop 1", "You arrive at loc 2. On the countertop 1, you see a tomato 1."), atSinkEmpty, atFridge, openFridge, atMicrowave, openMicroEmpty, atCabinet, openCabinetEmpty, atDrawer, openDrawerEmpty,
				asked("absence", "There is no apple here. Use a tomato instead.")},
			Slips{}, false, Act, "go to countertop 1", StepTake},
		{"a wrong thing in hand is put down where the apple is, to take it", "put a hot apple in fridge.",
			[]Turn{atShelfMug, tu("take mug 2 from shelf 1", "You pick up the mug 2 from the shelf 1."), atCountertopApple},
			Slips{}, false, Act, "put mug 2 in/on countertop 1", StepFree},
		{"a command that failed is not sent again while nothing changes", "put a hot apple in fridge.",
			[]Turn{atCountertopApple, tu("take apple 1 from countertop 1", "Nothing happens.")},
			Slips{}, false, Stuck, "failed", StepTake},
		{"an instruction that cannot be read", "sing a song.", nil, Slips{}, false, Stuck, "unknown task form", ""},
		{"look: the book in hand, to the lamp seen on the desk", "look at a book under the desklamp.",
			[]Turn{tu("go to desk 1", "You arrive at loc 3. On the desk 1, you see a desklamp 1, and a pen 1."), tu("go to shelf 1", "You arrive at loc 7. On the shelf 1, you see a book 2."),
				tu("take book 2 from shelf 1", "You pick up the book 2 from the shelf 1.")},
			Slips{}, false, Act, "go to desk 1", StepLight},
		{"look: at the lamp with the book, switch it on", "look at a book under the desklamp.",
			[]Turn{tu("go to shelf 1", "You arrive at loc 7. On the shelf 1, you see a book 2."), tu("take book 2 from shelf 1", "You pick up the book 2 from the shelf 1."),
				tu("go to desk 1", "You arrive at loc 3. On the desk 1, you see a desklamp 1.")},
			Slips{}, false, Act, "use desklamp 1", StepLight},
		{"look: the lamp not yet found, search for it with the book in hand", "look at a book under the desklamp.",
			[]Turn{tu("go to shelf 1", "You arrive at loc 7. On the shelf 1, you see a book 2."), tu("take book 2 from shelf 1", "You pick up the book 2 from the shelf 1.")},
			Slips{}, false, Act, "go to desk 1", StepSearch},
		{"two: the second goes where the first is", "put two mug in sinkbasin.",
			[]Turn{atCountertopApple, tu("take mug 1 from countertop 1", "You pick up the mug 1 from the countertop 1."), atSinkEmpty,
				tu("put mug 1 in/on sinkbasin 1", "You put the mug 1 in/on the sinkbasin 1."), atShelfMug, tu("take mug 2 from shelf 1", "You pick up the mug 2 from the shelf 1.")},
			Slips{}, false, Act, "go to sinkbasin 1", StepPlace},
		{"two: one found, search on for the second without asking", "put two mug in sinkbasin.",
			[]Turn{atCountertopApple, tu("take mug 1 from countertop 1", "You pick up the mug 1 from the countertop 1."), atSinkEmpty,
				tu("put mug 1 in/on sinkbasin 1", "You put the mug 1 in/on the sinkbasin 1.")},
			Slips{}, false, Act, "go to desk 1", StepSearch},
		{"the task read from the opening when no instruction is given", "",
			nil, Slips{}, false, Act, "go to countertop 1", StepSearch},
	} {
		s := State{Instruction: tc.instruction, Opening: room, Turns: tc.turns, Slips: tc.slips, NoPriors: tc.noPriors}
		if tc.instruction == "" {
			s.Opening = room + "\n\nYour task is to: put a hot apple in fridge."
		}
		d := Decide(s)
		got := d.Command
		switch d.Kind {
		case Ask:
			got = d.Tag
		case Stuck:
			got = d.Why
		}
		if d.Kind != tc.kind || !(got == tc.want || tc.kind == Stuck && strings.Contains(got, tc.want)) || d.Step != tc.step {
			t.Errorf("%s: Decide = %s %q (step %s, why %q); want %s %q (step %s)", tc.why, d.Kind, got, d.Step, d.Why, tc.kind, tc.want, tc.step)
		}
	}
}

func TestDecideMultiplicityQuestionNamesTheOptions(t *testing.T) {
	t.Parallel()
	d := Decide(State{Instruction: "put that mug in sinkbasin.", Opening: room, Turns: []Turn{atCountertopApple, atShelfMug}})
	if d.Kind != Ask || strings.Join(d.Options, ",") != "mug 1,mug 2" || !strings.Contains(d.Question, "mug 1, mug 2") {
		t.Errorf("Decide = %+v; want a multiplicity question offering mug 1 and mug 2", d)
	}
}

func TestDecideIsPure(t *testing.T) {
	t.Parallel()
	s := State{Instruction: "put a hot apple in fridge.", Opening: room, Turns: []Turn{atCountertopApple, takeApple}}
	a, b := Decide(s), Decide(s)
	if a.Command != b.Command || a.Why != b.Why || len(s.Turns) != 2 {
		t.Errorf("two decisions on one state differ or the state changed: %+v, %+v", a, b)
	}
}
