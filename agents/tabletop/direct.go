package tabletop

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/ambibench/ambibench/agents"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

func init() {
	agents.RegisterWorkflow("direct", "LLM workflow: the whole scene graph and the instruction in one prompt; the model plans with tool calls (SG-CoT's full-graph ablation)",
		func(cfg agents.Config) (agents.Agent, error) {
			return &direct{model: cfg.Model}, nil
		})
}

// direct is the "entire scene graph in the prompt" ablation of SG-CoT
// (section 4.2): one prompt holds the instruction and the robot's whole
// scene graph, and the model answers with tool calls — pick_and_place,
// ask with a tag, ask_robot — which run in order, their results going back
// into the conversation, until the episode ends.
type direct struct{ model llm.Model }

const (
	directMaxTurns = 12 // model calls per episode
	maxMalformed   = 3  // consecutive replies without a usable call
	answerMaxTurns = 4  // model calls to answer the partner
)

// directTools are the tools direct offers the model: no retrieval, since
// the whole graph is in the prompt.
func directTools(env agents.Env, names ...string) []llm.ToolDecl {
	var out []llm.ToolDecl
	for _, t := range env.Tools() {
		for _, n := range names {
			if t.Name == n {
				out = append(out, llm.ToolDecl{Name: t.Name, Description: t.Description, Schema: t.Schema})
			}
		}
	}
	return out
}

type promptData struct {
	Instruction, Robot, Partner, GraphJSON, Places, Message string
}

// shownGraph is the scene graph as a prompt that lists object ids (and
// workspaces) and relations shows it, for the call's context: each node
// keeps the attributes its id names (colour and type, as in "red block 1")
// and its workspace, and loses the rest (size), which the prompt does not
// show; the edges are kept, since the prompt lists every relation.
func shownGraph(g *scenes.Graph) *scenes.Graph {
	if g == nil {
		return nil
	}
	out := &scenes.Graph{Nodes: make([]scenes.Node, len(g.Nodes)), Edges: g.Edges}
	for i, n := range g.Nodes {
		words := strings.Fields(n.ID)
		attrs := map[string]string{}
		for k, v := range n.Attributes {
			if k == scenes.AttrWorkspace || slices.Contains(words, v) {
				attrs[k] = v
			}
		}
		out.Nodes[i] = scenes.Node{ID: n.ID, Attributes: attrs}
	}
	return out
}

// observe returns the robot's scene graph, through the get_scene_graph
// tool, and its JSON as the prompt shows it.
func observe(ctx context.Context, env agents.Env) (*scenes.Graph, string, error) {
	r, err := agents.Check(agents.Call(ctx, env, agents.ToolGetSceneGraph, nil))
	if err != nil {
		return nil, "", err
	}
	if r.Graph == nil {
		return nil, "", fmt.Errorf("get_scene_graph returned no graph: %s", r.Text)
	}
	data, err := json.MarshalIndent(r.Graph, "", " ")
	return r.Graph, string(data), err
}

func (a *direct) Run(ctx context.Context, env agents.Env) error {
	req, err := graphRequest(ctx, env, "direct_system.tmpl", "direct_user.tmpl")
	if err != nil {
		return agents.Finish(err)
	}
	conv := &conversation{model: a.model, env: env, req: req}
	return takeTurns(ctx, env, "direct", directMaxTurns, conv.turn)
}

// graphRequest opens an episode for a workflow that shows the whole scene
// graph: it observes the scene, renders the workflow's system and user
// prompts with the graph, and returns the first request, with the
// tabletop's action tools (ask_robot when there is a partner).
func graphRequest(ctx context.Context, env agents.Env, systemTmpl, userTmpl string) (llm.Request, error) {
	g, graphJSON, err := observe(ctx, env)
	if err != nil {
		return llm.Request{}, err
	}
	cc := &llm.CallContext{Role: llm.CallPlan, Track: "tabletop", Instruction: env.Instruction(), Robot: env.Robot(),
		Partner: env.Partner(), Graph: g, Format: llm.FormatToolCalls}
	data := promptData{Instruction: env.Instruction(), Robot: env.Robot(), Partner: env.Partner(),
		GraphJSON: graphJSON, Places: strings.Join(scenes.PlaceNames, ", ")}
	system, err := render(systemTmpl, data)
	if err != nil {
		return llm.Request{}, err
	}
	user, err := render(userTmpl, data)
	if err != nil {
		return llm.Request{}, err
	}
	tools := []string{agents.ToolPickAndPlace, agents.ToolAsk, agents.ToolDone}
	if env.Partner() != "" {
		tools = append(tools, agents.ToolAskRobot)
	}
	return llm.Request{System: system, Messages: []llm.Message{{Role: llm.RoleUser, Text: user}}, Tools: directTools(env, tools...), Context: cc}, nil
}

// takeTurns runs turn until it says the episode ended or fails, at most
// maxTurns times; then the robot reports done, and the workflow, named
// agent, an episode that did not end.
func takeTurns(ctx context.Context, env agents.Env, agent string, maxTurns int, turn func(context.Context) (bool, error)) error {
	for range maxTurns {
		ended, err := turn(ctx)
		if ended || err != nil {
			return agents.Finish(err)
		}
	}
	if err := agents.Done(ctx, env); err != nil {
		return agents.Finish(err)
	}
	return fmt.Errorf("%s: no end after %d model calls", agent, maxTurns)
}

// Respond answers the partner's message with the model.
func (a *direct) Respond(ctx context.Context, env agents.Env, message string) (string, error) {
	return answerPartner(ctx, a.model, env, message)
}

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
		Messages: []llm.Message{{Role: llm.RoleUser, Text: user}}, Tools: directTools(env, agents.ToolPickAndPlace), Context: cc,
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

// conversation runs a tool loop: each turn calls the model, runs the tool
// calls of its reply in order, and feeds their results back.
type conversation struct {
	model     llm.Model
	env       agents.Env
	req       llm.Request
	malformed int
	// textEnds makes a reply without tool calls the end of the loop (the
	// answer to the partner) rather than a malformed turn.
	textEnds bool
	lastText string
}

// turn makes one model call. ended is true when the episode (or, with
// textEnds, the answer) is over.
func (c *conversation) turn(ctx context.Context) (ended bool, err error) {
	reply, err := c.model.Generate(ctx, c.req)
	if err != nil {
		return false, fmt.Errorf("model %s: %w", c.model.Name(), err)
	}
	c.req.Messages = append(c.req.Messages, llm.Message{Role: llm.RoleAssistant, Text: reply.Text, ToolCalls: reply.ToolCalls})
	if len(reply.ToolCalls) == 0 {
		if c.textEnds {
			c.lastText = strings.TrimSpace(reply.Text)
			return true, nil
		}
		c.malformed++
		if c.malformed >= maxMalformed {
			if err := agents.Done(ctx, c.env); err != nil {
				return true, err
			}
			return true, fmt.Errorf("model %s: %d replies in a row without a tool call; last: %.200q", c.model.Name(), c.malformed, reply.Text)
		}
		c.req.Messages = append(c.req.Messages, llm.Message{Role: llm.RoleUser, Text: "Your reply had no tool call. Act only through the tools."})
		return false, nil
	}
	c.malformed = 0
	for _, tc := range reply.ToolCalls {
		r, err := c.env.Call(ctx, agents.ToolCall{Name: tc.Name, Args: tc.Args})
		if err != nil {
			return true, err
		}
		c.req.Messages = append(c.req.Messages, llm.Message{Role: llm.RoleTool, ToolCallID: tc.ID, Name: tc.Name, Text: r.Text})
		if r.Ended {
			return true, nil
		}
	}
	return false, nil
}
