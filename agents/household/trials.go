package household

import (
	"context"

	"github.com/ambibench/ambibench/agents"
)

// The trials of a game and the memory of its reflections, as Reflexion's
// ALFWorld runs have them; the DyRef toolkit agents keep them.
const (
	// reflexionTrials is the most trials an agent plays, the count of the
	// Reflexion authors' runs (run_reflexion.sh, line 2, --num_trials
	// 10); the Env may allow fewer.
	reflexionTrials = 10
	// reflexionMemory is how many reflections a prompt carries, the
	// latest ones (alfworld_trial.py, lines 47-50: memory[-3:]).
	reflexionMemory = 3
)

// playTrials is the loop of every agent that plays a household game over
// several trials: play a trial with the react player and the notes memory
// gives, and after a trial that ended without the goal ask the Env for
// another, reflecting first. reflect returns nil when it chose not to
// reflect (the next trial then sees the same notes). A reflection is
// appended to *reflections, and the trial after it decides its
// PlanChanged.
//
// Whether the goal was reached is the world's to say: the loop asks for a
// new trial after every trial, and the Env refuses one after a win (as
// after the last trial, or a wrong question). So no agent reflects on a
// success, and a reflection runs only when a trial will read it.
func playTrials(ctx context.Context, agent string, env agents.Env, p *reactPlayer, maxTrials int, reflections *[]agents.ReflectionRecord,
	memory func() []agents.ReflectionRecord, reflect func(context.Context, trialRecord) (*agents.ReflectionRecord, error)) error {
	trials, _ := env.(agents.Trials)
	limit := maxTrials
	if trials != nil {
		limit = min(limit, trials.MaxTrials())
	}
	opening, trial := openingOf(env), trialOf(env)
	var prev trialRecord
	reflected := false
	for n := 1; ; n++ {
		tr, err := p.play(ctx, opening, trial, memory(), true)
		if err != nil {
			return err
		}
		if reflected {
			// The reflection before this trial is judged by what this trial did.
			(*reflections)[len(*reflections)-1].PlanChanged = planChanged(prev.Steps, tr.Steps)
		}
		if trials == nil || n >= limit {
			return tr.err(agent)
		}
		next, err := trials.NewTrial(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			// Won, or the episode is over: nothing more to learn here.
			return tr.err(agent)
		}
		// A reflection that failed part way still cost what it ran: it is
		// kept, then the error ends the game.
		r, err := reflect(ctx, tr)
		reflected = r != nil
		if reflected {
			*reflections = append(*reflections, *r)
		}
		if err != nil {
			return err
		}
		opening, prev, trial = next, tr, trialOf(env)
	}
}
