package housework

import (
	"reflect"
	"strings"
	"testing"
)

// These tests keep entries in foldMemo and read them back, so they do not
// run in parallel with those that empty it.

// An entry is taken only for the state it was folded from: two states
// whose fields hold the same text cut at other places, or that share
// their last turns but not the ones before, are not the same, whatever
// their keys say.
func TestFoldEntrySame(t *testing.T) {
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
		{"the same last two turns after another first one (the same key)",
			State{Turns: []Turn{turn("go to desk 1", "a"), turn("look", "b"), turn("look", "c")}},
			State{Turns: []Turn{turn("go to desk 2", "a"), turn("look", "b"), turn("look", "c")}}},
	} {
		p := &planner{folded: folded{b: NewBelief("")}}
		keep(tc.a, headHash(tc.a), len(tc.a.Turns), nil, p.folded)
		e, ok := foldMemo.Get(keyOf(headHash(tc.a), tc.a.Turns, len(tc.a.Turns)))
		if !ok {
			t.Fatalf("%s: nothing kept for a", tc.why)
		}
		if !e.same(tc.a, len(tc.a.Turns)) {
			t.Errorf("%s: the entry kept for a is not a's", tc.why)
		}
		if e.same(tc.b, len(tc.b.Turns)) {
			t.Errorf("%s: the entry kept for a is taken for b", tc.why)
		}
	}
}

// Two trials of one game that reach the same last turns at the same step
// by other ways share a key: the second is folded afresh, not handed the
// first's state, and each still decides as folding all its turns does.
func TestFoldSharedKey(t *testing.T) {
	in, opening := "put a mug in desk.", "You are in the middle of a room. Looking quickly around you, you see a desk 1, a drawer 1, and a shelf 1."
	tail := []Turn{{Command: "go to shelf 1", Observation: "On the shelf 1, you see nothing."}, {Command: "look", Observation: "You are facing the shelf 1."}}
	a := State{Instruction: in, Opening: opening, Turns: append([]Turn{{Command: "go to desk 1", Observation: "On the desk 1, you see a mug 1."}}, tail...)}
	b := State{Instruction: in, Opening: opening, Turns: append([]Turn{{Command: "go to drawer 1", Observation: "The drawer 1 is closed."}}, tail...)}
	if keyOf(headHash(a), a.Turns, 3) != keyOf(headHash(b), b.Turns, 3) {
		t.Fatalf("the two trials' keys differ; the test wants them shared")
	}
	for _, s := range []State{a, b, a, b} {
		if got, want := Decide(s), DecideUnremembered(s); !reflect.DeepEqual(got, want) {
			t.Errorf("after %q: Decide gives %+v, folding every turn %+v", s.Turns[0].Command, got, want)
		}
	}
}

// An entry's links are the state's turns, the last first, shared with the
// entry it was folded on from.
func TestFoldLinks(t *testing.T) {
	turn := func(cmd, obs string) Turn { return Turn{Command: cmd, Observation: obs} }
	s := State{Instruction: "heat some egg and put it in fridge.", Opening: "You are in the middle of a room.",
		Turns: []Turn{turn("go to fridge 1", "The fridge 1 is closed."), {Tag: "absence", Question: "Which?", Answer: "Any."}, turn("open fridge 1", strings.Repeat("x", 300))}}
	head := headHash(s)
	p := &planner{folded: folded{b: NewBelief("")}}
	keep(s, head, 1, nil, p.folded)
	first, _ := foldMemo.Get(keyOf(head, s.Turns, 1))
	keep(s, head, 3, first, p.folded)
	e, _ := foldMemo.Get(keyOf(head, s.Turns, 3))
	if e == nil || e.n != 3 || !e.same(s, 3) || e.turns.up.up != first.turns {
		t.Fatalf("the entry for three turns is %+v; want one on the entry for the first", e)
	}
	for k := range 3 {
		if e.same(s, k) {
			t.Errorf("the entry for three turns is taken for the first %d", k)
		}
	}
}

// Decide hands out the state it kept for a trial without copying it, so
// a Planner, which folds each later turn into the state it starts from,
// must start from a copy: whether it finds the whole trial kept or only a
// shorter prefix, the turns told to it leave what Decide and Replay give
// for the trial as they were.
func TestPlannerLeavesKeptStates(t *testing.T) {
	in, opening := "put a mug in desk.", "You are in the middle of a room. Looking quickly around you, you see a desk 1, a drawer 1, and a shelf 1."
	first := Turn{Command: "go to drawer 1", Observation: "The drawer 1 is closed."}
	next := Turn{Command: "open drawer 1", Observation: "You open the drawer 1. The drawer 1 is open. In it, you see a mug 1."}
	later := Turn{Command: "take mug 1 from drawer 1", Observation: "You pick up the mug 1 from the drawer 1."}
	for _, tc := range []struct {
		why     string
		planned []Turn // the turns the Planner starts from; Decide has kept the first only
	}{
		{"the whole trial kept", []Turn{first}},
		{"a shorter prefix kept", []Turn{first, next}},
	} {
		ForgetFolds()
		s := State{Instruction: in, Opening: opening, Turns: []Turn{first}}
		want := Decide(s)
		wantSeen := len(mustReplay(t, s).Items)
		pl := NewPlanner(State{Instruction: in, Opening: opening, Turns: tc.planned})
		for _, tu := range []Turn{next, later}[len(tc.planned)-1:] {
			pl.Add(tu)
		}
		if d := pl.Decide(); d.Kind != Act || d.Command == want.Command {
			t.Fatalf("%s: the planner decides %+v after its turns; want another act than %q", tc.why, d, want.Command)
		}
		for _, st := range []State{s, {Instruction: in, Opening: opening, Turns: tc.planned}} {
			if got, fresh := Decide(st), DecideUnremembered(st); !reflect.DeepEqual(got, fresh) {
				t.Errorf("%s: after the planner's turns, Decide over %d turns gives %+v; folding them gives %+v", tc.why, len(st.Turns), got, fresh)
			}
		}
		if got := Decide(s); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Decide gives %+v after the planner's turns, %+v before", tc.why, got, want)
		}
		if got := len(mustReplay(t, s).Items); got != wantSeen {
			t.Errorf("%s: Replay's belief holds %d items after the planner's turns, %d before", tc.why, got, wantSeen)
		}
	}
}

func mustReplay(t *testing.T, s State) *Belief {
	t.Helper()
	b, _, err := Replay(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
