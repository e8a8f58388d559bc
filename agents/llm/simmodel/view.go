package simmodel

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/ambibench/ambibench/agents/grounding"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// retrievalView is what a planner that was given no graph knows: the
// answers of the retrievals it has made in the conversation. Any other
// query is *grounding.Unknown, so the model retrieves it next.
type retrievalView struct {
	nodes map[string][]string
	edges map[string][]scenes.Edge
}

func nodeKey(name, key, val string) string { return name + "\x00" + key + "\x00" + val }
func edgeKey(src, dst, rel string) string  { return src + "\x00" + dst + "\x00" + rel }

// retrievals reads the retrieve_node and retrieve_edge calls of the
// conversation and their results.
func retrievals(req llm.Request) *retrievalView {
	v := &retrievalView{nodes: map[string][]string{}, edges: map[string][]scenes.Edge{}}
	results := map[string]string{}
	for _, m := range req.Messages {
		if m.Role == llm.RoleTool {
			results[m.ToolCallID] = m.Text
		}
	}
	for _, m := range req.Messages {
		for _, tc := range m.ToolCalls {
			res, ok := results[tc.ID]
			if !ok || strings.HasPrefix(res, "error:") {
				continue
			}
			var a map[string]string
			if json.Unmarshal(tc.Args, &a) != nil {
				continue
			}
			var items []string
			if json.Unmarshal([]byte(res), &items) != nil {
				continue
			}
			switch tc.Name {
			case "retrieve_node":
				v.nodes[nodeKey(a["name"], a["attr_key"], a["attr_val"])] = items
			case "retrieve_edge":
				var es []scenes.Edge
				for _, it := range items {
					if e, ok := parseEdge(it); ok {
						es = append(es, e)
					}
				}
				v.edges[edgeKey(a["source"], a["target"], a["relation"])] = es
			}
		}
	}
	return v
}

var edgeSentence = regexp.MustCompile(`^the (.+) is (\w+) the (.+)$`)

// parseEdge reads an edge back from its sentence, scenes.Edge.String.
func parseEdge(s string) (scenes.Edge, bool) {
	m := edgeSentence.FindStringSubmatch(s)
	if m == nil {
		return scenes.Edge{}, false
	}
	return scenes.Edge{Source: m[1], Relation: m[2], Target: m[3]}, true
}

func (v *retrievalView) Nodes(q scenes.NodeQuery) ([]string, error) {
	var k, val string
	for key, v := range q.Attrs { // the planner asks by one attribute at most
		k, val = key, v
	}
	if ids, ok := v.nodes[nodeKey(q.Name, k, val)]; ok {
		return ids, nil
	}
	return nil, &grounding.Unknown{Node: &q}
}

func (v *retrievalView) Edges(q scenes.EdgeQuery) ([]scenes.Edge, error) {
	if es, ok := v.edges[edgeKey(q.Source, q.Target, q.Relation)]; ok {
		return es, nil
	}
	return nil, &grounding.Unknown{Edge: &q}
}

// retrieveCall is the tool call that answers an unknown.
func retrieveCall(u *grounding.Unknown) llm.ToolCall {
	if u.Node != nil {
		args := map[string]string{}
		if u.Node.Name != "" {
			args["name"] = u.Node.Name
		}
		for k, v := range u.Node.Attrs {
			args["attr_key"], args["attr_val"] = k, v
		}
		return toolCall("retrieve_node", args)
	}
	args := map[string]string{}
	for k, v := range map[string]string{"source": u.Edge.Source, "target": u.Edge.Target, "relation": u.Edge.Relation} {
		if v != "" {
			args[k] = v
		}
	}
	return toolCall("retrieve_edge", args)
}

// listView is what a model whose graph access was withdrawn makes of the
// scene: what it retrieved, and beyond that only the object list, whose
// ids tell colour and class but nothing of where things are or whose
// workspace they are in. A relation it did not retrieve it takes to hold
// for nothing.
type listView struct {
	known *retrievalView
	names grounding.GraphView
}

func newListView(known *retrievalView, objects []string) listView {
	g := &scenes.Graph{}
	for _, id := range objects {
		attrs := map[string]string{}
		if f := strings.Fields(id); len(f) == 3 {
			attrs[scenes.AttrColor], attrs[scenes.AttrType] = f[0], f[1]
		}
		g.Nodes = append(g.Nodes, scenes.Node{ID: id, Attributes: attrs})
	}
	return listView{known: known, names: grounding.GraphView{G: g}}
}

func (v listView) Nodes(q scenes.NodeQuery) ([]string, error) {
	if ids, err := v.known.Nodes(q); err == nil {
		return ids, nil
	}
	return v.names.Nodes(q)
}

func (v listView) Edges(q scenes.EdgeQuery) ([]scenes.Edge, error) {
	if es, err := v.known.Edges(q); err == nil {
		return es, nil
	}
	return nil, nil
}

// canRetrieve reports whether the request still offers retrieval.
func canRetrieve(req llm.Request) bool {
	for _, t := range req.Tools {
		if t.Name == "retrieve_node" || t.Name == "retrieve_edge" {
			return true
		}
	}
	return false
}
