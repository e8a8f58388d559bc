package tabletop

import (
	"context"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
)

const answerMaxTurns = 4 // model calls to answer the partner

// answerPartner has the model answer the other robot: it may call
// pick_and_place, and its final text is the reply.
func answerPartner(ctx context.Context, model llm.Model, env agents.Env, message string) (string, error) {
	g, graphJSON, err := observe(ctx, env)
	if err != nil {
		return "", agents.Finish(err)
	}
	cc := &llm.CallContext{Role: llm.CallAnswer, Track: "tabletop", Robot: env.Robot(), Partner: env.Partner(),
		Graph: g, Message: message, Format: llm.FormatToolCalls}
	user, err := render("answer_user.tmpl", promptData{Robot: env.Robot(), Partner: env.Partner(), Message: message,
		GraphJSON: graphJSON})
	if err != nil {
		return "", err
	}
	conv := &conversation{model: model, env: env, req: llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Text: user}}, Tools: agents.ToolDecls(env, agents.ToolPickAndPlace), Context: cc,
	}, textEnds: true}
	for range answerMaxTurns {
		ended, err := conv.turn(ctx)
		if err != nil {
			return "", agents.Finish(err)
		}
		if ended {
			return conv.lastText, nil
		}
	}
	return "I could not finish.", nil
}
