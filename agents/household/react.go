package household

import (
	"context"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
)

func init() {
	agents.RegisterWorkflowOn([]string{agents.TrackHousehold}, "react", "LLM workflow (household): ReAct; one command per model call over the text observations, thoughts as think: commands, two worked games of the game's task type; may list the admissible commands and ask the user; a trial ends when the world ends it or on the same call twice in a row (--play-on-repeat plays on)",
		func(cfg agents.Config) (agents.Agent, error) {
			return &react{model: cfg.Model}, nil
		})
}

// react is ReAct as Reflexion's ALFWorld runs use it: every model call is
// a fresh prompt holding two worked games of the game's task type (examples.go), the task and the trajectory
// so far, and the model answers with one command. Thoughts are commands
// too ("think: …"), which the world answers "OK.". It plays one trial and
// stops when the world ends it or, as the authors' loop does
// (alfworld_trial.py: env_history.check_is_exhausted), when the same call
// comes twice in a row; the household track's --play-on-repeat lets it
// play on (options.go).
//
// The admissible commands are a tool the model may call, not a list in
// every prompt: ReAct's ALFWorld prompts carry no such list, and a list of
// forty-odd commands in each of up to fifty prompts would make the prompt
// several times longer and turn planning into choosing from a menu. A
// model that sees "Nothing happens." can still find out what would work,
// at the price of a call but not of a step.
type react struct {
	model llm.Model
	text  bool // the text shape (react-text)
}

func (a *react) Run(ctx context.Context, env agents.Env) error {
	name, p := "react", newReactPlayer(a.model, env)
	if a.text {
		name, p = "react-text", newTextPlayer(a.model, env)
	}
	if err := householdOnly(name, env); err != nil {
		return err
	}
	tr, err := p.play(ctx, openingOf(env), trialOf(env), nil, !playsOnRepeat(env))
	if err != nil {
		return err
	}
	return tr.err(name)
}
