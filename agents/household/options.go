package household

import "github.com/ambibench/ambibench/agents"

// The options of the workflows on the ReAct player. The defaults are the
// Reflexion authors' protocol: prompts that carry a one-line instruction,
// two solved games of the task type and the task (with ambibench's ask,
// which every cell has), and a trial that ends when the same call comes
// twice in a row. The household track's flags set the others, for every
// workflow of a run, and run.json names them (--hints, --play-on-repeat):
// like --keep-arrival they change what the run's model-driven agents
// read or do, so a resumed run must not mix records made with and
// without them.

// hinter is an Env that asks for ambibench's own rules of the house in
// the players' prompts (the household track's --hints).
type hinter interface{ Hints() bool }

// hints reports whether the Env asks for the rules of the house. Without
// them a prompt gives what the authors' prompt gives; with them it adds
// which appliance heats, cools or cleans, that a closed receptacle opens
// first, one object at a time, that not every receptacle takes every
// object, and that the same command twice in a row never helps
// (react_system.tmpl's house_rules).
func hints(env agents.Env) bool {
	h, ok := env.(hinter)
	return ok && h.Hints()
}

// repeatPlayer is an Env that lets react and react-text play on after
// the same call twice in a row (the household track's --play-on-repeat).
type repeatPlayer interface{ PlayOnRepeat() bool }

// playsOnRepeat reports whether react's trial goes on after a repeated
// call, as ambibench's react did before it ended trials the authors' way
// (alfworld_trial.py: a trial is over once an action equals the one
// before it). The agents that reflect always stop there: a repeat is a
// failed trial they reflect on.
func playsOnRepeat(env agents.Env) bool {
	r, ok := env.(repeatPlayer)
	return ok && r.PlayOnRepeat()
}
