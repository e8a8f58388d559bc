package scenes_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

// queryGraph is a hand-made graph: two red blocks, a green block, a red and
// a blue bowl. Edges are listed, not derived, so that each filter has a
// known answer.
func queryGraph() *scenes.Graph {
	node := func(id, typ, color string) scenes.Node {
		return scenes.Node{ID: id, Attributes: map[string]string{scenes.AttrType: typ, scenes.AttrColor: color}}
	}
	return scenes.NewGraph([]scenes.Node{
		node("red block 1", scenes.ClassBlock, "red"),
		node("red block 2", scenes.ClassBlock, "red"),
		node("green block 1", scenes.ClassBlock, "green"),
		node("red bowl 1", scenes.ClassBowl, "red"),
		node("blue bowl 1", scenes.ClassBowl, "blue"),
	}, []scenes.Edge{
		{Source: "red block 1", Target: "blue bowl 1", Relation: scenes.RelLeftOf},
		{Source: "red block 2", Target: "blue bowl 1", Relation: scenes.RelInsideOf},
		{Source: "green block 1", Target: "red bowl 1", Relation: scenes.RelNear},
		{Source: "green block 1", Target: "red block 1", Relation: scenes.RelLeftOf},
		{Source: "blue bowl 1", Target: "red block 1", Relation: scenes.RelRightOf},
		{Source: "red bowl 1", Target: "green block 1", Relation: scenes.RelNear},
	})
}

func TestRetrieveNode(t *testing.T) {
	g := queryGraph()
	all := []string{"red block 1", "red block 2", "green block 1", "red bowl 1", "blue bowl 1"}
	tests := []struct {
		name string
		q    scenes.NodeQuery
		want []string
	}{
		{"no filter gives every node in graph order", scenes.NodeQuery{}, all},
		{"exact id", scenes.NodeQuery{Name: "red block 2"}, []string{"red block 2"}},
		{"base name matches every number but not other classes", scenes.NodeQuery{Name: "red block"}, []string{"red block 1", "red block 2"}},
		{"name is case-insensitive and trimmed", scenes.NodeQuery{Name: "  Red Block "}, []string{"red block 1", "red block 2"}},
		{"a colour alone is not a name", scenes.NodeQuery{Name: "red"}, nil},
		{"a name of spaces only matches nothing, unlike no name", scenes.NodeQuery{Name: "   "}, nil},
		{"a prefix of the number is not a name", scenes.NodeQuery{Name: "red block 1 2"}, nil},
		{"unknown id", scenes.NodeQuery{Name: "red block 3"}, nil},
		{"attribute filter", scenes.NodeQuery{Attrs: map[string]string{scenes.AttrColor: "red"}}, []string{"red block 1", "red block 2", "red bowl 1"}},
		{"attribute value is case-insensitive", scenes.NodeQuery{Attrs: map[string]string{scenes.AttrColor: "RED"}}, []string{"red block 1", "red block 2", "red bowl 1"}},
		{"attribute filter by type", scenes.NodeQuery{Attrs: map[string]string{scenes.AttrType: scenes.ClassBowl}}, []string{"red bowl 1", "blue bowl 1"}},
		{"attributes must all match", scenes.NodeQuery{Attrs: map[string]string{scenes.AttrType: scenes.ClassBowl, scenes.AttrColor: "red"}}, []string{"red bowl 1"}},
		{"name and attribute combine", scenes.NodeQuery{Name: "red block", Attrs: map[string]string{scenes.AttrColor: "green"}}, nil},
		{"attribute no node has", scenes.NodeQuery{Attrs: map[string]string{scenes.AttrColor: "purple"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := g.RetrieveNode(tt.q); !slices.Equal(got, tt.want) {
				t.Errorf("RetrieveNode(%+v) = %q, want %q", tt.q, got, tt.want)
			}
		})
	}
}

func TestRetrieveEdge(t *testing.T) {
	g := queryGraph()
	e := g.EdgeList()
	tests := []struct {
		name string
		q    scenes.EdgeQuery
		want []scenes.Edge
	}{
		{"no filter gives every edge", scenes.EdgeQuery{}, e},
		{"source by exact id", scenes.EdgeQuery{Source: "red block 1"}, []scenes.Edge{e[0]}},
		{"source by base name", scenes.EdgeQuery{Source: "red block"}, []scenes.Edge{e[0], e[1]}},
		{"target by exact id", scenes.EdgeQuery{Target: "red block 1"}, []scenes.Edge{e[3], e[4]}},
		{"target by base name", scenes.EdgeQuery{Target: "blue bowl"}, []scenes.Edge{e[0], e[1]}},
		{"relation alone", scenes.EdgeQuery{Relation: scenes.RelNear}, []scenes.Edge{e[2], e[5]}},
		{"source and relation", scenes.EdgeQuery{Source: "green block 1", Relation: scenes.RelLeftOf}, []scenes.Edge{e[3]}},
		{"source and target", scenes.EdgeQuery{Source: "red block", Target: "blue bowl 1"}, []scenes.Edge{e[0], e[1]}},
		{"target and relation", scenes.EdgeQuery{Target: "blue bowl 1", Relation: scenes.RelInsideOf}, []scenes.Edge{e[1]}},
		{"all three", scenes.EdgeQuery{Source: "red block", Target: "blue bowl", Relation: scenes.RelLeftOf}, []scenes.Edge{e[0]}},
		{"all three with no match", scenes.EdgeQuery{Source: "red block", Target: "blue bowl", Relation: scenes.RelNear}, nil},
		{"relation is matched exactly", scenes.EdgeQuery{Relation: "left"}, nil},
		{"unknown source", scenes.EdgeQuery{Source: "purple block"}, nil},
		{"target of spaces only matches nothing", scenes.EdgeQuery{Target: " "}, nil},
		{"target is case-insensitive and trimmed", scenes.EdgeQuery{Target: " Red Block 1"}, []scenes.Edge{e[3], e[4]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := g.RetrieveEdge(tt.q); !slices.Equal(got, tt.want) {
				t.Errorf("RetrieveEdge(%+v) = %v, want %v", tt.q, got, tt.want)
			}
		})
	}
}

func TestGraphNode(t *testing.T) {
	g := queryGraph()
	if n, ok := g.Node("red bowl 1"); !ok || n.Attributes[scenes.AttrColor] != "red" {
		t.Errorf("Node(red bowl 1) = %v, %v; want the red bowl", n, ok)
	}
	if n, ok := g.Node("red bowl"); ok {
		t.Errorf("Node(red bowl) = %v; a base name is not an id", n)
	}
}

func TestEdgeString(t *testing.T) {
	e := scenes.Edge{Source: "red block 1", Target: "blue bowl 1", Relation: scenes.RelLeftOf}
	if got, want := e.String(), "the red block 1 is left_of the blue bowl 1"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestSchema(t *testing.T) {
	tests := []struct {
		name     string
		g        *scenes.Graph
		wantKeys []string
	}{
		{"keys of every node, sorted, once each", queryGraph(), []string{scenes.AttrColor, scenes.AttrType}},
		{"keys of a built graph", scenes.BuildGraph(sixObjects()), []string{scenes.AttrColor, scenes.AttrSize, scenes.AttrType}},
		{"an empty graph has no keys", &scenes.Graph{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			keys, rels := tt.g.Schema()
			if !slices.Equal(keys, tt.wantKeys) {
				t.Errorf("keys = %q, want %q", keys, tt.wantKeys)
			}
			if !slices.Equal(rels, scenes.Relations) {
				t.Errorf("relations = %q, want %q", rels, scenes.Relations)
			}
		})
	}

	// The relations are a copy: a caller that edits them leaves the
	// package's list alone.
	_, rels := queryGraph().Schema()
	rels[0] = "edited"
	if scenes.Relations[0] != scenes.RelLeftOf {
		t.Fatalf("editing Schema's relations changed scenes.Relations[0] to %q", scenes.Relations[0])
	}
}

// AppendPairEdges gives the edges between two objects that the graph of a
// whole table holds, in its order, for pairs of every relation: so a view
// that derives edges pair by pair answers as the graph does.
func TestAppendPairEdgesIsTheGraphsPair(t *testing.T) {
	block := func(id string, x, y, z float64) scenes.Object {
		o := scenes.NewBlock(id, "red", x, y)
		o.Pose[2] = z
		return o
	}
	objs := []scenes.Object{
		block("red block 1", 0, -0.5, 0.02),
		block("red block 2", 0.005, -0.505, 0.06), // on top of block 1
		scenes.NewBowl("blue bowl 1", "blue", -0.1, -0.5),
		block("red block 3", -0.1, -0.51, 0.02), // inside the bowl
		block("red block 4", 0.25, -0.3, 0.02),  // far from all: direction only
		block("red block 5", 0.05, -0.45, 0.02), // near blocks 1 and 2
	}
	objs[2].Region = scenes.RegionRobot1
	g := scenes.BuildGraph(objs)
	for _, rel := range []string{scenes.RelInsideOf, scenes.RelOnTopOf, scenes.RelNear} {
		if len(g.RetrieveEdge(scenes.EdgeQuery{Relation: rel})) == 0 {
			t.Fatalf("the table holds no %s edge, which the rows mean to cover", rel)
		}
	}
	for i := range objs {
		for j := range objs {
			if i == j {
				continue
			}
			a, b := &objs[i], &objs[j]
			var want []scenes.Edge
			for _, e := range g.Edges() {
				if e.Source == a.ID && e.Target == b.ID {
					want = append(want, e)
				}
			}
			for _, e := range g.Edges() {
				if e.Source == b.ID && e.Target == a.ID {
					want = append(want, e)
				}
			}
			if got := scenes.AppendPairEdges(nil, a, b); !slices.Equal(got, want) {
				t.Errorf("%s and %s: %v, want the graph's %v", a.ID, b.ID, got, want)
			}
		}
		if got, want := scenes.NodeOf(&objs[i]), g.Nodes[i]; got.ID != want.ID || !maps.Equal(got.Attributes, want.Attributes) {
			t.Errorf("NodeOf(%s) = %v, want the graph's %v", objs[i].ID, got, want)
		}
	}
}
