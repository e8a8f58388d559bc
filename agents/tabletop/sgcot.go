package tabletop

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

func init() {
	agents.RegisterWorkflow("sgcot", "LLM workflow: SG-CoT; a perceive call writes the scene graph from the detected objects, then the prompt lists the objects and the graph schema, the model retrieves nodes and edges turn by turn, then asks or acts",
		sgcotFactory("sgcot", sgcotRetrieve))
	agents.RegisterWorkflow("sgcot-full-graph", "SG-CoT ablation: the perceived scene graph whole in the first prompt, no retrieval",
		sgcotFactory("sgcot-full-graph", sgcotFullGraph))
	agents.RegisterWorkflow("sgcot-single-retrieval", "SG-CoT ablation: one retrieval turn, then graph access is withdrawn and the model must decide",
		sgcotFactory("sgcot-single-retrieval", sgcotSingleRetrieval))
	agents.RegisterWorkflow("sgcot-no-edges", "SG-CoT ablation: the perceive call writes the nodes only; retrieval over a graph without edges (no relations)",
		sgcotFactory("sgcot-no-edges", sgcotNoEdges))
	// Under --perception image each shows the model the robot's camera
	// image; --perception detector gives it the detector's list instead.
	for _, name := range []string{"sgcot", "sgcot-full-graph", "sgcot-single-retrieval", "sgcot-no-edges"} {
		agents.SetShowsImages(name, "--perception detector")
	}
}

// SG-CoT variants: the method, and the ablations of section 4.2.
type sgcotMode int

const (
	sgcotRetrieve        sgcotMode = iota // objects and schema up front, retrieval turn by turn
	sgcotFullGraph                        // the whole graph up front, no retrieval tools
	sgcotNoEdges                          // retrieval over nodes only: every relation query is empty
	sgcotSingleRetrieval                  // one retrieval turn, then the retrieval tools are withdrawn
	sgcotText                             // the method in the paper's text protocol (sgcot_text.go)
)

func sgcotFactory(name string, mode sgcotMode) agents.Factory {
	return func(cfg agents.Config) (agents.Agent, error) {
		return &sgcot{model: cfg.Model, maxTurns: sgcotMaxTurns, mode: mode, image: cfg.Perception == agents.PerceptionImage,
			askRobotFirst: cfg.AskRobotFirst}, nil
	}
}

// sgcot is SG-CoT: it perceives the scene graph first (perceive.go:
// the detector's objects, a perceive call in which the model writes the
// relations; every variant makes it, no-edges asking for the nodes only),
// then runs the iterative loop of section 3.3 over that graph: the first prompt
// holds the instruction, the detected objects and the scene-graph schema,
// not the graph. Each turn the model reasons and makes one request —
// retrieve_node, retrieve_edge, ask with a tag, ask_robot, or its final
// pick_and_place calls — whose result is appended to the history. After
// maxTurns it is told to decide.
type sgcot struct {
	model         llm.Model
	maxTurns      int
	mode          sgcotMode
	image         bool // perception=image: the model reads the camera image
	askRobotFirst bool // agents.Config.AskRobotFirst
}

const sgcotMaxTurns = 14

type sgcotPrompt struct {
	promptData
	Objects, AttrKeys, Relations string
	MaxTurns                     int
	Image                        bool // the prompt shows the camera image (perception=image)
}

func (a *sgcot) Run(ctx context.Context, env agents.Env) error {
	var g *scenes.Graph
	var at map[string][2]int
	var sight *sight
	var err error
	if a.image {
		sight, err = perceiveFromImage(ctx, a.model, env, a.mode != sgcotNoEdges)
		if sight != nil {
			g, at = sight.graph, sight.at
		}
	} else {
		g, err = perceiveScene(ctx, a.model, env, a.mode != sgcotNoEdges)
	}
	if err != nil {
		return agents.Finish(err)
	}
	// The table records what this perception got wrong; asked of the
	// table's own Env, before the wrappers below hide it.
	if r, ok := env.(agents.PerceptionReporter); ok {
		if err := r.ReportPerception(g, at); err != nil {
			return fmt.Errorf("sgcot: reporting its perception to the table: %w", err)
		}
	}
	if a.image {
		// What the robot saw is what it knows: a later look (after
		// ask_robot) keeps these names.
		env = eyesAfter(a.model, env, sight).acting(env)
	}
	env = perceivedEnv{env, g}
	if a.mode == sgcotText {
		return a.runText(ctx, env, g, sight)
	}
	objects, keys, rels := outline(g)
	if a.mode == sgcotNoEdges {
		rels = nil
	}
	cc := &llm.CallContext{Role: llm.CallPlan, Track: "tabletop", Instruction: env.Instruction(), Robot: env.Robot(),
		Partner: env.Partner(), Objects: objects, Format: llm.FormatToolCalls}
	tools := []string{agents.ToolRetrieveNode, agents.ToolRetrieveEdge, agents.ToolAsk, agents.ToolPickAndPlace, agents.ToolDone}
	graphJSON := ""
	if a.mode == sgcotFullGraph {
		cc.Graph, cc.Objects = g, nil
		tools = []string{agents.ToolAsk, agents.ToolPickAndPlace, agents.ToolDone}
		data, err := json.MarshalIndent(g, "", " ")
		if err != nil {
			return agents.Finish(err)
		}
		graphJSON = string(data)
	}
	data := sgcotPrompt{
		promptData: promptData{Instruction: env.Instruction(), Robot: env.Robot(), Partner: env.Partner(),
			Places: strings.Join(scenes.PlaceNames, ", "), GraphJSON: graphJSON, AskRobotFirst: a.askRobotFirst},
		Objects: strings.Join(objects, ", "), AttrKeys: strings.Join(keys, ", "), Relations: strings.Join(rels, ", "),
		MaxTurns: a.maxTurns, Image: a.image,
	}
	system, err := renderIn(ctx, "sgcot_system.tmpl", data)
	if err != nil {
		return err
	}
	user, err := renderIn(ctx, "sgcot_user.tmpl", data)
	if err != nil {
		return err
	}
	if env.Partner() != "" {
		tools = append(tools, agents.ToolAskRobot)
	}
	conv := &conversation{model: a.model, env: env, req: llm.Request{
		System: system, Messages: []llm.Message{{Role: llm.RoleUser, Text: user}}, Tools: agents.ToolDecls(env, tools...), Context: cc,
	}}
	if sight != nil {
		// As the paper's planner: the instruction and the image.
		sight.show(&conv.req)
	}
	for turn := range a.maxTurns {
		ended, err := conv.turn(ctx)
		if ended || err != nil {
			return agents.Finish(err)
		}
		if a.mode == sgcotSingleRetrieval && turn == 0 {
			closed, err := renderIn(ctx, "graph_withdrawn.tmpl", data)
			if err != nil {
				return err
			}
			conv.req.Messages = append(conv.req.Messages, llm.Message{Role: llm.RoleUser, Text: closed})
			conv.req.Tools = agents.ToolDecls(env, slices.DeleteFunc(tools, isRetrieval)...)
		}
	}
	// The forced decision: no more retrieval.
	forced, err := renderIn(ctx, "forced_decision.tmpl", data)
	if err != nil {
		return err
	}
	conv.req.Messages = append(conv.req.Messages, llm.Message{Role: llm.RoleUser, Text: forced})
	conv.req.Tools = agents.ToolDecls(env, agents.ToolAsk, agents.ToolPickAndPlace, agents.ToolDone)
	ended, err := conv.turn(ctx)
	if ended || err != nil {
		return agents.Finish(err)
	}
	if err := agents.Done(ctx, env); err != nil {
		return agents.Finish(err)
	}
	return fmt.Errorf("sgcot: no decision after %d turns and a forced one", a.maxTurns)
}

func isRetrieval(tool string) bool {
	return tool == agents.ToolRetrieveNode || tool == agents.ToolRetrieveEdge
}

// outline is what SG-CoT's prompts show of a graph they do not show
// whole: its object ids and its schema.
func outline(g *scenes.Graph) (objects, attrKeys, relations []string) {
	for _, n := range g.Nodes {
		objects = append(objects, n.ID)
	}
	attrKeys, relations = g.Schema()
	return objects, attrKeys, relations
}
