package household

import (
	"fmt"

	"github.com/ambibench/ambibench/agents"
)

// What a household workflow reads of its Env beyond the contract's
// methods.

// householdOnly refuses an episode of another track: its tools are not
// commands, and a run over every agent should cost no model call there.
func householdOnly(agent string, env agents.Env) error {
	if tr := agents.TrackOf(env); tr != agents.TrackHousehold {
		return fmt.Errorf("%s: plays the %s track only; this episode is on the %s track", agent, agents.TrackHousehold, tr)
	}
	return nil
}

// trialOf is the number of the Env's current trial, 1 for an Env that
// plays one.
func trialOf(env agents.Env) int {
	if t, ok := env.(agents.Trials); ok {
		return t.Trial()
	}
	return 1
}

// openingOf is the observation a game starts with; an Env that does not
// give one (a test's) gets the task sentence alone.
func openingOf(env agents.Env) string {
	if o, ok := env.(agents.Opening); ok {
		return o.Opening()
	}
	return "Your task is to: " + env.Instruction()
}
