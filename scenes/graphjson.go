package scenes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// Encode writes g as indented JSON in the scene-graph shape.
func (g *Graph) Encode() ([]byte, error) {
	return json.MarshalIndent(g, "", "  ")
}

// DecodeGraph reads a scene graph from JSON and checks it: every node has a
// unique, non-empty id; every edge names known nodes and a known relation.
// Errors name the field at fault, e.g. `edges[3].target: unknown node "x"`.
func DecodeGraph(data []byte) (*Graph, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var w graphJSON
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("scene graph: %w", describeJSONError(err))
	}
	// dec.More is not enough: it reports false for a stray '}' or ']'.
	if len(bytes.Trim(data[dec.InputOffset():], " \t\r\n")) > 0 {
		return nil, fmt.Errorf("scene graph: trailing data after the graph object")
	}
	g := NewGraph(w.Nodes, w.Edges)
	if err := g.Validate(); err != nil {
		return nil, err
	}
	return g, nil
}

// Validate checks the graph's integrity.
func (g *Graph) Validate() error {
	ids := make(map[string]bool, len(g.Nodes))
	for i, n := range g.Nodes {
		switch {
		case n.ID == "":
			return fmt.Errorf("scene graph: nodes[%d].id: empty", i)
		case ids[n.ID]:
			return fmt.Errorf("scene graph: nodes[%d].id: duplicate id %q", i, n.ID)
		}
		ids[n.ID] = true
		for k := range n.Attributes {
			if k == "" {
				return fmt.Errorf("scene graph: nodes[%d].attributes: empty key", i)
			}
		}
	}
	for i, e := range g.Edges() {
		switch {
		case !ids[e.Source]:
			return fmt.Errorf("scene graph: edges[%d].source: unknown node %q", i, e.Source)
		case !ids[e.Target]:
			return fmt.Errorf("scene graph: edges[%d].target: unknown node %q", i, e.Target)
		case e.Source == e.Target:
			return fmt.Errorf("scene graph: edges[%d].target: %q relates to itself", i, e.Target)
		case !slices.Contains(Relations, e.Relation):
			return fmt.Errorf("scene graph: edges[%d].relation: unknown relation %q (want one of %v)", i, e.Relation, Relations)
		}
	}
	return nil
}

// describeJSONError makes encoding/json's errors name the field.
func describeJSONError(err error) error {
	switch e := err.(type) {
	case *json.UnmarshalTypeError:
		if e.Field == "" {
			return fmt.Errorf("expected a JSON object with nodes and edges, got JSON %s", e.Value)
		}
		return fmt.Errorf("%s: expected %s, got JSON %s (offset %d)", e.Field, e.Type, e.Value, e.Offset)
	case *json.SyntaxError:
		return fmt.Errorf("malformed JSON at offset %d: %w", e.Offset, e)
	}
	return err
}
