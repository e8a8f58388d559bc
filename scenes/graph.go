package scenes

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Node is one object of a scene graph.
//
// As with an Object's, a node's Attributes may be shared with other nodes
// and other looks (the workflows' detected nodes of one colour and type
// share one map for the whole process): read it, and copy it before
// changing it.
type Node struct {
	ID         string            `json:"id"`
	Attributes map[string]string `json:"attributes"`
}

// Edge is one relation between two nodes: Source Relation Target, as in
// "red block 1 left_of blue bowl 1".
type Edge struct {
	Source   string `json:"source"`
	Target   string `json:"target"`
	Relation string `json:"relation"`
}

// String renders an edge as a sentence.
func (e Edge) String() string {
	return fmt.Sprintf("the %s is %s the %s", e.Source, e.Relation, e.Target)
}

// Graph is a scene graph: nodes with attributes and the relations between
// them. The edges are held compactly (graph_edges.go): read them with
// Edges, NumEdges and Edge, and set them with SetEdges, AddEdge or
// AddNodeEdge. Its JSON is {"nodes": [...], "edges": [...]}, each edge
// {"source", "target", "relation"}.
type Graph struct {
	Nodes []Node
	edges []edge   // in graph order
	names []string // the edges' ends and the relations not in Relations; the nodes' ids first
}

// BuildGraph derives the scene graph of a set of objects. Node order follows
// objs; edges follow the pairs in that order, so the same objects give the
// same graph.
func BuildGraph(objs []Object) *Graph {
	g := &Graph{Nodes: make([]Node, 0, len(objs))}
	for i := range objs {
		g.Nodes = append(g.Nodes, NodeOf(&objs[i]))
	}
	n := len(objs)
	codes, count := RelationCodes(objs)
	if count == 0 {
		return g // as the graph of one object has always been written: "edges": null
	}
	g.GrowEdges(count)
	for i := range n {
		for j := range n {
			for _, c := range codes[2*(i*n+j) : 2*(i*n+j)+2] {
				if c == 0 {
					break
				}
				g.AddNodeEdge(i, j, int(c-1))
			}
		}
	}
	return g
}

// RelationCodes returns the relations BuildGraph(objs) finds between the
// ordered pairs of objs, two bytes a pair: those from objs[i] to objs[j]
// at 2(i·n+j) and the byte after, each one more than the relation's index
// in Relations, in the graph's order, and 0 past the pair's last (a pair
// holds at most two; a pair of an object with itself none). count is the
// number of relations, the graph's edges. Every ordered pair is read
// once, so a writer of the graph that needs only the relations' indexes
// (a perceive reply keyed by object index) can skip the edges.
func RelationCodes(objs []Object) (codes []uint8, count int) {
	return RelationCodesInto(nil, objs)
}

// RelationCodesInto is RelationCodes written over buf when it has the
// room (what buf held is not read): a caller that derives a table's
// relations at every look and drops them after can keep one buffer for
// them rather than make one a look.
func RelationCodesInto(buf []uint8, objs []Object) (codes []uint8, count int) {
	// A table's objects on the stack when they fit: a crowded table has
	// 48, and the model's reply and the judging each derive its relations
	// once a look.
	var stack [64]pairObject
	pairs := stack[:0]
	if len(objs) > len(stack) {
		pairs = make([]pairObject, len(objs))
	}
	pairs = pairs[:len(objs)]
	for i := range objs {
		pairs[i] = newPairObject(&objs[i])
	}
	n := len(pairs)
	if cap(buf) >= 2*n*n {
		codes = buf[:2*n*n]
		clear(codes) // a pair of an object with itself is not written
	} else {
		codes = make([]uint8, 2*n*n)
	}
	// Two objects farther apart along x or y than a bowl's inner radius
	// and any object's half extent are neither inside nor on top of each
	// other, so of pairCodes they take only the last case, the directions
	// and nearness: most pairs of a crowded table are such, and are
	// written here without the tests that cannot hold. (A NaN makes the
	// bound, or the offset, compare false: pairCodes decides those.)
	far := BowlInnerRadius
	for i := range pairs {
		far = max(far, pairs[i].halfX, pairs[i].halfY)
	}
	for i := range pairs {
		a := &pairs[i]
		for j := i + 1; j < n; j++ {
			b := &pairs[j]
			var ab, ba [2]uint8
			if dx, dy := a.x-b.x, a.y-b.y; math.Abs(dx) > far || math.Abs(dy) > far {
				// A direction each way, and nearness as near has it, on
				// the offset at hand.
				// The way back is the opposite direction (codes 1 and 2,
				// 3 and 4 are opposites), but where dy is NaN, which
				// directionCode reads as below both ways.
				ab[0] = directionCode(dx, dy)
				ba[0] = ((ab[0] - 1) ^ 1) + 1
				if dy != dy {
					ba[0] = directionCode(-dx, -dy)
				}
				count += 2
				if math.Abs(dx) < NearDistance && math.Abs(dy) < NearDistance && hypotLess(dx, dy, NearDistance) {
					ab[1], ba[1] = codeNear, codeNear
					count += 2
				}
			} else {
				ab, ba = pairCodes(a, b, objs[i].ID == objs[j].ID)
				count += min(int(ab[0]), 1) + min(int(ab[1]), 1) + min(int(ba[0]), 1) + min(int(ba[1]), 1)
			}
			codes[2*(i*n+j)], codes[2*(i*n+j)+1] = ab[0], ab[1]
			codes[2*(j*n+i)], codes[2*(j*n+i)+1] = ba[0], ba[1]
		}
	}
	return codes, count
}

// NodeOf returns the node of o in the graph of any table that holds it:
// its id and attributes, with its workspace when it stands in one.
func NodeOf(o *Object) Node {
	attrs := make(map[string]string, len(o.Attributes)+1)
	for k, v := range o.Attributes {
		attrs[k] = v
	}
	if o.Region != "" && o.Region != RegionTable {
		attrs[AttrWorkspace] = o.Region
	}
	return Node{ID: o.ID, Attributes: attrs}
}

// AppendPairEdges appends to dst the edges of BuildGraph([]Object{a, b}),
// in its order: those from a to b, then those from b to a. Relations hold
// between pairs, so these are the edges between a and b in the graph of
// any table that holds both.
func AppendPairEdges(dst []Edge, a, b *Object) []Edge {
	pa, pb := newPairObject(a), newPairObject(b)
	ab, ba := pairCodes(&pa, &pb, a.ID == b.ID)
	for _, c := range ab {
		if c == 0 {
			break
		}
		dst = append(dst, Edge{Source: a.ID, Target: b.ID, Relation: Relations[c-1]})
	}
	for _, c := range ba {
		if c == 0 {
			break
		}
		dst = append(dst, Edge{Source: b.ID, Target: a.ID, Relation: Relations[c-1]})
	}
	return dst
}

// relationCode is one more than rel's index in Relations.
func relationCode(rel string) uint8 {
	for i, r := range Relations {
		if r == rel {
			return uint8(i + 1)
		}
	}
	panic("scenes: relation " + rel + " is not in Relations")
}

// NodeQuery filters nodes. Name matches a node's id, or its id without the
// trailing number ("red block" matches "red block 1" and "red block 2").
// Attrs must all match. The zero query matches every node.
type NodeQuery struct {
	Name  string
	Attrs map[string]string
}

// RetrieveNode returns the ids of the nodes that match q, in graph order.
func (g *Graph) RetrieveNode(q NodeQuery) []string {
	var ids []string
	name := normalName(q.Name)
	for i := range g.Nodes {
		if q.matches(&g.Nodes[i], name) {
			ids = append(ids, g.Nodes[i].ID)
		}
	}
	return ids
}

// Matches reports whether q matches n: whether RetrieveNode finds n in a
// graph that holds it.
func (q NodeQuery) Matches(n *Node) bool { return q.matches(n, normalName(q.Name)) }

// matches is Matches with q's name made normal (normalName) by the caller.
func (q NodeQuery) matches(n *Node, name string) bool {
	if q.Name != "" && !nameMatches(n.ID, name) {
		return false
	}
	for k, v := range q.Attrs {
		if !strings.EqualFold(n.Attributes[k], v) {
			return false
		}
	}
	return true
}

// normalName is a query's name as nameMatches compares it, made once a
// query rather than once a node.
func normalName(name string) string { return strings.TrimSpace(strings.ToLower(name)) }

// nameMatches reports whether an id matches a normal name: the id itself,
// or the id without its trailing number.
func nameMatches(id, name string) bool {
	if id == name {
		return true
	}
	base, _, ok := cutNumber(id)
	return ok && base == name
}

// cutNumber splits "red block 12" into "red block" and "12".
func cutNumber(id string) (base, num string, ok bool) {
	i := strings.LastIndexByte(id, ' ')
	if i < 0 {
		return id, "", false
	}
	num = id[i+1:]
	for _, r := range num {
		if r < '0' || r > '9' {
			return id, "", false
		}
	}
	return id[:i], num, num != ""
}

// EdgeQuery filters edges; an empty field matches anything.
type EdgeQuery struct {
	Source, Target, Relation string
}

// RetrieveEdge returns the edges that match q, in graph order. Source and
// Target match as names do in [NodeQuery].
func (g *Graph) RetrieveEdge(q EdgeQuery) []Edge {
	var out []Edge
	source, target := normalName(q.Source), normalName(q.Target)
	// Whether each of the graph's names matches the query's source, and
	// its target, and whether each relation index is the query's, are
	// worked out once, not at every edge: a crowded table's graph holds
	// thousands of edges over a few dozen names, and SG-CoT retrieves from
	// it at every step.
	nr := len(Relations) + len(g.names)
	ok := make([]bool, 2*len(g.names)+nr)
	srcOK, dstOK, relOK := ok[:len(g.names)], ok[len(g.names):2*len(g.names)], ok[2*len(g.names):]
	for i, n := range g.names {
		srcOK[i] = q.Source == "" || nameMatches(n, source)
		dstOK[i] = q.Target == "" || nameMatches(n, target)
	}
	for r := range relOK {
		relOK[r] = q.Relation == "" || g.relationName(uint32(r)) == q.Relation
	}
	for i, e := range g.edges {
		if srcOK[e.src] && dstOK[e.dst] && relOK[e.rel] {
			out = append(out, g.Edge(i))
		}
	}
	return out
}

// AppendMatchingEdges appends to dst the edges of es that match q, as
// RetrieveEdge finds them in a graph of es.
func AppendMatchingEdges(dst, es []Edge, q EdgeQuery) []Edge {
	source, target := normalName(q.Source), normalName(q.Target)
	for _, e := range es {
		if q.matches(e, source, target) {
			dst = append(dst, e)
		}
	}
	return dst
}

// matches reports whether e matches q, given q's normal names.
func (q EdgeQuery) matches(e Edge, source, target string) bool {
	return (q.Source == "" || nameMatches(e.Source, source)) &&
		(q.Target == "" || nameMatches(e.Target, target)) &&
		(q.Relation == "" || e.Relation == q.Relation)
}

// Node returns the node with the given id.
func (g *Graph) Node(id string) (Node, bool) {
	for _, n := range g.Nodes {
		if n.ID == id {
			return n, true
		}
	}
	return Node{}, false
}

// Schema lists the attribute keys and the relations a graph uses, which a
// planner may be told instead of the graph itself.
func (g *Graph) Schema() (attrKeys, relations []string) {
	seenK := map[string]bool{}
	for _, n := range g.Nodes {
		for k := range n.Attributes {
			if !seenK[k] {
				seenK[k] = true
				attrKeys = append(attrKeys, k)
			}
		}
	}
	slices.Sort(attrKeys)
	return attrKeys, append([]string(nil), Relations...)
}
