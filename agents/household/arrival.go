package household

import (
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents"
)

// The Reflexion authors' loop cuts the leading "You arrive at loc N. "
// from every observation before the model reads it (alfworld_trial.py,
// lines 41-44, process_ob): the number names no receptacle, and the
// sentence after it says where the agent stands. The workflows on the
// ReAct player do the same by default; the world's text is unchanged, and
// the reference agents read it whole.

// arrivalPrefix opens ALFWorld 0.3's arrival; 0.4's names the receptacle
// ("You arrive at countertop 1.") and is kept, as process_ob keeps it.
const arrivalPrefix = "You arrive at loc "

// stripArrival cuts a leading "You arrive at loc N. " from an
// observation; any other text comes back as it was.
func stripArrival(obs string) string {
	rest, ok := strings.CutPrefix(obs, arrivalPrefix)
	if !ok {
		return obs
	}
	digits := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
	if digits == 0 || !strings.HasPrefix(rest[digits:], ". ") {
		return obs
	}
	return rest[digits+2:]
}

// arrivalKeeper is an Env that may ask for the arrivals whole (the
// household track's --keep-arrival).
type arrivalKeeper interface{ KeepArrival() bool }

// keepsArrival reports whether the Env asks for the arrivals whole.
func keepsArrival(env agents.Env) bool {
	k, ok := env.(arrivalKeeper)
	return ok && k.KeepArrival()
}

// asSeen is a trial as its player saw it: each observation with its
// arrival cut, unless the Env keeps the arrivals whole. A reflection
// shows the failed trial this way, so that it never reads a sentence the
// player did not. The player records its trials so already (play cuts
// before it records); a trial from elsewhere, such as a test's, is cut
// here.
func asSeen(env agents.Env, tr trialRecord) trialRecord {
	if keepsArrival(env) {
		return tr
	}
	steps := slices.Clone(tr.Steps)
	for i := range steps {
		if steps[i].Tool == agents.ToolAct {
			steps[i].Result = stripArrival(steps[i].Result)
		}
	}
	tr.Steps = steps
	return tr
}
