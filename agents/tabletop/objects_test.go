package tabletop

import (
	"encoding/json"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// lookResult answers the test tables' looking tools over objs as the
// benchmark's table does: detect_objects with the detector's list,
// get_scene_graph with the graph.
func lookResult(name string, objs []scenes.Object) agents.Result {
	if name == agents.ToolDetectObjects {
		return agents.Result{Text: string(llm.DetectionsJSON(detections(objs)))}
	}
	g := scenes.BuildGraph(objs)
	data, _ := json.Marshal(g)
	return agents.Result{Text: string(data), Graph: g}
}

// detections are objs as the detector reports them.
func detections(objs []scenes.Object) []llm.Detection {
	ds := make([]llm.Detection, len(objs))
	for i, o := range objs {
		ds[i] = llm.DetectionOf(o)
	}
	return ds
}
