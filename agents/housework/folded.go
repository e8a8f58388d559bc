package housework

import (
	"hash/maphash"
	"maps"
	"math/bits"

	"github.com/ambibench/ambibench/agents/internal/memo"
)

// The simulated model decides with Decide at every call of a trial, and a
// call reads the whole trial again, as a model reads its whole prompt:
// folding every turn at every call made a trial's cost grow with the
// square of its length, and it was half of the household track's CPU.
// foldMemo keeps the planner state that folding a trial's turns left, so
// that the next call of the trial starts from the state of the call
// before and folds only the turns played since. A state taken from it is
// the one folding would give, so Decide still gives the same Decision for
// the same State; only what it costs changes. What it keeps is never
// changed: a state found for all of a call's turns is read where it is
// kept, and one that more turns are folded into is copied first (and the
// copy kept in turn), so a call copies the state at most once, not at
// every look as it did (twice a call, at a cost that grew with what the
// belief held).
//
// Finding a state costs the same at step 45 as at step 5. Its key
// (foldKey) is a fixed-size summary of everything fold reads, not the
// trial itself: hashes of the instruction and the opening and of the
// state's last two turns, and how many turns it has. (It used to be the
// whole trial written out as a string, made afresh and hashed by the map
// at every call: 4.6 KB and 2.7 µs more at step 45 than at step 5.)
//
// A summary can be shared by two states: two trials of one game that
// reach the same last turns at the same step by other ways, or two
// states whose hashes collide. So the key only finds an entry, and the
// entry holds the whole prefix it was folded from, which recall compares
// with the state's field by field (same): an entry whose prefix is not
// the state's is never taken, whatever the hashes say. The prefix is a
// chain of turns, each link pointing at the link one turn shorter, so
// that the entries of one trial share their turns and keeping a state
// adds only the links of the turns it folded. Comparing stays cheap as
// the trial grows: a caller hands the same trial's strings call after
// call, and two strings that share their bytes compare equal at once.
// Two states that share a summary only cost time: the second is folded
// from a shorter prefix, or from the opening. An entry holds the turns'
// strings, not the caller's slice, which the caller may reuse.

// folded is what a planner's turns taught it: what fold and answered
// change, and the task they start from.
type folded struct {
	t      Task
	b      *Belief
	failed map[string]bool // commands that failed with no change since

	askedVague, askedAbsence, askedWhich bool
	which                                Which
}

// foldMemoSize bounds the states kept. A trial needs one at a time, and a
// run plays a few trials at once per worker (a reflecting agent's model
// reads the trial before it too); the oldest state goes first.
const foldMemoSize = 256

var foldMemo = memo.New[foldKey, *foldEntry](foldMemoSize)

// ForgetFolds empties the memo of folded trials (foldMemo). A run plays
// each trial once, so a call finds only what its own trial's earlier
// calls kept, over the very strings it passes; a benchmark or a test that
// plays one trial again and again calls it between plays, so that no play
// finds a state another play kept (whose turns, equal but not the same
// strings, would be compared byte by byte, and whose folding would be
// skipped).
func ForgetFolds() { foldMemo.Reset() }

// foldKey finds the entry kept for a state with n turns: head hashes its
// instruction and opening, tail its last two turns (or as many as it
// has). Equal states have equal keys; unequal states may too.
type foldKey struct {
	head uint64
	n    int
	tail uint64
}

// foldEntry is a kept state and what it was folded from.
type foldEntry struct {
	instruction, opening string
	n                    int   // the turns folded
	turns                *link // the last of them; nil for none
	f                    folded
}

// link is one turn of a kept prefix, after the link of the turn before
// (nil for the first turn).
type link struct {
	up   *link
	turn Turn
}

// foldSeed seeds the summaries' hashes. Which entry a key finds never
// changes a result (same decides), so the seed may differ between runs.
var foldSeed = maphash.MakeSeed()

// mix folds x into the hash h.
func mix(h, x uint64) uint64 {
	return bits.RotateLeft64(h^x, 27)*0x9e3779b97f4a7c15 + 0x632be59bd9b4e019
}

// headHash hashes a state's instruction and opening.
func headHash(s State) uint64 {
	return mix(mix(1, maphash.String(foldSeed, s.Instruction)), maphash.String(foldSeed, s.Opening))
}

// turnHash hashes a turn's fields, each on its own, so that text moved
// from one field to the next changes it.
func turnHash(tu Turn) uint64 {
	h := uint64(2)
	for _, f := range [...]string{tu.Command, tu.Observation, tu.Tag, tu.Question, tu.Answer} {
		h = mix(h, maphash.String(foldSeed, f))
	}
	return h
}

// keyOf is the key of the state with its first n turns.
func keyOf(head uint64, turns []Turn, n int) foldKey {
	k := foldKey{head: head, n: n, tail: 3}
	for _, tu := range turns[max(n-2, 0):n] {
		k.tail = mix(k.tail, turnHash(tu))
	}
	return k
}

// same reports whether e was folded from the state's first n turns: the
// same instruction, opening and turns, field by field.
func (e *foldEntry) same(s State, n int) bool {
	if e.instruction != s.Instruction || e.opening != s.Opening {
		return false
	}
	l := e.turns
	for k := n - 1; k >= 0; k-- {
		if l == nil || l.turn != s.Turns[k] {
			return false
		}
		l = l.up
	}
	return l == nil
}

// recall returns the state kept for the longest of the state's
// last three prefixes (all its turns, all but the last, all but the last
// two), or of its opening alone, with how many turns it has folded and
// the entry it came from. It reports false when none is kept.
func recall(s State, head uint64) (folded, int, *foldEntry, bool) {
	n := len(s.Turns)
	lo := max(n-2, 0)
	get := func(k int) (folded, int, *foldEntry, bool) {
		if e, ok := foldMemo.Get(keyOf(head, s.Turns, k)); ok && e.same(s, k) {
			return e.f, k, e, true
		}
		return folded{}, 0, nil, false
	}
	for k := n; k >= lo; k-- {
		if f, done, e, ok := get(k); ok {
			return f, done, e, true
		}
	}
	if lo > 0 {
		return get(0)
	}
	return folded{}, 0, nil, false
}

// keep puts f, a planner's state folded from the state's first n turns,
// under their key; nothing may change f after. from is the entry it
// started from (nil for the opening), whose links the new entry's extend.
func keep(s State, head uint64, n int, from *foldEntry, f folded) {
	e := &foldEntry{instruction: s.Instruction, opening: s.Opening, n: n, f: f}
	done := 0
	if from != nil {
		e.turns, done = from.turns, from.n
	}
	for _, tu := range s.Turns[done:n] {
		e.turns = &link{up: e.turns, turn: tu}
	}
	foldMemo.Put(keyOf(head, s.Turns, n), e)
}

func (f *folded) clone() folded {
	c := *f
	c.b = f.b.Clone()
	c.failed = maps.Clone(f.failed)
	return c
}
