package grounding

import (
	"fmt"
	"slices"

	"github.com/ambibench/ambibench/scenes"
)

// View is what a robot knows of the table: the answers of retrieve_node
// and retrieve_edge. The rules agent backs it with tool calls; the
// simulated model backs it with the graph its prompt holds, or with the
// retrievals it has made so far, answering *Unknown for the others.
type View interface {
	Nodes(q scenes.NodeQuery) ([]string, error)
	Edges(q scenes.EdgeQuery) ([]scenes.Edge, error)
}

// Unknown is a View's answer to a query it has not seen: the planner
// must retrieve first. One of Node and Edge is set.
type Unknown struct {
	Node *scenes.NodeQuery
	Edge *scenes.EdgeQuery
}

func (u *Unknown) Error() string {
	if u.Node != nil {
		return fmt.Sprintf("retrieve_node(%+v) not made yet", *u.Node)
	}
	return fmt.Sprintf("retrieve_edge(%+v) not made yet", *u.Edge)
}

// GraphView is a View over a scene graph.
type GraphView struct{ G *scenes.Graph }

func (v GraphView) Nodes(q scenes.NodeQuery) ([]string, error) {
	if v.G == nil {
		return nil, nil
	}
	return v.G.RetrieveNode(q), nil
}

func (v GraphView) Edges(q scenes.EdgeQuery) ([]scenes.Edge, error) {
	if v.G == nil {
		return nil, nil
	}
	return v.G.RetrieveEdge(q), nil
}

// Resolve lists the nodes of a view that a reference matches: by id, by
// colour and class, or, for a relational phrase, the blocks in the named
// direction of its anchor. An anchor that is absent or repeated leaves the
// phrase matching nothing certain, so Resolve returns nothing; "the other
// red block" is the exception: every red block anchors the others.
func Resolve(v View, ref Ref) ([]string, error) {
	switch {
	case ref.Vague || ref.Place != "":
		return nil, nil
	case ref.ID != "":
		return v.Nodes(scenes.NodeQuery{Name: ref.ID})
	case ref.Anchor == nil:
		return v.Nodes(scenes.NodeQuery{Name: ref.Color + " " + ref.Class})
	}
	anchors, err := Resolve(v, *ref.Anchor)
	if err != nil {
		return nil, err
	}
	if ref.Anchor.Other && len(anchors) < 2 || !ref.Anchor.Other && len(anchors) != 1 {
		return nil, nil
	}
	// "the red block left of the other red block": each alike object is
	// an anchor for the others.
	var edges []scenes.Edge
	for _, a := range anchors {
		es, err := v.Edges(scenes.EdgeQuery{Target: a, Relation: ref.Relation})
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			if e.Source != a {
				edges = append(edges, e)
			}
		}
	}
	q := scenes.NodeQuery{Attrs: map[string]string{scenes.AttrType: ref.Class}}
	if ref.Color != "" {
		// By name, as a plain phrase is resolved: a view answers one
		// attribute a query.
		q = scenes.NodeQuery{Name: ref.Color + " " + ref.Class}
	}
	ofClass, err := v.Nodes(q)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range edges {
		if slices.Contains(ofClass, e.Source) && !slices.Contains(ids, e.Source) {
			ids = append(ids, e.Source)
		}
	}
	return ids, nil
}
