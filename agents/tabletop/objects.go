package tabletop

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// The baselines of the SG-CoT paper — CLARA, Inner Monologue and
// ProgPrompt — get what their own papers give them: the objects an object
// detector finds, with their attributes, and not the relation graph that
// is SG-CoT's contribution. Their authors' robots saw the table through a
// camera; the detector's attributes stand in for that image here: each
// object's type and colour (its id, "red block 1", is written from them),
// the workspace it lies in at a two-robot table, and the centre of its box
// on the table in metres. Without the positions a phrase such as "the
// block left of the bowl" could not be resolved from a list at all, where
// the image showed it; with them the model has to work the relation out
// itself, which is what the relation graph does for SG-CoT.
//
// The scene graph still reaches the workflows' own code, as the robot's
// perception: Inner Monologue's success detector and scene descriptions,
// and ProgPrompt's assertion checks, read it. No prompt of theirs shows a
// relation.

// frameNote tells the model how to read the positions; every baseline
// prompt that lists objects carries it.
const frameNote = `Positions are (x, y) on the table in metres: x grows to the right and y away from the robots, so "left of" means a smaller x and "above" a larger y.`

// detect observes the table through get_scene_graph and returns the graph
// (for the workflow's own checks) and the detected objects as the prompt
// lists them.
func detect(ctx context.Context, env agents.Env) (*scenes.Graph, []llm.Object, error) {
	r, err := agents.Check(agents.Call(ctx, env, agents.ToolGetSceneGraph, nil))
	if err != nil {
		return nil, nil, err
	}
	if r.Graph == nil {
		return nil, nil, fmt.Errorf("get_scene_graph returned no graph: %s", r.Text)
	}
	if len(r.Objects) != len(r.Graph.Nodes) {
		return nil, nil, fmt.Errorf("get_scene_graph returned %d detected objects for %d graph nodes; the object list needs each node's position", len(r.Objects), len(r.Graph.Nodes))
	}
	return r.Graph, listed(r.Objects), nil
}

// listed turns detections into the list a prompt shows, positions rounded
// to the millimetre the prompt prints. (At centimetres two offsets of a
// block from a reference object tie often enough, on the spatial family's
// tables, to leave its direction unreadable; the graph's relations are
// drawn from the exact poses.)
func listed(objs []scenes.Object) []llm.Object {
	out := make([]llm.Object, len(objs))
	for i, o := range objs {
		ws := o.Attributes[scenes.AttrWorkspace]
		if ws == scenes.RegionTable {
			ws = ""
		}
		out[i] = llm.Object{ID: o.ID, Type: o.Attributes[scenes.AttrType], Color: o.Attributes[scenes.AttrColor],
			Workspace: ws, X: millimetre(o.Pose.X()), Y: millimetre(o.Pose.Y())}
	}
	return out
}

// millimetre rounds metres to three decimals, with no negative zero, so
// that the number the context holds is the one the prompt prints.
func millimetre(v float64) float64 {
	r := math.Round(v*1000) / 1000
	if r == 0 {
		return 0
	}
	return r
}

// objectLine writes one detected object: "red block 1 (red block) at
// (-0.120, -0.452), in robot2's workspace".
func objectLine(o llm.Object) string {
	var b strings.Builder
	b.WriteString(o.ID)
	if attrs := strings.TrimSpace(o.Color + " " + o.Type); attrs != "" {
		fmt.Fprintf(&b, " (%s)", attrs)
	}
	fmt.Fprintf(&b, " at (%.3f, %.3f)", o.X, o.Y)
	if w := workspacePhrase(o.Workspace); w != "" {
		b.WriteString(", " + w)
	}
	return b.String()
}

// workspacePhrase says which workspace an object is in: "in the shared
// workspace", "in robot2's workspace", or nothing at a one-robot table.
func workspacePhrase(ws string) string {
	switch ws {
	case "", scenes.RegionTable:
		return ""
	case scenes.RegionShared:
		return "in the shared workspace"
	}
	return "in " + ws + "'s workspace"
}

// objectLines writes the list, one object a line, each after a dash.
func objectLines(objs []llm.Object) string {
	lines := make([]string, len(objs))
	for i, o := range objs {
		lines[i] = "- " + objectLine(o)
	}
	return strings.Join(lines, "\n")
}

// listData fills a prompt that lists the detected objects.
type listData struct {
	promptData
	Objects, Frame string
	// Feedback says that the robot's moves are answered with success
	// detection and a description of what changed (Inner Monologue).
	Feedback bool
}

// listRequest opens an episode for a workflow that shows the detected
// objects: it observes the table, renders the workflow's system and user
// prompts with the object list, and returns the first request, with the
// tabletop's action tools (ask_robot when there is a partner).
func listRequest(ctx context.Context, env agents.Env, systemTmpl, userTmpl string) (llm.Request, error) {
	_, objs, err := detect(ctx, env)
	if err != nil {
		return llm.Request{}, err
	}
	cc := &llm.CallContext{Role: llm.CallPlan, Track: "tabletop", Instruction: env.Instruction(), Robot: env.Robot(),
		Partner: env.Partner(), Detected: objs, Format: llm.FormatToolCalls}
	data := listData{promptData: promptData{Instruction: env.Instruction(), Robot: env.Robot(), Partner: env.Partner(),
		Places: strings.Join(scenes.PlaceNames, ", ")}, Objects: objectLines(objs), Frame: frameNote}
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
	return llm.Request{System: system, Messages: []llm.Message{{Role: llm.RoleUser, Text: user}}, Tools: agents.ToolDecls(env, tools...), Context: cc}, nil
}
