package tabletop

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// SG-CoT as its paper ran it (perception=image): the robot's camera image
// goes to the model twice. First a detection call lists the objects with
// their boxes (detect_image.go); then the scene-graph call gets the image
// and that list and writes the graph: corrected nodes, and edges whose
// relation names are the model's own. SG-CoT plans over that graph, and
// its pick_and_place calls carry where each object was seen, so the table
// acts on what is there (seeingEnv).

// sight is what a robot perceived through its camera: the graph the model
// wrote, where each node was seen (a pixel), and the image with what the
// renderer drew in it, which the planning call shows again.
type sight struct {
	graph *scenes.Graph
	at    map[string][2]int
	img   llm.Image
	seen  []llm.Seen
	// inImage are the graph's nodes with the boxes they were detected in.
	inImage []llm.Detection
}

// show puts the image in a planning call: in its first message, and in
// its context for the simulated model.
func (s *sight) show(req *llm.Request) {
	req.Messages[0].Images = []llm.Image{s.img}
	req.Context.Seen, req.Context.ImageSize, req.Context.InImage = s.seen, [2]int{s.img.Width, s.img.Height}, s.inImage
}

// perceiveFromImage is perceiveScene for perception=image.
func perceiveFromImage(ctx context.Context, model llm.Model, env agents.Env, edges bool) (*sight, error) {
	return lookAtImage(ctx, model, env, true, edges)
}

// lookAtImage takes the robot's camera image and has the model detect the
// objects in it; with graphCall, the scene-graph call follows (with edges,
// or the nodes only), else the graph is the detected nodes alone.
func lookAtImage(ctx context.Context, model llm.Model, env agents.Env, graphCall, edges bool) (*sight, error) {
	cam, ok := env.(agents.Camera)
	if !ok {
		return nil, fmt.Errorf("perception=image: %s has no camera on this table", env.Robot())
	}
	img, seen, err := cam.View()
	if err != nil {
		return nil, fmt.Errorf("perception=image: %s's camera: %w", env.Robot(), err)
	}
	size := [2]int{img.Width, img.Height}
	nodes, err := detectInImage(ctx, model, env.Robot(), img, seen, size)
	if err != nil {
		return nil, err
	}
	at := make(map[string][2]int, len(nodes))
	g := &scenes.Graph{Nodes: make([]scenes.Node, len(nodes))}
	ds := make([]llm.Detection, len(nodes))
	for i, n := range nodes {
		g.Nodes[i] = n.Node
		ds[i] = llm.Detection{ID: n.ID, Attributes: n.Attributes, Box: n.Box}
	}
	if len(nodes) == 0 {
		return &sight{graph: g, at: at, img: img, seen: seen}, nil
	}
	if !graphCall {
		for i, n := range nodes {
			at[n.ID] = n.At
			ds[i] = llm.Detection{ID: n.ID, Attributes: n.Attributes, Box: n.Box}
		}
		return &sight{graph: g, at: at, img: img, seen: seen, inImage: ds}, nil
	}
	data := perceivePrompt{Robot: env.Robot(), Objects: boxLines(nodes), Edges: edges}
	user, err := renderIn(ctx, "perceive_image.tmpl", data)
	if err != nil {
		return nil, err
	}
	cc := &llm.CallContext{Role: llm.CallPerceive, Track: agents.TrackTabletop, Robot: env.Robot(), Detections: ds,
		Seen: seen, ImageSize: size, Format: llm.FormatJSON}
	if !edges {
		cc.Mode = llm.ModeNodesOnly
	}
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: user, Images: []llm.Image{img}}}, Context: cc}
	g, err = askUntilRead(ctx, model, req, "perceive", "the scene graph", func(text string) (*scenes.Graph, error) {
		// A reply in the table's own relation names reads fast, as
		// encoding/json reads it (FuzzParsePerception); the model's own
		// names go through encoding/json.
		if g, ok := fastPerception(text, ds, edges); ok {
			return g, nil
		}
		return perceptionJSON(text, ds, edges, true)
	})
	if err != nil {
		return nil, err
	}
	// A node the reply renamed is still where it was seen.
	// As detected (colour and type), not as the graph has it: the
	// planning prompt names the nodes and shows the image, no more. That
	// is the list the reply was asked over (only read, as it is), but
	// for a node the reply renamed.
	inImage, copied := ds, false
	for i, n := range g.Nodes {
		at[n.ID] = nodes[i].At
		if n.ID != ds[i].ID {
			if !copied {
				inImage, copied = slices.Clone(ds), true
			}
			inImage[i].ID = n.ID
		}
	}
	return &sight{graph: g, at: at, img: img, seen: seen, inImage: inImage}, nil
}

// detectInImage is the detection call: the image and the detection
// prompt; a reply that cannot be read is asked for again once, with why.
func detectInImage(ctx context.Context, model llm.Model, robot string, img llm.Image, seen []llm.Seen, size [2]int) ([]seenNode, error) {
	user, err := renderIn(ctx, "detect_image.tmpl", struct{ Robot string }{robot})
	if err != nil {
		return nil, err
	}
	cc := &llm.CallContext{Role: llm.CallDetect, Track: agents.TrackTabletop, Robot: robot, Seen: seen, ImageSize: size, Format: llm.FormatJSON}
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: user, Images: []llm.Image{img}}}, Context: cc}
	return askUntilRead(ctx, model, req, "detect", "the objects in the image", func(text string) ([]seenNode, error) {
		objs, err := parseImageObjects(text)
		if err != nil {
			return nil, err
		}
		return seenNodes(objs), nil
	})
}

// boxLines lists the detected objects as the scene-graph prompt shows
// them: index, id, attributes, box. The lines are written without fmt,
// into a builder sized for them (a crowded table lists 48): a line's
// words, its id twice (the id names the colour and type, seenNodes), and
// room for its numbers as a reply's boxes have them (0 to 1000). A line
// of a crowded table's was longer than a flat 64 bytes, and the builder
// grew to twice the list.
func boxLines(nodes []seenNode) string {
	var b strings.Builder
	size := 0
	for _, n := range nodes {
		size += len("99: ") + 2*len(n.ID) + len(" (color , type ); box [0000, 0000, 0000, 0000]\n")
	}
	b.Grow(size)
	for i, n := range nodes {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strconv.Itoa(i))
		b.WriteString(": ")
		b.WriteString(n.ID)
		b.WriteString(" (color ")
		b.WriteString(n.Attributes[scenes.AttrColor])
		b.WriteString(", type ")
		b.WriteString(n.Attributes[scenes.AttrType])
		b.WriteString("); box [")
		for k, v := range n.Box {
			if k > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Itoa(v))
		}
		b.WriteByte(']')
	}
	return b.String()
}

// seeingEnv passes a workflow's pick_and_place calls to the table with
// where their objects were seen (eyes.at): the table acts on what is
// there (grounding by geometry), and a name the robot has not seen goes as
// it is. A named place ("middle") has no point. After a move the block is
// where it was put: at the point of the object it was put on or in, or,
// put at a named place, nowhere the robot has seen. Once the other robot
// has answered an ask_robot (it may have moved things), the robot looks
// again: one more detection call on a new image, whose objects keep the
// names of the nearest objects of their colour and type (eyes.rename).
// One goroutine plays the robot, so the points need no lock.
type seeingEnv struct {
	agents.Env
	eyes *eyes
}

func (e seeingEnv) Call(ctx context.Context, c agents.ToolCall) (agents.Result, error) {
	if c.Name == agents.ToolAskRobot {
		r, err := e.Env.Call(ctx, c)
		if err != nil || r.Error != "" || r.Ended {
			return r, err
		}
		if _, err := e.eyes.see(ctx, false); err != nil {
			return r, fmt.Errorf("looking again after ask_robot: %w", err)
		}
		return r, nil
	}
	if c.Name != agents.ToolPickAndPlace {
		return e.Env.Call(ctx, c)
	}
	args, err := agents.DecodeArgs(c)
	if err != nil {
		return e.Env.Call(ctx, c)
	}
	a := args.(*agents.PickAndPlaceArgs)
	at := e.eyes.at
	if p, ok := at[a.Pick]; ok && a.PickAt == nil {
		a.PickAt = &p
	}
	if p, ok := at[a.Place]; ok && a.PlaceAt == nil {
		a.PlaceAt = &p
	}
	raw, err := json.Marshal(a)
	if err != nil {
		return agents.Result{}, err
	}
	r, err := e.Env.Call(ctx, agents.ToolCall{Name: c.Name, Args: raw})
	if err == nil && r.Error == "" {
		if a.PlaceAt != nil {
			at[a.Pick] = *a.PlaceAt
		} else {
			delete(at, a.Pick)
		}
	}
	return r, err
}

// Tally passes the count of a call the workflow answers itself (a
// retrieval over its graph) to the table.
func (e seeingEnv) Tally(c agents.ToolCall) (agents.Result, bool) {
	if t, ok := e.Env.(tallier); ok {
		return t.Tally(c)
	}
	return agents.Result{}, true
}
