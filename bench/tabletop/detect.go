package tabletop

import (
	"encoding/json"
	"maps"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// detections are the objects behind the robot's perceived graph, as an
// object detector reports them: one per node, in the graph's order, named
// and attributed as the node is (so a misread colour or workspace reads
// the same in the list as in the graph), with the true box of the object
// it stands for. The detector places what it sees right; perception noise
// acts on names and relations, which is what the graph carries.
// get_scene_graph returns them beside the graph, for workflows that show
// an object list instead of the graph.
func (e *robotEnv) detections(g *scenes.Graph) []scenes.Object {
	if g == nil || len(g.Nodes) == 0 {
		return nil
	}
	seen := map[string]scenes.Object{}
	for _, o := range e.st.world.Observe(e.robot) {
		seen[o.ID] = o
	}
	out := make([]scenes.Object, 0, len(g.Nodes))
	for _, n := range g.Nodes {
		o, ok := seen[e.actual(n.ID)]
		if !ok {
			continue // a node the table does not hold: nothing to place
		}
		o.ID, o.Attributes = n.ID, maps.Clone(n.Attributes)
		o.Class = n.Attributes[scenes.AttrType]
		o.Region = n.Attributes[scenes.AttrWorkspace]
		out = append(out, o)
	}
	return out
}

// detectObjects is detect_objects' result: the objects in the robot's view,
// as a detector reports them (JSON of []llm.Detection). The detector
// reads ids, attributes and boxes right; the misreadings of
// scene_graph_noise are the graph builder's (get_scene_graph's here,
// the model's at a perceive call).
func (e *robotEnv) detectObjects() string {
	objs := e.st.world.Observe(e.robot)
	ds := make([]llm.Detection, len(objs))
	for i, o := range objs {
		ds[i] = llm.DetectionOf(o)
	}
	b, _ := json.Marshal(ds) // strings and numbers always encode
	return string(b)
}
