package grounding

import (
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

// checkRef checks what every parsed reference promises: a reference that is
// neither vague nor a place names a class, a relational one has a plain
// anchor, and an id agrees with the colour and class.
func checkRef(t *testing.T, input string, r Ref) {
	t.Helper()
	if !r.Vague && r.Place == "" && r.Class == "" {
		t.Fatalf("%q gave a reference with no class, place or vagueness: %+v", input, r)
	}
	if r.Class != "" && r.Class != scenes.ClassBlock && r.Class != scenes.ClassBowl {
		t.Fatalf("%q gave an unknown class %q", input, r.Class)
	}
	if (r.Relation == "") != (r.Anchor == nil) {
		t.Fatalf("%q gave relation %q with anchor %v", input, r.Relation, r.Anchor)
	}
	if r.Anchor != nil {
		if r.Anchor.Vague || r.Anchor.Relation != "" {
			t.Fatalf("%q gave an anchor that is vague or relational: %+v", input, *r.Anchor)
		}
		checkRef(t, input, *r.Anchor)
	}
	if r.ID != "" {
		if base, _, ok := cutID(r.ID); !ok || base != r.Color+" "+r.Class {
			t.Fatalf("%q gave id %q for a %s %s", input, r.ID, r.Color, r.Class)
		}
	}
}

// cutID splits "red block 2" into "red block" and "2".
func cutID(id string) (base, num string, ok bool) {
	for i := len(id) - 1; i >= 0; i-- {
		if id[i] == ' ' {
			num = id[i+1:]
			if num == "" || num[0] == '-' {
				return "", "", false
			}
			return id[:i], num, true
		}
	}
	return "", "", false
}

func FuzzParseInstruction(f *testing.F) {
	for _, s := range []string{
		"Pick up the red block and place it in the blue bowl.",
		"Put the red block in the blue bowl.",
		"Place the red block on the yellow block.",
		"Put the red block in the blue bowl, then the yellow block in the green bowl, then the pink block in the red bowl.",
		"First put the red block in the blue bowl, then put the yellow block in the green bowl.",
		"Can you move the red block away?",
		"Move red block 2 away.",
		"Put the red block somewhere else.",
		"Pick up the block to the left of the blue bowl and place it in the green bowl.",
		"Put something in the blue bowl.",
		"Put the red block at the top left corner.",
		"Put the block above block below the red bowl in the shared workspace.",
		", then , then",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		moves, err := ParseInstruction(s)
		if err != nil {
			if moves != nil {
				t.Fatalf("ParseInstruction(%q) returned moves with error %v", s, err)
			}
			return
		}
		if len(moves) == 0 {
			t.Fatalf("ParseInstruction(%q) returned no moves and no error", s)
		}
		for _, m := range moves {
			checkRef(t, s, m.Pick)
			if m.Place != nil {
				checkRef(t, s, *m.Place)
			}
		}
	})
}

func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{
		"I mean red block 2.",
		"There is no such block here. Take the green block instead.",
		"Put it in the blue bowl.",
		"There is no such bowl here. Put it in the green bowl instead.",
		"I mean the block to the left of the red bowl.",
		"Place it at the middle!",
		"I mean something.",
		"...",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if r, err := ParseAnswer(s); err == nil {
			checkRef(t, s, r)
		}
		// A partner's message goes through the same phrase grammar.
		if h, err := ParseHandRequest(s); err == nil {
			checkRef(t, s, h)
		}
	})
}
