package housework

import (
	"strings"
	"testing"
)

// Two states whose fields hold the same text cut at other places have
// different keys, and a state's key with its first k turns is the
// longer state's key cut at ends[k]: recall reads a prefix's state there.
func TestFoldKey(t *testing.T) {
	t.Parallel()
	turn := func(cmd, obs string) Turn { return Turn{Command: cmd, Observation: obs} }
	for _, tc := range []struct {
		why  string
		a, b State
	}{
		{"text moved from the instruction to the opening",
			State{Instruction: "put a mug", Opening: " in the room"}, State{Instruction: "put a mug in", Opening: " the room"}},
		{"text moved from a command to its observation",
			State{Turns: []Turn{turn("go to", " desk 1")}}, State{Turns: []Turn{turn("go to desk 1", "")}}},
		{"one turn against two",
			State{Turns: []Turn{turn("look", "")}}, State{Turns: []Turn{turn("look", ""), {}}}},
		{"an answer against an observation",
			State{Turns: []Turn{{Tag: "absence", Answer: "Use a cup."}}}, State{Turns: []Turn{{Tag: "absence", Observation: "Use a cup."}}}},
		{"fields holding what a separator without the lengths would be",
			State{Turns: []Turn{turn("x0:y", "")}}, State{Turns: []Turn{turn("x", "y0:")}}},
		{"a field holding the separators themselves",
			State{Turns: []Turn{turn("a", "1:b|1:c")}}, State{Turns: []Turn{turn("a", "1:b"), turn("c", "")}}},
	} {
		ka, _ := foldKey(tc.a)
		kb, _ := foldKey(tc.b)
		if ka == kb {
			t.Errorf("%s: both states have the key %q", tc.why, ka)
		}
	}
	long := State{Instruction: "heat some egg and put it in fridge.", Opening: "You are in the middle of a room.",
		Turns: []Turn{turn("go to fridge 1", "The fridge 1 is closed."), {Tag: "absence", Question: "Which?", Answer: "Any."}, turn("open fridge 1", strings.Repeat("x", 300))}}
	key, ends := foldKey(long)
	if len(ends) != len(long.Turns)+1 || ends[len(ends)-1] != len(key) {
		t.Fatalf("ends %v for %d turns and a key of %d bytes", ends, len(long.Turns), len(key))
	}
	for k := range len(long.Turns) + 1 {
		short := long
		short.Turns = long.Turns[:k]
		if got, _ := foldKey(short); got != key[:ends[k]] {
			t.Errorf("the key with %d turns is %q, the longer key cut at ends[%d] %q", k, got, k, key[:ends[k]])
		}
	}
}
