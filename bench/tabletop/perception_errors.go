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
	// objects), so an edge costs no string, map lookup, relation reading
	// or pair test of its own: the edges are read in the graph's compact
	// form (scenes.Graph.EdgeIndexes), each of the graph's names is
	// looked up once and each relation name read once, and the table's
	// relations are derived once for every pair (scenes.RelationCodes,
	// the relations of scenes.AppendPairEdges).
	at := make(map[string]int, len(g.Nodes)) // the object under a node of an id
	found := make([]bool, len(objs))
	for _, n := range g.Nodes {
		i, ok := under(n)
		if !ok {
			p.phantoms++
			continue
		}
		at[n.ID] = i
		found[i] = true
	}
	for _, i := range observed {
		if !found[i] {
			p.missed++
		}
	}
	if g.NumEdges() == 0 {
		return p
	}
	// The object under each name the edges' ends index: that of the node
	// of that id (all nodes of one id stand for the last of them over
	// something), or -1 for none, as for an end that is no node's id.
	names := g.EdgeNames()
	objOf := make([]int, len(names))
	for k, s := range names {
		if i, ok := at[s]; ok {
			objOf[k] = i
		} else {
			objOf[k] = -1
		}
	}
	// How each relation index is judged (see judge): the table's own
	// relations' as read once (relationJudges), another name's made at
	// its first edge. An edge then costs two lookups and a comparison.
	nrel := len(scenes.Relations)
	judges := make([]judge, nrel+len(names))
	copy(judges, relationJudges)
	var (
		codes  []uint8 // the table's relations, by pair; made at the first edge judged
		n      = len(objs)
		pooled scenes.PooledRelations // what codes are written in
	)
	for e := range g.NumEdges() {
		s, d, rel := g.EdgeIndexes(e)
		j := &judges[rel]
		if !j.done {
			*j = judgeOf(names[rel-nrel])
		}
		if !j.ok {
			p.unmapped++
			continue
		}
		src, dst := objOf[s], objOf[d]
		if src < 0 || dst < 0 {
			continue
		}
		if j.reversed {
			src, dst = dst, src
		}
		if src == dst {
			p.wrong++ // two nodes over one object hold no relation
			continue
		}
		if codes == nil {
			pooled = scenes.PoolRelationCodes(objs)
			codes = pooled.Codes
		}
		if k := 2 * (src*n + dst); codes[k] != j.code && codes[k+1] != j.code {
			p.wrong++
		}
	}
	pooled.Release()
	return p
}

// judge is how countPerceptionErrors judges the edges of one relation
// name: whether scenes.ReadRelation reads it, which relation of the table
// (its code, as scenes.RelationCodes writes it) it names, and which way.
type judge struct {
	code               uint8 // one more than the relation's index in scenes.Relations
	ok, reversed, done bool
}

func judgeOf(name string) judge {
	r, ok := scenes.ReadRelation(name)
	return judge{code: uint8(slices.Index(scenes.Relations, r.Relation) + 1), ok: ok, reversed: r.Reversed, done: true}
}

// relationJudges are the judges of scenes.Relations, by index, read once:
// ReadRelation folds a name's case, spaces and verbs, and every report
// read the table's seven names again.
var relationJudges = func() []judge {
	js := make([]judge, len(scenes.Relations))
	for i, r := range scenes.Relations {
		js[i] = judgeOf(r)
	}
	return js
}()
