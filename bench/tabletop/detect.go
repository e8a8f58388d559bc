package tabletop

import (
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// detectObjects is detect_objects' result: the objects in the robot's
// view as its object detector reports them (JSON of []llm.Detection), in
// the order the table's graph has its nodes. The detector is where
// scene_graph_noise's node part acts: a colour, class or workspace it
// misreads (Flip) reads so in every workflow, under the id the table's
// graph gives the node (scenes.Graph.WithNoise names a misread object for
// what it seems), and the robot's actions on that id reach the object it
// stands for (actual). Boxes are true. The relation part (Drop, Spurious)
// acts where relations are made: the table's graph (get_scene_graph) and
// the model's perceive call (llm.WithPerceptionNoise).
//
// The result is written once per state of the table, like the graph's
// JSON.
func (e *robotEnv) detectObjects() string {
	v := e.view()
	if v.detections == "" {
		v.detections = string(llm.DetectionsJSON(e.detected()))
	}
	return v.detections
}

// detected are the detections behind detectObjects.
func (e *robotEnv) detected() []llm.Detection {
	objs := e.st.world.Observe(e.robot)
	ds := make([]llm.Detection, len(objs))
	for i, o := range objs {
		ds[i] = llm.DetectionOf(o)
	}
	n := e.st.ep.ViewNoise
	if n.IsZero() || n.Flip <= 0 {
		return ds
	}
	// The node part alone: without Drop and Spurious WithNoise draws no
	// edge, and it misreads and renames the nodes as it does in the
	// table's graph, whose draws are hashed from the true ids.
	g := &scenes.Graph{Nodes: make([]scenes.Node, len(ds))}
	for i, d := range ds {
		g.Nodes[i] = scenes.Node{ID: d.ID, Attributes: d.Attributes}
	}
	seen, _ := g.WithNoise(scenes.GraphNoise{Flip: n.Flip, Seed: n.Seed})
	for i := range ds {
		ds[i].ID, ds[i].Attributes = seen.Nodes[i].ID, seen.Nodes[i].Attributes
	}
	return ds
}
