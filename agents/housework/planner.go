package housework

import "slices"

// Planner is Decide for a player that keeps its trial: it takes the turns
// one at a time, as they are played, and keeps what they taught, where
// Decide is given the whole trial at each call and finds the state it
// kept for it a turn before (or folds the trial again, if that state has
// gone). A Planner started from a State and told each later turn decides
// as Decide does over the State with those turns (TestPlannerIsDecide).
// The rules agent plays with one; the simulated model, which keeps
// nothing between calls, decides with Decide.
type Planner struct {
	p   *planner
	bad *Decision // the instruction could not be read: every decision
}

// NewPlanner starts a planner from a state and the turns it holds.
func NewPlanner(s State) *Planner {
	// Add appends turns: to an array of the planner's own, with room.
	s.Turns = slices.Grow(slices.Clip(s.Turns), 1)
	p, bad := prepare(s, true)
	return &Planner{p: p, bad: bad}
}

// Add takes a turn played since.
func (pl *Planner) Add(tu Turn) {
	if pl.bad != nil {
		return
	}
	pl.p.s.Turns = append(pl.p.s.Turns, tu)
	pl.p.fold(tu)
}

// Decide is the next thing to do.
func (pl *Planner) Decide() Decision {
	if pl.bad != nil {
		return *pl.bad
	}
	return pl.p.decide()
}
