package tabletop

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

const answerMaxTurns = 4 // model calls to answer the partner

// answerPartner has the model answer the other robot from the robot's
// whole scene graph (get_scene_graph) in the prompt: the method of direct,
// the full-graph workflow. It may call pick_and_place, and its final text
// is the reply.
func answerPartner(ctx context.Context, model llm.Model, env agents.Env, message string) (string, error) {
	g, graphJSON, err := observe(ctx, env)
	if err != nil {
		return "", agents.Finish(err)
	}
	return answerWithGraph(ctx, model, env, message, g, graphJSON, nil)
}

// answerWithGraph is answerPartner over a graph already at hand; with the
// image the graph was perceived from, if it was (sight), which the call
// then shows.
func answerWithGraph(ctx context.Context, model llm.Model, env agents.Env, message string, g *scenes.Graph, graphJSON string, sight *sight) (string, error) {
	cc := &llm.CallContext{Role: llm.CallAnswer, Track: "tabletop", Robot: env.Robot(), Partner: env.Partner(),
		Graph: g, Message: message, Format: llm.FormatToolCalls}
	user, err := renderIn(ctx, "answer_user.tmpl", promptData{Robot: env.Robot(), Partner: env.Partner(), Message: message,
		GraphJSON: graphJSON})
	if err != nil {
		return "", err
	}
	conv := &conversation{model: model, env: env, req: llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Text: user}}, Tools: agents.ToolDecls(env, agents.ToolPickAndPlace), Context: cc,
	}, textEnds: true}
	if sight != nil {
		sight.show(&conv.req)
	}
	return answerLoop(ctx, conv, answerMaxTurns, nil)
}

// answerLoop runs an answer's conversation until the model replies in
// text, for at most turns calls; after the first, afterFirst (if set)
// may change the request.
func answerLoop(ctx context.Context, conv *conversation, turns int, afterFirst func()) (string, error) {
	for turn := range turns {
		ended, err := conv.turn(ctx)
		if err != nil {
			return "", agents.Finish(err)
		}
		if ended {
			return conv.lastText, nil
		}
		if turn == 0 && afterFirst != nil {
			afterFirst()
		}
	}
	return "I could not finish.", nil
}

// sgcotAnswerMaxTurns is the model calls SG-CoT's partner may take: room
// for a few retrievals, the hand-over and the reply.
const sgcotAnswerMaxTurns = 8

type sgcotAnswerPrompt struct {
	promptData
	Objects, AttrKeys, Relations string
	Image                        bool // the prompt shows the camera image (perception=image)
}

// Respond answers the partner robot with SG-CoT's own method: the robot
// perceives its view (detector, then a perceive call), retrieves from the
// graph it wrote turn by turn, hands a block over with pick_and_place, and
// replies in text. Each ablation answers as it plans: sgcot-full-graph
// with its whole perceived graph in the prompt, sgcot-single-retrieval
// with one retrieval turn, sgcot-no-edges over a graph of nodes only.
func (a *sgcot) Respond(ctx context.Context, env agents.Env, message string) (string, error) {
	var g *scenes.Graph
	var sight *sight
	var err error
	if a.image {
		// The partner perceives as the lead does: through its own camera.
		sight, err = perceiveFromImage(ctx, a.model, env, a.mode != sgcotNoEdges)
		if sight != nil {
			g = sight.graph
			env = eyesAfter(a.model, env, sight).acting(env)
		}
	} else {
		g, err = perceiveScene(ctx, a.model, env, a.mode != sgcotNoEdges)
	}
	if err != nil {
		return "", agents.Finish(err)
	}
	env = perceivedEnv{env, g}
	if a.mode == sgcotText {
		return a.respondText(ctx, env, message, g, sight)
	}
	if a.mode == sgcotFullGraph {
		data, err := json.MarshalIndent(g, "", " ")
		if err != nil {
			return "", err
		}
		return answerWithGraph(ctx, a.model, env, message, g, string(data), sight)
	}
	objects, keys, rels := outline(g)
	if a.mode == sgcotNoEdges {
		rels = nil
	}
	data := sgcotAnswerPrompt{promptData: promptData{Robot: env.Robot(), Partner: env.Partner(), Message: message},
		Objects: strings.Join(objects, ", "), AttrKeys: strings.Join(keys, ", "), Relations: strings.Join(rels, ", "), Image: a.image}
	user, err := renderIn(ctx, "sgcot_answer.tmpl", data)
	if err != nil {
		return "", err
	}
	cc := &llm.CallContext{Role: llm.CallAnswer, Track: "tabletop", Robot: env.Robot(), Partner: env.Partner(),
		Objects: objects, Message: message, Format: llm.FormatToolCalls}
	tools := []string{agents.ToolRetrieveNode, agents.ToolRetrieveEdge, agents.ToolPickAndPlace}
	conv := &conversation{model: a.model, env: env, req: llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Text: user}}, Tools: agents.ToolDecls(env, tools...), Context: cc,
	}, textEnds: true}
	if sight != nil {
		sight.show(&conv.req)
	}
	var withdraw func()
	if a.mode == sgcotSingleRetrieval {
		withdraw = func() {
			conv.req.Tools = agents.ToolDecls(env, slices.DeleteFunc(slices.Clone(tools), isRetrieval)...)
		}
	}
	return answerLoop(ctx, conv, sgcotAnswerMaxTurns, withdraw)
}
