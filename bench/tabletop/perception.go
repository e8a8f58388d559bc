package tabletop

import (
	"maps"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/scenes/camera"
)

// perceive returns the robot's scene graph as its perception reports it
// (the episode's ViewNoise over what the robot observes) and the true id of
// every node it names differently. Every tool that reads the table reads
// this graph, so get_scene_graph, retrieve_node and retrieve_edge agree
// with each other and, on an unchanged table, with themselves; and
// detect_objects names and attributes each object as this graph's node
// (see detectObjects). Both robots
// read through one perception module, so they misread alike.
//
// The graph is built once per robot and state of the table (a graph holds
// a relation for every pair of objects, so on a crowded table building it
// is the cost of a retrieval) and kept until an action changes the table;
// the noise is a function of the graph, so the kept graph is the one a
// rebuild would give. Callers only read it.
func (e *robotEnv) perceive() (*scenes.Graph, map[string]string) {
	v := e.view()
	if v.graph != nil {
		return v.graph, v.aliases
	}
	g := scenes.BuildGraph(e.st.world.Observe(e.robot))
	var aliases map[string]string
	if !e.st.ep.ViewNoise.IsZero() {
		g, aliases = g.WithNoise(e.st.ep.ViewNoise)
	}
	v.graph, v.aliases = g, aliases
	return g, aliases
}

// view returns what the robot perceives of the table in its present
// state, as far as a tool has asked for it.
func (e *robotEnv) view() *view {
	if v, ok := e.st.views[e.robot]; ok {
		return v
	}
	if e.st.views == nil {
		e.st.views = map[string]*view{}
	}
	v := &view{}
	e.st.views[e.robot] = v
	return v
}

// view is what a robot perceives of the table in one state: its graph,
// the true id of every node it names differently, the graph's JSON once
// get_scene_graph has written it, and detect_objects' result once it has
// been written. Each is filled when first asked for.
type view struct {
	graph      *scenes.Graph
	aliases    map[string]string
	json       string
	detections string
	// objs and vis are the table's objects and what the robot's camera
	// shows of each (camera.Visibility), once a look has asked: the
	// image a workflow reads and the perception errors the table counts
	// against it share one computation.
	objs []scenes.Object
	vis  []camera.Visible
}

// visibility is the table's objects and what the robot's camera shows of
// each, computed once per state of the table.
func (e *robotEnv) visibility() ([]scenes.Object, []camera.Visible, error) {
	v := e.view()
	if v.vis == nil {
		objs := e.st.objects()
		vis, err := camera.Visibility(objs, e.cameraOptions())
		if err != nil {
			return nil, nil, err
		}
		v.objs, v.vis = objs, vis
	}
	return v.objs, v.vis, nil
}

// graphJSON returns the JSON of the robot's perceived graph, written once
// per state of the table.
func (e *robotEnv) graphJSON() (*scenes.Graph, string) {
	g, _ := e.perceive()
	v := e.st.views[e.robot]
	if v.json == "" {
		v.json = g.CompactJSONString() // json.Marshal(g), written directly
	}
	return g, v.json
}

// changed forgets every robot's view, and the table's objects, after an
// action moved the table.
func (st *episodeState) changed() {
	clear(st.views)
	st.table = nil
}

// objects is the world's objects (physics.World.Objects), taken once per
// state of the table: a look, an action at a point of the image and the
// score read the same table, and each copy of a crowded one was 48
// objects and their attribute maps. Only an accepted action changes the
// world (a refused one changes nothing), and every one is followed by
// changed. Callers only read it.
func (st *episodeState) objects() []scenes.Object {
	if st.table == nil {
		st.table = st.world.Objects()
	}
	return st.table
}

// actual maps an id the robot perceives to the object it stands for: a
// robot that misreads a red block as blue block 2 still grasps the red
// block when it picks blue block 2. Ids it does not rename pass through.
func (e *robotEnv) actual(id string) string {
	if e.st.ep.ViewNoise.IsZero() {
		return id
	}
	_, aliases := e.perceive()
	if t, ok := aliases[id]; ok {
		return t
	}
	return id
}

// perceived rewrites a refusal about the true objects in the names the
// robot sees them by, so that a refusal does not tell it what it misread:
// not only the pick and the place but any object the table names ("is
// under green block 2", of a block the robot sees as blue block 3). An id
// the robot itself used in the call (said) stays as it wrote it.
func (e *robotEnv) perceived(reason string, said ...string) string {
	if e.st.ep.ViewNoise.IsZero() {
		return reason
	}
	_, aliases := e.perceive()
	for _, seen := range slices.Sorted(maps.Keys(aliases)) {
		if truth := aliases[seen]; !slices.Contains(said, truth) {
			reason = replaceID(reason, truth, seen)
		}
	}
	return reason
}

// replaceID replaces id in s where it stands whole: "red block 1" but not
// the start of "red block 12".
func replaceID(s, id, with string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, id)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(id)
		b.WriteString(s[:i])
		if end < len(s) && s[end] >= '0' && s[end] <= '9' {
			b.WriteString(id)
		} else {
			b.WriteString(with)
		}
		s = s[end:]
	}
}
