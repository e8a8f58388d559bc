package housework

import (
	"slices"
	"strings"
	"testing"
)

func FuzzParseInstruction(f *testing.F) {
	for _, s := range []string{
		"put a mug in coffeemachine.", "look at the book under the desklamp.", "heat some egg and put it in fridge.",
		"find two things of one kind and put them in drawer.", "put something cool in countertop.", "Your task is to: put two pen in drawer.",
		"put in", "examine with the", "heat  and put it ", "put the  on .", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		task, err := ParseInstruction(s)
		if err != nil {
			if !strings.Contains(err.Error(), "instruction") {
				t.Errorf("error %q does not say it is about the instruction", err)
			}
			return
		}
		switch {
		case task.Type == "":
			t.Errorf("%q: parsed with no type: %+v", s, task)
		case task.Kind == "" && !task.Vague:
			t.Errorf("%q: no kind and not vague: %+v", s, task)
		case task.Type == TypeLookAtObjInLight && task.Lamp == "", task.Type != TypeLookAtObjInLight && task.Dest == "":
			t.Errorf("%q: no lamp or destination: %+v", s, task)
		}
	})
}

func FuzzAnswers(f *testing.F) {
	for _, s := range []string{
		"I mean an apple.", "There is no apple here. Use two tomatoes instead.", "I mean the mug 2.", "I mean the red one.",
		"I mean the one that belongs to Sam.", "Sam's", "'s", "belongs to", "mug 0", "knives knives", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		kind, n, ok := KindAnswer(s, "apple")
		if ok && (!objectKind(kind) || kind == "apple" || n < 1 || n > 2) {
			t.Errorf("KindAnswer(%q) = %q, %d: not an object kind other than the absent one", s, kind, n)
		}
		w, ok := WhichAnswer(s)
		if ok != (w != Which{}) {
			t.Errorf("WhichAnswer(%q) = %+v, %v: ok disagrees with what was read", s, w, ok)
		}
		if w.Item != "" && !isName(w.Item) {
			t.Errorf("WhichAnswer(%q) item %q is not a name", s, w.Item)
		}
	})
}

// FuzzDecide feeds the planner any instruction, observation and answer:
// it must always come back with a well-formed decision.
func FuzzDecide(f *testing.F) {
	f.Add("put a hot apple in fridge.", "go to countertop 1", "You arrive at loc 2. On the countertop 1, you see a apple 1, and a mug 1.", "I mean the mug 1.")
	f.Add("put the mug in sinkbasin.", "go to shelf 1", "You arrive at loc 7. On the shelf 1, you see a mug 2.", "the red one")
	f.Add("look at a book under the desklamp.", "open drawer 1", "You open the drawer 1. The drawer 1 is open. In it, you see a book 1.", "")
	f.Add("put two pen in drawer.", "take pen 1 from desk 1", "You pick up the pen 1 from the desk 1.", "Use two pencils instead.")
	f.Add("put something in desk.", "examine mug 1", "This is a hot and clean green mug 1. It belongs to Sam.", "I mean a mug.")
	f.Add("put a mug in desk.", "look", "You are facing the desk 1. Next to it, you see nothing.", "")
	f.Add("put a mug in desk.", "x", "In it, you see a . On the , you see a a 1, and. The  is open. It belongs to ", "")
	f.Fuzz(func(t *testing.T, instruction, cmd, obs, answer string) {
		turns := []Turn{{Command: cmd, Observation: obs}}
		for _, tag := range []string{"underspecified", "multiplicity", "absence"} {
			turns = append(turns, Turn{Tag: tag, Question: "?", Answer: answer}, Turn{Command: cmd, Observation: obs})
		}
		for n := range turns {
			s := State{Instruction: instruction, Opening: room + "\n" + obs, Turns: turns[:n]}
			d := Decide(s)
			switch d.Kind {
			case Act:
				if strings.TrimSpace(d.Command) == "" || strings.ContainsAny(d.Command, "\n") {
					t.Fatalf("Decide(%+v): act with command %q", s, d.Command)
				}
			case Ask:
				if !slices.Contains([]string{"underspecified", "multiplicity", "absence"}, d.Tag) || d.Question == "" {
					t.Fatalf("Decide(%+v): ask %q %q", s, d.Tag, d.Question)
				}
			case Stuck:
				if d.Why == "" {
					t.Fatalf("Decide(%+v): stuck without a reason", s)
				}
			default:
				t.Fatalf("Decide(%+v): kind %q", s, d.Kind)
			}
			Diagnose(s)
		}
	})
}
