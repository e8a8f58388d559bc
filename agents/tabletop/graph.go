package tabletop

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

type promptData struct {
	Instruction, Robot, Partner, GraphJSON, Places, Message string
	// AskRobotFirst has a two-robot prompt also tell the robot to ask the
	// other robot before telling the person anything is absent
	// (agents.Config.AskRobotFirst, --ask-robot-first): an ordering the
	// SG-CoT paper does not give, off by default.
	AskRobotFirst bool
}

// observe returns the robot's scene graph, through the get_scene_graph
// tool, and its JSON as the prompt shows it.
func observe(ctx context.Context, env agents.Env) (*scenes.Graph, string, error) {
	g, err := observeGraph(ctx, env)
	if err != nil {
		return nil, "", err
	}
	data, err := json.MarshalIndent(g, "", " ")
	return g, string(data), err
}

// observeGraph is observe without the JSON, for a workflow whose prompt
// does not show the graph: on a crowded table the JSON is the larger cost.
func observeGraph(ctx context.Context, env agents.Env) (*scenes.Graph, error) {
	r, err := agents.Check(agents.Call(ctx, env, agents.ToolGetSceneGraph, nil))
	if err != nil {
		return nil, err
	}
	if r.Graph == nil {
		return nil, fmt.Errorf("get_scene_graph returned no graph: %s", r.Text)
	}
	return r.Graph, nil
}

// graphRequest opens an episode for a workflow that shows the whole scene
// graph: it observes the scene, renders the workflow's system and user
// prompts with the graph (askFirst: promptData.AskRobotFirst), and returns
// the first request, with the tabletop's action tools (ask_robot when
// there is a partner).
func graphRequest(ctx context.Context, env agents.Env, askFirst bool, systemTmpl, userTmpl string) (llm.Request, error) {
	g, graphJSON, err := observe(ctx, env)
	if err != nil {
		return llm.Request{}, err
	}
	cc := &llm.CallContext{Role: llm.CallPlan, Track: "tabletop", Instruction: env.Instruction(), Robot: env.Robot(),
		Partner: env.Partner(), Graph: g, Format: llm.FormatToolCalls}
	data := promptData{Instruction: env.Instruction(), Robot: env.Robot(), Partner: env.Partner(),
		GraphJSON: graphJSON, Places: strings.Join(scenes.PlaceNames, ", "), AskRobotFirst: askFirst}
	return openingRequest(ctx, env, cc, data, systemTmpl, userTmpl)
}

// openingRequest renders a workflow's system and user prompts from data
// and returns the episode's first request, with the tabletop's action
// tools (ask_robot when there is a partner) and the call's context.
func openingRequest(ctx context.Context, env agents.Env, cc *llm.CallContext, data any, systemTmpl, userTmpl string) (llm.Request, error) {
	system, err := renderIn(ctx, systemTmpl, data)
	if err != nil {
		return llm.Request{}, err
	}
	user, err := renderIn(ctx, userTmpl, data)
	if err != nil {
		return llm.Request{}, err
	}
	tools := []string{agents.ToolPickAndPlace, agents.ToolAsk, agents.ToolDone}
	if env.Partner() != "" {
		tools = append(tools, agents.ToolAskRobot)
	}
	return llm.Request{System: system, Messages: []llm.Message{{Role: llm.RoleUser, Text: user}}, Tools: agents.ToolDecls(env, tools...), Context: cc}, nil
}
