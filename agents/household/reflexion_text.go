package household

import "github.com/ambibench/ambibench/agents"

func init() {
	agents.RegisterWorkflowOn([]string{agents.TrackHousehold}, "reflexion-text", "LLM workflow (household): reflexion in the Reflexion authors' plain-completion shape; its trials are react-text's, its reflections reflexion's",
		func(cfg agents.Config) (agents.Agent, error) {
			return &reflexion{model: cfg.Model, trials: reflexionTrials, text: true}, nil
		})
}

// reflexion-text is reflexion whose trials are played in the text shape
// of the published protocol (textshape.go); the reflection prompt is
// text in both.
