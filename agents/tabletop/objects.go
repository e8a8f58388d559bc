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
// They read the same detector as SG-CoT (detect_objects), so that
// scene_graph_noise's misread attributes reach every method alike; and
// their own code rebuilds the relations from the detector's boxes
// (sceneOf), as the robot's perception: Inner Monologue's success
// detector and scene descriptions, and ProgPrompt's assertion checks,
// read that graph. No prompt of theirs shows a relation.

// frameNote tells the model how to read the positions; every baseline
// prompt that lists objects carries it.
const frameNote = `Positions are (x, y) on the table in metres: x grows to the right and y away from the robots, so "left of" means a smaller x and "above" a larger y.`

// sceneOf is the scene graph the robot's perception builds from the
// detector's boxes: the geometric relations of scenes.BuildGraph, which
// at the detector's hundredth of a millimetre are the table's, between
// the objects as the detector read them.
func sceneOf(ds []llm.Detection) *scenes.Graph {
	objs := make([]scenes.Object, len(ds))
	for i, d := range ds {
		objs[i] = d.Object()
	}
	return scenes.BuildGraph(objs)
}

// asListed are the detections as a baseline's prompt shows them, for its
// call context: the type, colour and workspace, and the centre on the
// table plane to the whole millimetre the prompt prints (so that
// Detection.TableXY gives the printed numbers); no height, size or other
// attribute, which the list does not show.
func asListed(ds []llm.Detection) []llm.Detection {
	out := make([]llm.Detection, len(ds))
	for i, o := range listed(ds) {
		attrs := make(map[string]string, 3)
		for k, v := range map[string]string{scenes.AttrType: o.Type, scenes.AttrColor: o.Color, scenes.AttrWorkspace: o.Workspace} {
			if v != "" {
				attrs[k] = v
			}
		}
		out[i] = llm.Detection{ID: o.ID, Attributes: attrs, Pos: [3]float64{wholeMM(ds[i].Pos[0]), wholeMM(ds[i].Pos[1]), 0}}
	}
	return out
}

// wholeMM rounds millimetres to whole ones, with no negative zero.
func wholeMM(v float64) float64 {
	if r := math.Round(v); r != 0 {
		return r
	}
	return 0
}

// listedObject is a detection as a baseline prompt lists it: id, type,
// colour, workspace, and the centre on the table in metres.
type listedObject struct {
	ID, Type, Color, Workspace string
	X, Y                       float64
	// InImage: the object was detected in the camera image, which the
	// prompt shows; the list gives no position.
	InImage bool
}

// listed turns detections into the list a prompt shows, positions rounded
// to the millimetre the prompt prints (llm.Detection.TableXY). (At
// centimetres two offsets of a block from a reference object tie often
// enough, on the spatial family's tables, to leave its direction
// unreadable; the graph's relations are drawn from the boxes.)
func listed(ds []llm.Detection) []listedObject {
	out := make([]listedObject, len(ds))
	for i, d := range ds {
		ws := d.Attributes[scenes.AttrWorkspace]
		if ws == scenes.RegionTable {
			ws = ""
		}
		x, y := d.TableXY()
		out[i] = listedObject{ID: d.ID, Type: d.Attributes[scenes.AttrType], Color: d.Attributes[scenes.AttrColor],
			Workspace: ws, X: x, Y: y}
	}
	return out
}

// objectLine writes one detected object: "red block 1 (red block) at
// (-0.120, -0.452), in robot2's workspace".
func objectLine(o listedObject) string {
	var b strings.Builder
	b.WriteString(o.ID)
	if attrs := strings.TrimSpace(o.Color + " " + o.Type); attrs != "" {
		fmt.Fprintf(&b, " (%s)", attrs)
	}
	if !o.InImage {
		fmt.Fprintf(&b, " at (%.3f, %.3f)", o.X, o.Y)
	}
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
func objectLines(objs []listedObject) string {
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
	// Image says that the prompt shows the camera image, and the list
	// gives no positions (perception=image).
	Image bool
}

// listRequest opens an episode for a workflow that shows the objects it
// sees: it looks (relations: with the relations, for the workflow's own
// checks), renders the workflow's system and user prompts with the object
// list (askFirst: promptData.AskRobotFirst), and returns the first
// request, with the tabletop's action tools (ask_robot when there is a
// partner), and the look.
func listRequest(ctx context.Context, eyes *eyes, env agents.Env, relations, askFirst bool, systemTmpl, userTmpl string) (llm.Request, *look, error) {
	l, err := eyes.see(ctx, relations)
	if err != nil {
		return llm.Request{}, nil, err
	}
	cc := &llm.CallContext{Role: llm.CallPlan, Track: "tabletop", Instruction: env.Instruction(), Robot: env.Robot(),
		Partner: env.Partner(), Detections: l.context(), Format: llm.FormatToolCalls}
	data := listData{promptData: promptData{Instruction: env.Instruction(), Robot: env.Robot(), Partner: env.Partner(),
		Places: strings.Join(scenes.PlaceNames, ", "), AskRobotFirst: askFirst}, Objects: objectLines(l.listed()), Frame: l.frame(), Image: l.sight != nil}
	req, err := openingRequest(ctx, env, cc, data, systemTmpl, userTmpl)
	if err != nil {
		return llm.Request{}, nil, err
	}
	l.show(&req)
	return req, l, nil
}
