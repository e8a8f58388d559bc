package household

import (
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/housework"
)

// What a reflecting agent can tell about its own trials: whether a trial
// is stuck repeating itself, and whether the trial after a reflection did
// anything different from the one before it.

// repeated reports whether the last call of a trial repeats the one before
// it: the same tool with the same command (or tag and question), compared
// as the world reads commands. This is the rule of Reflexion's ALFWorld
// code, which marks a trial exhausted as soon as an action equals the
// previous action; thoughts and listings of the admissible commands count
// as calls, since sending the same one twice learns nothing either. It
// does not look for longer cycles (go to A, go to B, go to A, …): in this
// world revisiting a receptacle can be progress — after opening another,
// or to put down what was found elsewhere — and the step limit ends a
// trial that only wanders.
func repeated(steps []householdStep) bool {
	n := len(steps)
	return n >= 2 && steps[n-1].key() == steps[n-2].key()
}

// planOf is the plan a trial carried out: its commands and questions in
// order, thoughts and listings left out. Thoughts are free text that a
// model rewords every time without acting differently; what decides the
// outcome is what it did.
func planOf(steps []householdStep) []string {
	var out []string
	for _, s := range steps {
		switch {
		case s.Tool == agents.ToolAct && strings.HasPrefix(housework.NormalCommand(s.Command), "think:"):
		case s.Tool == agents.ToolAct:
			out = append(out, housework.NormalCommand(s.Command))
		case s.Tool == agents.ToolAsk:
			out = append(out, "ask "+s.Command)
		}
	}
	return out
}

// planChanged reports whether two trials carried out different plans.
func planChanged(before, after []householdStep) bool {
	return !slices.Equal(planOf(before), planOf(after))
}
