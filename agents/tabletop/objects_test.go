package tabletop

import (
	"maps"

	"github.com/ambibench/ambibench/scenes"
)

// detections are objs as get_scene_graph's detections report them: each
// with the attributes of its graph node (the workspace too), as the
// benchmark's table does.
func detections(objs []scenes.Object) []scenes.Object {
	g := scenes.BuildGraph(objs)
	out := make([]scenes.Object, len(objs))
	for i, o := range objs {
		o.Attributes = maps.Clone(g.Nodes[i].Attributes)
		out[i] = o
	}
	return out
}
