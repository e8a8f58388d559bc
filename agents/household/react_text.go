package household

import "github.com/ambibench/ambibench/agents"

func init() {
	agents.RegisterWorkflowOn([]string{agents.TrackHousehold}, "react-text", "LLM workflow (household): react in the Reflexion authors' plain-completion shape; one user message and no tools, the prompt ends in \"> \", the reply's first line is the one command (\"ask TAG: question\" asks); no listing of the admissible commands",
		func(cfg agents.Config) (agents.Agent, error) {
			return &react{model: cfg.Model, text: true}, nil
		})
}

// react-text is react with the prompt and the reply of the Reflexion
// authors' ALFWorld runs (textshape.go): the variant for running ReAct as
// they ran it (README, "The household track", says what still differs).
// react keeps the tool calls, which today's chat models are tuned for and
// which leave no doubt where the command ends.
