package tabletop

import (
	"context"
	"fmt"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/program"
	"github.com/ambibench/ambibench/scenes"
)

// In a two-robot cell the partner robot runs the agent under test too, so
// a baseline's partner sees what the baseline sees — its object list, not
// the scene graph — and answers in the baseline's own shape: CLARA's and
// Inner Monologue's in a tool loop (Inner Monologue's with success
// feedback after each move, through seeing), ProgPrompt's with a short
// program of its own.

// answerFromList has the model answer the other robot from the detected
// objects: it may call pick_and_place, and its final text is the reply.
// feedback says that env answers moves with success detection, which the
// prompt then tells the model to heed.
func answerFromList(ctx context.Context, model llm.Model, perception string, env agents.Env, message string, feedback bool) (string, error) {
	eyes := newEyes(model, perception, env)
	l, err := eyes.see(ctx, feedback)
	if err != nil {
		return "", agents.Finish(err)
	}
	env = eyes.acting(env)
	if feedback {
		env = &seeing{Env: env, eyes: eyes, seen: l.graph}
	}
	cc := &llm.CallContext{Role: llm.CallAnswer, Track: "tabletop", Robot: env.Robot(), Partner: env.Partner(),
		Detections: l.context(), Message: message, Format: llm.FormatToolCalls}
	user, err := renderIn(ctx, "list_answer_user.tmpl", listData{promptData: promptData{Robot: env.Robot(), Partner: env.Partner(),
		Message: message}, Objects: objectLines(l.listed()), Frame: l.frame(), Feedback: feedback, Image: l.sight != nil})
	if err != nil {
		return "", err
	}
	conv := &conversation{model: model, env: env, req: llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Text: user}}, Tools: agents.ToolDecls(env, agents.ToolPickAndPlace), Context: cc,
	}, textEnds: true}
	l.show(&conv.req)
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

// respondProgram is ProgPrompt's partner: the model writes a short
// program for the other robot's request — pick_and_place calls, each
// checked by an assertion with its recovery step — which runs as a task
// program does; the reply says where each block it moved ended up. A
// program that does not parse moves nothing, and the reply says so.
func (a *progprompt) respondProgram(ctx context.Context, env agents.Env, message string) (string, error) {
	eyes := newEyes(a.model, a.perception, env)
	l, err := eyes.see(ctx, false)
	if err != nil {
		return "", agents.Finish(err)
	}
	env = eyes.acting(env)
	data := progObjects(l.listed(), l.frame())
	data.Image = l.sight != nil
	data.promptData = promptData{Robot: env.Robot(), Partner: env.Partner(), Message: message, Places: data.Places}
	data.Imports, data.FuncName = program.PickAndPlace, "answer_"+program.FuncName(env.Partner())
	user, err := renderIn(ctx, "progprompt_answer.tmpl", data)
	if err != nil {
		return "", err
	}
	cc := &llm.CallContext{Role: llm.CallAnswer, Track: "tabletop", Robot: env.Robot(), Partner: env.Partner(),
		Detections: l.context(), Message: message, Format: llm.FormatProgram}
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: user}}, Context: cc}
	l.show(&req)
	reply, err := a.model.Generate(ctx, req)
	if err != nil {
		return "", agents.Finish(fmt.Errorf("model %s: %w", a.model.Name(), err))
	}
	p, err := program.Parse(reply.Text)
	if err != nil {
		return "I could not act on your message: my program did not parse (" + err.Error() + ").", nil
	}
	st := &progState{lastPlace: map[string]string{}, eyes: eyes}
	if _, err := st.execute(ctx, env, p); err != nil {
		return "", agents.Finish(err)
	}
	if len(st.done) == 0 {
		return "I did not move anything.", nil
	}
	after, err := eyes.see(ctx, true)
	if err != nil {
		return "", agents.Finish(err)
	}
	g := after.graph
	var said []string
	for _, mv := range st.done {
		held := assertionHolds(g, program.Assert{Object: mv.Pick, Relation: program.RelationFor(mv.Place), Target: mv.Place}, st.lastPlace[mv.Pick])
		switch {
		case held && mv.Place == scenes.SharedPlace:
			said = append(said, fmt.Sprintf("I put %s in the shared workspace.", mv.Pick))
		case held:
			said = append(said, fmt.Sprintf("I took %s to %s.", mv.Pick, mv.Place)) // the form the partner prompts ask for
		default:
			said = append(said, fmt.Sprintf("I tried to put %s at %s, but it is not there.", mv.Pick, mv.Place))
		}
	}
	return strings.Join(said, " "), nil
}
