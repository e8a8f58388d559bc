package tabletop

import (
	"context"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
)

func init() {
	agents.RegisterWorkflow("direct", "LLM workflow: the whole scene graph and the instruction in one prompt; the model plans with tool calls (SG-CoT's full-graph ablation)",
		func(cfg agents.Config) (agents.Agent, error) {
			return &direct{model: cfg.Model, askRobotFirst: cfg.AskRobotFirst}, nil
		})
}

// direct is the "entire scene graph in the prompt" ablation of SG-CoT
// (section 4.2): one prompt holds the instruction and the robot's whole
// scene graph, and the model answers with tool calls — pick_and_place,
// ask with a tag, ask_robot — which run in order, their results going back
// into the conversation, until the episode ends.
type direct struct {
	model         llm.Model
	askRobotFirst bool // agents.Config.AskRobotFirst
}

const directMaxTurns = 12 // model calls per episode

func (a *direct) Run(ctx context.Context, env agents.Env) error {
	req, err := graphRequest(ctx, env, a.askRobotFirst, "direct_system.tmpl", "direct_user.tmpl")
	if err != nil {
		return agents.Finish(err)
	}
	conv := &conversation{model: a.model, env: env, req: req}
	return takeTurns(ctx, env, "direct", directMaxTurns, conv.turn)
}

// Respond answers the partner's message with the model.
func (a *direct) Respond(ctx context.Context, env agents.Env, message string) (string, error) {
	return answerPartner(ctx, a.model, env, message)
}
