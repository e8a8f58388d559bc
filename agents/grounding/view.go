package grounding

import (
	"slices"

	"github.com/ambibench/ambibench/scenes"
)

// View is what a robot knows of the table: the answers of retrieve_node
// and retrieve_edge. The rules agent backs it with tool calls; the
// simulated model backs it with the graph its prompt holds.
type View interface {
	Nodes(q scenes.NodeQuery) []string
	Edges(q scenes.EdgeQuery) []scenes.Edge
}

// GraphView is a View over a scene graph.
type GraphView struct{ G *scenes.Graph }

func (v GraphView) Nodes(q scenes.NodeQuery) []string {
	if v.G == nil {
		return nil
	}
	return v.G.RetrieveNode(q)
}

func (v GraphView) Edges(q scenes.EdgeQuery) []scenes.Edge {
	if v.G == nil {
		return nil
	}
	return v.G.RetrieveEdge(q)
}

// Resolve lists the nodes of a view that a reference matches: by id, by
// colour and class, or, for a relational phrase, the blocks in the named
// direction of its anchor. An anchor that is absent or repeated leaves the
// phrase matching nothing certain, so Resolve returns nothing.
func Resolve(v View, ref Ref) []string {
	switch {
	case ref.Vague || ref.Place != "":
		return nil
	case ref.ID != "":
		return v.Nodes(scenes.NodeQuery{Name: ref.ID})
	case ref.Anchor == nil:
		return v.Nodes(scenes.NodeQuery{Name: ref.Color + " " + ref.Class})
	}
	anchors := Resolve(v, *ref.Anchor)
	if len(anchors) != 1 {
		return nil
	}
	edges := v.Edges(scenes.EdgeQuery{Target: anchors[0], Relation: ref.Relation})
	ofClass := v.Nodes(scenes.NodeQuery{Attrs: map[string]string{scenes.AttrType: ref.Class}})
	var ids []string
	for _, e := range edges {
		if slices.Contains(ofClass, e.Source) && !slices.Contains(ids, e.Source) {
			ids = append(ids, e.Source)
		}
	}
	return ids
}
