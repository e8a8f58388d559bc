package scenes

import (
	"bytes"
	"encoding/json"
	"iter"
	"math/bits"
	"slices"
)

// edge is one edge of a Graph held compactly: its ends as indexes into the
// graph's names, its relation as an index into Relations, or, past them,
// into the graph's names. It holds no pointer, so a crowded table's edges
// (a graph of n objects holds up to n² of them) are one flat block the
// collector need not scan, a quarter of the size of as many Edges.
type edge struct{ src, dst, rel uint32 }

// Edges yields the graph's edges in order, each made from its compact form
// (the strings are the graph's own; nothing is allocated).
func (g *Graph) Edges() iter.Seq2[int, Edge] {
	return func(yield func(int, Edge) bool) {
		for i := range g.edges {
			if !yield(i, g.Edge(i)) {
				return
			}
		}
	}
}

// EdgeNames returns the names the edges' compact form indexes (see
// EdgeIndexes): the nodes' ids first, as the graph had them when its
// first edge was given, then the other ends and the relations not in
// Relations, each once. It is the graph's own slice: read it, never
// change it.
func (g *Graph) EdgeNames() []string { return g.names }

// EdgeIndexes returns edge i in its compact form: its source and target
// as indexes into EdgeNames, and its relation as an index into Relations
// or, from len(Relations) on, len(Relations) plus an index into
// EdgeNames. A reader of thousands of edges that needs each name's
// meaning once, not each edge's strings, reads them so.
func (g *Graph) EdgeIndexes(i int) (src, dst, rel int) {
	e := g.edges[i]
	return int(e.src), int(e.dst), int(e.rel)
}

// NumEdges returns the number of edges.
func (g *Graph) NumEdges() int { return len(g.edges) }

// Edge returns edge i.
func (g *Graph) Edge(i int) Edge {
	e := g.edges[i]
	return Edge{Source: g.names[e.src], Target: g.names[e.dst], Relation: g.relationName(e.rel)}
}

// EdgeSource, EdgeTarget and EdgeRelation return one field of edge i.
func (g *Graph) EdgeSource(i int) string   { return g.names[g.edges[i].src] }
func (g *Graph) EdgeTarget(i int) string   { return g.names[g.edges[i].dst] }
func (g *Graph) EdgeRelation(i int) string { return g.relationName(g.edges[i].rel) }

func (g *Graph) relationName(rel uint32) string {
	if int(rel) < len(Relations) {
		return Relations[rel]
	}
	return g.names[int(rel)-len(Relations)]
}

// EdgesNil reports whether the graph has no list of edges at all, which
// its JSON writes as "edges": null (an empty list is written []).
func (g *Graph) EdgesNil() bool { return g.edges == nil }

// EdgeList returns the edges as a new slice of Edges: nil when EdgesNil,
// empty when the list is.
func (g *Graph) EdgeList() []Edge {
	if g.edges == nil {
		return nil
	}
	out := make([]Edge, len(g.edges))
	for i := range g.edges {
		out[i] = g.Edge(i)
	}
	return out
}

// NewGraph returns the graph of nodes and edges (es nil: "edges": null).
func NewGraph(nodes []Node, es []Edge) *Graph {
	g := &Graph{Nodes: nodes}
	g.SetEdges(es)
	return g
}

// SetEdges replaces the graph's edges with es (nil: "edges": null; empty:
// an empty list). es is not kept.
func (g *Graph) SetEdges(es []Edge) {
	g.edges, g.names = nil, nil
	if es == nil {
		return
	}
	g.edges = make([]edge, 0, len(es))
	if len(es) == 0 {
		return
	}
	g.seedNames()
	index := make(map[string]uint32, len(g.names))
	for i, s := range g.names {
		if _, ok := index[s]; !ok {
			index[s] = uint32(i)
		}
	}
	name := func(s string) uint32 {
		if i, ok := index[s]; ok {
			return i
		}
		index[s] = uint32(len(g.names))
		g.names = append(g.names, s)
		return uint32(len(g.names) - 1)
	}
	for _, e := range es {
		src, dst := name(e.Source), name(e.Target)
		rel, ok := relationIndex(e.Relation)
		if !ok {
			rel = uint32(len(Relations)) + name(e.Relation)
		}
		g.edges = append(g.edges, edge{src, dst, rel})
	}
}

// CopyEdges gives g the edges of h.
func (g *Graph) CopyEdges(h *Graph) {
	g.edges, g.names = nil, nil
	if h.edges != nil {
		g.edges = append(make([]edge, 0, len(h.edges)), h.edges...)
	}
	if h.names != nil {
		g.names = append(make([]string, 0, len(h.names)), h.names...)
	}
}

// GrowEdges makes room for n more edges.
func (g *Graph) GrowEdges(n int) {
	if g.edges == nil || cap(g.edges)-len(g.edges) < n {
		g.edges = append(make([]edge, 0, len(g.edges)+n), g.edges...)
	}
}

// AddEdge appends e.
func (g *Graph) AddEdge(e Edge) {
	if g.names == nil {
		g.seedNames()
	}
	src, dst := g.name(e.Source), g.name(e.Target)
	rel, ok := relationIndex(e.Relation)
	if !ok {
		rel = uint32(len(Relations)) + g.name(e.Relation)
	}
	g.edges = append(g.edges, edge{src, dst, rel})
}

// AddNodeEdge appends the edge from node src to node dst (indexes into
// Nodes) of the relation Relations[rel], as AddEdge(Edge{Nodes[src].ID,
// Nodes[dst].ID, Relations[rel]}) would.
func (g *Graph) AddNodeEdge(src, dst, rel int) {
	if g.names == nil {
		g.seedNames()
	}
	g.edges = append(g.edges, edge{g.nodeName(src), g.nodeName(dst), uint32(rel)})
}

// AddNodeEdgeSets appends, for each pair of the graph's n nodes in turn
// (source i and target j at sets[i·n+j]), an edge of each relation whose
// bit is set, lowest bit first (bit r is Relations[r]): what AddNodeEdge
// does called for each, with each node's name found once rather than at
// each of its edges. A perceived graph of 48 nodes holds thousands.
func (g *Graph) AddNodeEdgeSets(sets []uint16) {
	n := len(g.Nodes)
	sets = sets[:n*n]
	if g.names == nil {
		// The names begin at the first edge with the nodes' ids, so node
		// i's name is i and none is added: the pairs' indexes are the
		// edges' ends (a perceived graph's edges are all given so).
		first := slices.IndexFunc(sets, func(set uint16) bool { return set != 0 })
		if first < 0 {
			return
		}
		g.seedNames()
		es := g.edges
		for i := first / n; i < n; i++ {
			for j, set := range sets[i*n : (i+1)*n] {
				for ; set != 0; set &= set - 1 {
					es = append(es, edge{uint32(i), uint32(j), uint32(bits.TrailingZeros16(set))})
				}
			}
		}
		g.edges = es
		return
	}
	// Each node's name, found at its first edge: nodeName may add a name,
	// and adds the same names in the same order as edge by edge.
	names := make([]uint32, n)
	found := make([]bool, n)
	name := func(i int) uint32 {
		if !found[i] {
			names[i], found[i] = g.nodeName(i), true
		}
		return names[i]
	}
	for p, set := range sets {
		if set == 0 {
			continue
		}
		src, dst := name(p/n), name(p%n)
		for set != 0 {
			r := bits.TrailingZeros16(set)
			set &= set - 1
			g.edges = append(g.edges, edge{src, dst, uint32(r)})
		}
	}
}

// nodeName is the index among the names of node i's id: i itself while the
// names begin with the nodes' ids.
func (g *Graph) nodeName(i int) uint32 {
	if id := g.Nodes[i].ID; i < len(g.names) && g.names[i] == id {
		return uint32(i)
	}
	return g.name(g.Nodes[i].ID)
}

// seedNames begins the names with the nodes' ids, so that an edge between
// nodes names them by their indexes and a graph's names are the same
// however its edges were given.
func (g *Graph) seedNames() {
	g.names = make([]string, len(g.Nodes), len(g.Nodes)+1)
	for i := range g.Nodes {
		g.names[i] = g.Nodes[i].ID
	}
}

func (g *Graph) name(s string) uint32 {
	for i, n := range g.names {
		if n == s {
			return uint32(i)
		}
	}
	g.names = append(g.names, s)
	return uint32(len(g.names) - 1)
}

// RenameEdgeEnds renames the ends of every edge by old → new.
func (g *Graph) RenameEdgeEnds(rename map[string]string) {
	for i, s := range g.names {
		if v, ok := rename[s]; ok {
			g.names[i] = v
		}
	}
}

// relationIndex is rel's index in Relations.
func relationIndex(rel string) (uint32, bool) {
	for i, r := range Relations {
		if r == rel {
			return uint32(i), true
		}
	}
	return 0, false
}

// graphJSON is a Graph as its JSON holds it.
type graphJSON struct {
	Nodes []Node `json:"nodes"`
	Edges []Edge `json:"edges"`
}

// MarshalJSON writes the graph as {"nodes": [...], "edges": [...]}, the
// bytes a struct of the two lists marshals to.
func (g Graph) MarshalJSON() ([]byte, error) { return g.CompactJSON(), nil }

// UnmarshalJSON reads the graph MarshalJSON writes.
func (g *Graph) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil
	}
	w := graphJSON{Nodes: g.Nodes, Edges: g.EdgeList()}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	g.Nodes = w.Nodes
	g.SetEdges(w.Edges)
	return nil
}
