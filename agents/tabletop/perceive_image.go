package tabletop

import (
	"cmp"
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
	data := perceivePrompt{Robot: env.Robot(), Objects: boxLines(nodes), Edges: edges}
	user, err := render("perceive_image.tmpl", data)
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
		return perceptionJSON(text, ds, edges, true)
	})
	if err != nil {
		return nil, err
	}
	// A node the reply renamed is still where it was seen.
	inImage := make([]llm.Detection, len(g.Nodes))
	for i, n := range g.Nodes {
		at[n.ID] = nodes[i].At
		// As detected (colour and type), not as the graph has it: the
		// planning prompt names the nodes and shows the image, no more.
		inImage[i] = llm.Detection{ID: n.ID, Attributes: nodes[i].Attributes, Box: nodes[i].Box}
	}
	return &sight{graph: g, at: at, img: img, seen: seen, inImage: inImage}, nil
}

// detectInImage is the detection call: the image and the detection
// prompt; a reply that cannot be read is asked for again once, with why.
func detectInImage(ctx context.Context, model llm.Model, robot string, img llm.Image, seen []llm.Seen, size [2]int) ([]seenNode, error) {
	user, err := render("detect_image.tmpl", struct{ Robot string }{robot})
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
// them: index, id, attributes, box.
func boxLines(nodes []seenNode) string {
	var b strings.Builder
	for i, n := range nodes {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strconv.Itoa(i))
		b.WriteString(": ")
		b.WriteString(n.ID)
		fmt.Fprintf(&b, " (color %s, type %s); box [%d, %d, %d, %d]", n.Attributes[scenes.AttrColor], n.Attributes[scenes.AttrType], n.Box[0], n.Box[1], n.Box[2], n.Box[3])
	}
	return b.String()
}

// seeingEnv passes SG-CoT's pick_and_place calls to the table with where
// their objects were seen: the table acts on what is there (grounding by
// geometry), and a name the graph does not hold goes as it is. A named
// place ("middle") has no point. After a move the block is where it was
// put: at the point of the object it was put on or in, or, put at a named
// place, nowhere the robot has seen. Once the other robot has answered an
// ask_robot (it may have moved things), the robot looks again: one more
// detection call on a new image, and each node moves to the nearest
// object of its colour and type seen there. One goroutine plays the
// robot, so the points need no lock.
type seeingEnv struct {
	agents.Env
	at    map[string][2]int
	model llm.Model
	graph *scenes.Graph
}

func (e seeingEnv) Call(ctx context.Context, c agents.ToolCall) (agents.Result, error) {
	if c.Name == agents.ToolAskRobot {
		r, err := e.Env.Call(ctx, c)
		if err != nil || r.Error != "" || r.Ended {
			return r, err
		}
		if err := e.lookAgain(ctx); err != nil {
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
	if p, ok := e.at[a.Pick]; ok && a.PickAt == nil {
		a.PickAt = &p
	}
	if p, ok := e.at[a.Place]; ok && a.PlaceAt == nil {
		a.PlaceAt = &p
	}
	raw, err := json.Marshal(a)
	if err != nil {
		return agents.Result{}, err
	}
	r, err := e.Env.Call(ctx, agents.ToolCall{Name: c.Name, Args: raw})
	if err == nil && r.Error == "" {
		if a.PlaceAt != nil {
			e.at[a.Pick] = *a.PlaceAt
		} else {
			delete(e.at, a.Pick)
		}
	}
	return r, err
}

// lookAgain detects the objects in a new image and moves each node of the
// graph to the nearest object of its colour and type seen there, one node
// to an object; a node with none left is forgotten (its name then goes to
// the table as it is).
func (e seeingEnv) lookAgain(ctx context.Context) error {
	cam, ok := e.Env.(agents.Camera)
	if !ok {
		return nil
	}
	img, seen, err := cam.View()
	if err != nil {
		return fmt.Errorf("%s's camera: %w", e.Robot(), err)
	}
	found, err := detectInImage(ctx, e.model, e.Robot(), img, seen, [2]int{img.Width, img.Height})
	if err != nil {
		return err
	}
	// Closest pairs first, over every node and every object seen: an
	// object that stayed where it was keeps its node, and the one that
	// moved takes the node left over, wherever the other robot put it.
	type pair struct{ node, obj, d int }
	var pairs []pair
	for ni, n := range e.graph.Nodes {
		old, had := e.at[n.ID]
		for i, f := range found {
			if f.Attributes[scenes.AttrColor] != n.Attributes[scenes.AttrColor] || f.Attributes[scenes.AttrType] != n.Attributes[scenes.AttrType] {
				continue
			}
			d := 0
			if had {
				dy, dx := f.At[0]-old[0], f.At[1]-old[1]
				d = dy*dy + dx*dx
			}
			pairs = append(pairs, pair{ni, i, d})
		}
	}
	slices.SortStableFunc(pairs, func(a, b pair) int { return cmp.Compare(a.d, b.d) })
	nodeDone, objTaken := make([]bool, len(e.graph.Nodes)), make([]bool, len(found))
	for _, p := range pairs {
		if nodeDone[p.node] || objTaken[p.obj] {
			continue
		}
		nodeDone[p.node], objTaken[p.obj] = true, true
		e.at[e.graph.Nodes[p.node].ID] = found[p.obj].At
	}
	for ni, n := range e.graph.Nodes {
		if !nodeDone[ni] {
			delete(e.at, n.ID)
		}
	}
	return nil
}

// Tally passes the count of a call the workflow answers itself (a
// retrieval over its graph) to the table.
func (e seeingEnv) Tally(c agents.ToolCall) (agents.Result, bool) {
	if t, ok := e.Env.(tallier); ok {
		return t.Tally(c)
	}
	return agents.Result{}, true
}
