package tabletop

import (
	"fmt"
	"slices"

	"github.com/ambibench/ambibench/agents/llm/simmodel"
	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/scenes/camera"
)

// perceptionErrors are what an agent's own perception got wrong against
// the table, for the record (docs/metrics.md, "Tabletop: perception errors").
type perceptionErrors struct {
	phantoms, missed, wrong, unmapped int
}

// put writes the counts on a record; an agent that reported nothing
// leaves it as it was (zeros, which its JSON omits).
func (p perceptionErrors) put(rec *results.Record) {
	rec.PhantomNodes, rec.MissedObjects, rec.WrongRelations, rec.UnmappedRelations = p.phantoms, p.missed, p.wrong, p.unmapped
}

// ReportPerception implements agents.PerceptionReporter: it compares the
// graph a workflow perceived with the table as it is now, the table the
// workflow perceived, and keeps the counts for the record. Only the lead
// robot's perception is recorded (robot 1, given the instruction, not
// while it answers its partner); a later report replaces an earlier one.
//
// Which object stands under a node depends on how the graph was made. A
// graph perceived from the camera image (at given) has each node where
// it was seen: the object under it is the one camera.Pick takes at that
// point of the robot's view, as a pick_and_place at it would grasp; the
// objects the robot should have detected are those it observes with at
// least simmodel.DetectFloor of their silhouette visible, the least any
// simulated profile detects. A graph built on the detector's list (at
// nil) has each node by its id: the object under it is the observed
// object of that id, and every observed object should have been
// detected; a node the detector or the model renamed (a misread colour
// under scene_graph_noise) stands for nothing, and the object it hides
// is missed.
func (e *robotEnv) ReportPerception(g *scenes.Graph, at map[string][2]int) error {
	if e.robot != scenes.Robot1 || e.responding || g == nil {
		return nil
	}
	var (
		objs     []scenes.Object
		observed []int
		under    func(scenes.Node) (int, bool)
	)
	if at != nil {
		opt := e.cameraOptions()
		var vis []camera.Visible
		var err error
		objs, vis, err = e.visibility()
		if err != nil {
			return fmt.Errorf("perception errors of %s: the camera's view: %w", e.robot, err)
		}
		for i, v := range vis {
			if !v.Hidden && v.Fraction >= simmodel.DetectFloor {
				observed = append(observed, i)
			}
		}
		// One camera for every node's point (camera.Picker), not one a node.
		picker := camera.NewPicker(objs, opt)
		under = func(n scenes.Node) (int, bool) {
			p, ok := at[n.ID]
			if !ok {
				return -1, false // seen nowhere: nothing to stand on
			}
			return picker.Pick(float64(p[0]), float64(p[1]))
		}
	} else {
		objs = e.st.world.Observe(e.robot)
		byID := make(map[string]int, len(objs))
		for i, o := range objs {
			byID[o.ID] = i
			observed = append(observed, i)
		}
		under = func(n scenes.Node) (int, bool) {
			i, ok := byID[n.ID]
			return i, ok
		}
	}
	e.st.misperceived = countPerceptionErrors(g, objs, observed, under)
	return nil
}

// countPerceptionErrors compares a perceived graph g with the table's
// objects objs. under gives the object (an index of objs) that stands
// under a node, if any; observed are the objects (indexes of objs) the
// robot should have detected.
//
//   - A phantom is a node with no object under it.
//   - A missed object is an observed object under no node.
//   - An unmapped relation is an edge whose name scenes.ReadRelation
//     cannot read.
//   - A wrong relation is an edge whose name it reads, between two nodes
//     each with an object under it, that does not hold between those
//     objects as the table's graph (scenes.BuildGraph, whose relations
//     are those of each pair: scenes.AppendPairEdges) has them. Two nodes
//     over one object hold no relation to each other. An edge with a
//     phantom at either end is not judged: its phantom is counted.
func countPerceptionErrors(g *scenes.Graph, objs []scenes.Object, observed []int, under func(scenes.Node) (int, bool)) perceptionErrors {
	var p perceptionErrors
	// A perceived graph of n nodes holds up to n² edges (2,984 at 48
	// objects), so an edge costs no map lookup, relation reading or pair
	// test of its own where it can be helped: the nodes are indexed once,
	// an edge's ends found by where the edge before had them (a reply's
	// edges run by source, then target), a name read once, and the
	// table's relations derived once for every pair (scenes.RelationCodes,
	// the relations of scenes.AppendPairEdges).
	at := make(map[string]int, len(g.Nodes))     // the object under a node of an id
	nodeAt := make(map[string]int, len(g.Nodes)) // a node of an id
	found := make([]bool, len(objs))
	for k, n := range g.Nodes {
		nodeAt[n.ID] = k
		i, ok := under(n)
		if !ok {
			p.phantoms++
			continue
		}
		at[n.ID] = i
		found[i] = true
	}
	objAt := make([]int, len(g.Nodes)) // at[the node's id], -1 for none
	for k, n := range g.Nodes {
		if i, ok := at[n.ID]; ok {
			objAt[k] = i
		} else {
			objAt[k] = -1
		}
	}
	for _, i := range observed {
		if !found[i] {
			p.missed++
		}
	}
	// objectOf returns the object under the node of id, looking first at
	// the node at hint and the one after it, then by id; hint becomes the
	// node found.
	objectOf := func(id string, hint *int) int {
		for _, k := range [2]int{*hint, *hint + 1} {
			if k < len(g.Nodes) && g.Nodes[k].ID == id {
				return objAt[k]
			}
		}
		k, ok := nodeAt[id]
		if !ok {
			return -1
		}
		*hint = k
		return objAt[k]
	}
	// The names read so far: a reply uses a handful, edge after edge.
	type reading struct {
		name string
		r    scenes.RelationReading
		ok   bool
		code uint8 // one more than r.Relation's index in scenes.Relations
	}
	var readings []reading
	last := -1 // the reading of the edge before: a source's edges run by relation
	readName := func(name string) reading {
		if last >= 0 && readings[last].name == name {
			return readings[last]
		}
		for k, r := range readings {
			if r.name == name {
				last = k
				return r
			}
		}
		r := reading{name: name}
		r.r, r.ok = scenes.ReadRelation(name)
		r.code = uint8(slices.Index(scenes.Relations, r.r.Relation) + 1)
		if len(readings) < 16 { // an open vocabulary may have many; most are few
			readings = append(readings, r)
		}
		return r
	}
	var (
		codes            []uint8 // the table's relations, by pair; made at the first edge judged
		n                = len(objs)
		srcHint, dstHint int
	)
	for _, e := range g.Edges() {
		read := readName(e.Relation)
		if !read.ok {
			p.unmapped++
			continue
		}
		src, dst := objectOf(e.Source, &srcHint), objectOf(e.Target, &dstHint)
		if src < 0 || dst < 0 {
			continue
		}
		if read.r.Reversed {
			src, dst = dst, src
		}
		holds := false
		if src != dst {
			if codes == nil {
				codes, _ = scenes.RelationCodes(objs)
			}
			pair := codes[2*(src*n+dst) : 2*(src*n+dst)+2]
			holds = pair[0] == read.code || pair[1] == read.code
		}
		if !holds {
			p.wrong++
		}
	}
	return p
}
