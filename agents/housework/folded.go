package housework

import (
	"maps"
	"strconv"

	"github.com/ambibench/ambibench/agents/internal/memo"
)

// The simulated model decides with Decide at every call of a trial, and a
// call reads the whole trial again, as a model reads its whole prompt:
// folding every turn at every call made a trial's cost grow with the
// square of its length, and it was half of the household track's CPU.
// foldMemo keeps the planner state that folding a trial's turns left,
// keyed by everything fold reads, so that the next call of the trial
// starts from the state of the call before and folds only the turns
// played since. A state taken from it is a copy of the one folding would
// give, so Decide still gives the same Decision for the same State; only
// what it costs changes.

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

var foldMemo = memo.New[string, *folded](foldMemoSize)

// foldKey writes everything fold reads of a state: the instruction, the
// opening, and then each turn, every field length-prefixed so that no
// two states share a key. ends[k] is the length of the key of the state
// with its first k turns.
func foldKey(s State) (key string, ends []int) {
	n := len(s.Instruction) + len(s.Opening) + 16
	for _, tu := range s.Turns {
		n += len(tu.Command) + len(tu.Observation) + len(tu.Tag) + len(tu.Question) + len(tu.Answer) + 32
	}
	b := make([]byte, 0, n)
	field := func(f string) {
		b = strconv.AppendInt(b, int64(len(f)), 10)
		b = append(b, ':')
		b = append(b, f...)
	}
	field(s.Instruction)
	field(s.Opening)
	ends = make([]int, 0, len(s.Turns)+1)
	ends = append(ends, len(b))
	for _, tu := range s.Turns {
		b = append(b, '|')
		for _, f := range [...]string{tu.Command, tu.Observation, tu.Tag, tu.Question, tu.Answer} {
			field(f)
		}
		ends = append(ends, len(b))
	}
	return string(b), ends
}

// recall returns a copy of the state kept for the longest of the state's
// last three prefixes (all its turns, all but the last, all but the last
// two), or of its opening alone, with how many turns it has folded. It
// reports false when none is kept.
func recall(key string, ends []int) (folded, int, bool) {
	n := len(ends) - 1
	lo := max(n-2, 0)
	for k := n; k >= lo; k-- {
		if f, ok := foldMemo.Get(key[:ends[k]]); ok {
			// What is kept is never changed: a copy is handed out.
			return f.clone(), k, true
		}
	}
	if lo > 0 {
		if f, ok := foldMemo.Get(key[:ends[0]]); ok {
			return f.clone(), 0, true
		}
	}
	return folded{}, 0, false
}

// keep puts a copy of a planner's state under key.
func keep(key string, p *planner) {
	f := p.folded.clone()
	foldMemo.Put(key, &f)
}

func (f *folded) clone() folded {
	c := *f
	c.b = f.b.Clone()
	c.failed = maps.Clone(f.failed)
	return c
}
