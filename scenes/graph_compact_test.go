package scenes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

func TestCompactJSONIsMarshal(t *testing.T) {
	odd := NewGraph([]Node{{ID: `a<b>&"c"` + "\u2028\xff\x01", Attributes: map[string]string{"z": "1", "a": "<", "": ""}}, {ID: "no attributes"}, {ID: "empty", Attributes: map[string]string{}}}, []Edge{{Source: "a<b>", Target: "\t\n\\", Relation: RelNear}})
	for name, g := range map[string]*Graph{
		"table": BuildGraph([]Object{
			NewBlock("red block 1", "red", -0.2, -0.3),
			NewBlock("blue block 1", "blue", -0.19, -0.31),
			NewBowl("red bowl 1", "red", 0.1, -0.5),
		}),
		"odd": odd, "empty": {}, "empty slices": NewGraph([]Node{}, []Edge{}),
		"one object": BuildGraph([]Object{NewBlock("red block 1", "red", 0, -0.5)}),
	} {
		// The graph's JSON as encoding/json writes a struct of its two
		// lists; json.Marshal(g) is CompactJSON itself.
		want, err := json.Marshal(graphJSON{Nodes: g.Nodes, Edges: g.EdgeList()})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := json.Marshal(g); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: json.Marshal:\ngot  %s\nwant %s", name, got, want)
		}
		if got := g.CompactJSON(); !bytes.Equal(got, want) {
			t.Errorf("%s:\ngot  %s\nwant %s", name, got, want)
		}
		if got := g.CompactJSONString(); got != string(want) {
			t.Errorf("%s: CompactJSONString:\ngot  %s\nwant %s", name, got, want)
		}
		// The buffer is sized for a graph of plain strings, so that
		// writing it allocates once: at most a comma an item too large.
		if name != "odd" {
			items := len(g.Nodes) + g.NumEdges()
			for _, n := range g.Nodes {
				items += len(n.Attributes)
			}
			if got, size := len(want), g.compactSize(); size < got || size > got+4+items {
				t.Errorf("%s: compactSize is %d, the JSON %d bytes", name, size, got)
			}
		}
	}
}

// A graph inside another value writes and reads back as the struct of its
// two lists would, by value and by pointer, with edges of relations and
// ends the graph does not know.
func TestGraphJSONInAValue(t *testing.T) {
	type holder struct {
		G Graph  `json:"g"`
		P *Graph `json:"p"`
		N *Graph `json:"n"`
	}
	odd := NewGraph([]Node{{ID: "a"}, {ID: "b"}}, []Edge{{Source: "a", Target: "c", Relation: "beside"}, {Source: "b", Target: "a", Relation: RelNear}})
	in := holder{G: *BuildGraph([]Object{NewBlock("red block 1", "red", -0.2, -0.3), NewBowl("red bowl 1", "red", 0.1, -0.5)}), P: odd}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	type plain struct {
		G graphJSON  `json:"g"`
		P *graphJSON `json:"p"`
		N *graphJSON `json:"n"`
	}
	want, _ := json.Marshal(plain{G: graphJSON{in.G.Nodes, in.G.EdgeList()}, P: &graphJSON{odd.Nodes, odd.EdgeList()}})
	if !bytes.Equal(data, want) {
		t.Fatalf("got  %s\nwant %s", data, want)
	}
	var back holder
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, in) {
		t.Errorf("read back %+v, want %+v", back, in)
	}
}

// AddNodeEdgeSets adds what AddNodeEdge adds called for each bit of each
// pair in turn: the same edges in the same order over the same names, on
// fresh graphs, on graphs whose nodes share ids, and on graphs that hold
// edges and names already (a node's id then found among them or added).
func TestAddNodeEdgeSetsIsAddNodeEdge(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := range 200 {
		n := 1 + rng.IntN(12)
		nodes := make([]Node, n)
		for i := range nodes {
			nodes[i] = Node{ID: fmt.Sprintf("red block %d", 1+rng.IntN(n+2))}
		}
		sets := make([]uint16, n*n)
		for p := range sets {
			if rng.IntN(3) > 0 {
				sets[p] = uint16(rng.IntN(1 << len(Relations)))
			}
		}
		one, all := &Graph{Nodes: nodes}, &Graph{Nodes: slices.Clone(nodes)}
		if trial%3 == 0 { // edges and names before, and the ids renamed
			for _, g := range []*Graph{one, all} {
				g.AddEdge(Edge{Source: "blue bowl 1", Target: nodes[0].ID, Relation: "beside"})
				g.RenameEdgeEnds(map[string]string{nodes[n-1].ID: "green block 9"})
			}
		}
		for p, set := range sets {
			for r := range len(Relations) {
				if set&(1<<r) != 0 {
					one.AddNodeEdge(p/n, p%n, r)
				}
			}
		}
		all.AddNodeEdgeSets(sets)
		if !slices.Equal(one.edges, all.edges) || !slices.Equal(one.names, all.names) {
			t.Fatalf("trial %d, %d nodes: AddNodeEdgeSets gave %v over %q, AddNodeEdge %v over %q", trial, n, all.edges, all.names, one.edges, one.names)
		}
	}
}

// RetrieveEdge, which matches each name and relation of the graph against
// the query once, finds what matching every edge finds
// (AppendMatchingEdges): by an id, by an id without its number, in other
// case and spacing, by relations of scenes.Relations and others, and with
// fields left empty.
func TestRetrieveEdgeIsTheScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	ids := []string{"red block 1", "red block 2", "blue bowl 1", "blue bowl 10", "green block 3", "red block"}
	rels := append(slices.Clone(Relations), "beside", "Near")
	for trial := range 100 {
		var nodes []Node
		for _, id := range ids[:2+rng.IntN(len(ids)-1)] {
			nodes = append(nodes, Node{ID: id})
		}
		var edges []Edge
		for range rng.IntN(80) {
			edges = append(edges, Edge{Source: ids[rng.IntN(len(ids))], Target: ids[rng.IntN(len(ids))], Relation: rels[rng.IntN(len(rels))]})
		}
		g := NewGraph(nodes, edges)
		all := slices.Collect(func(yield func(Edge) bool) {
			for _, e := range g.Edges() {
				if !yield(e) {
					return
				}
			}
		})
		names := append(slices.Clone(ids), "", " RED Block ", "bowl", "blue bowl")
		for range 50 {
			q := EdgeQuery{Source: names[rng.IntN(len(names))], Target: names[rng.IntN(len(names))], Relation: append(rels, "")[rng.IntN(len(rels)+1)]}
			if rng.IntN(3) == 0 {
				q.Source = ""
			}
			if got, want := g.RetrieveEdge(q), AppendMatchingEdges(nil, all, q); !slices.Equal(got, want) {
				t.Fatalf("trial %d, %+v: RetrieveEdge %v, the scan %v", trial, q, got, want)
			}
		}
	}
}
