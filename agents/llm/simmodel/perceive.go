package simmodel

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// perceive plays SG-CoT's scene-graph generation: the geometric graph of
// the detected objects, as scenes.BuildGraph derives it from the boxes
// and attributes the prompt gives, with the relation part of the
// episode's perception noise (scene_graph_noise's Drop and Spurious,
// llm.WithPerceptionNoise): the relations it misses or imagines. The
// node part (Flip) is the detector's, already in the detections. The
// reply is the prompt's JSON: the nodes it reads otherwise than the
// detector (none, as the model plays it) and, unless the call asks for
// nodes only, every relation, keyed by source index.
func (c *call) perceive() llm.Reply {
	ds := c.cc.Detections
	objs := make([]scenes.Object, len(ds))
	for i, d := range ds {
		objs[i] = d.Object()
	}
	nodesOnly := c.cc.Mode == llm.ModeNodesOnly
	var g *scenes.Graph
	if nodesOnly {
		g = &scenes.Graph{}
		for i, o := range objs {
			g.Nodes = append(g.Nodes, scenes.Node{ID: o.ID, Attributes: ds[i].Attributes})
		}
	} else {
		g = scenes.BuildGraph(objs)
	}
	if rel := (scenes.GraphNoise{Drop: c.noise.Drop, Spurious: c.noise.Spurious, Seed: c.noise.Seed}); !nodesOnly && !rel.IsZero() {
		g, _ = g.WithNoise(rel)
	}
	return llm.Reply{Text: perceptionJSON(g, ds, !nodesOnly), FinishReason: llm.FinishStop}
}

// perceptionJSON writes a perceive reply: nodes keyed by index where they
// differ from the detections, then the edges as source index → relation →
// target indices, in the graph's order.
func perceptionJSON(g *scenes.Graph, ds []llm.Detection, edges bool) string {
	var b strings.Builder
	b.WriteString(`{"nodes":{`)
	index := make(map[string]int, len(g.Nodes))
	first := true
	for i, n := range g.Nodes {
		index[n.ID] = i
		if i < len(ds) && n.ID == ds[i].ID && maps.Equal(n.Attributes, ds[i].Attributes) {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(`"` + strconv.Itoa(i) + `":{"id":` + strconv.Quote(n.ID) + `,"attributes":{`)
		for j, k := range slices.Sorted(maps.Keys(n.Attributes)) {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Quote(k) + ":" + strconv.Quote(n.Attributes[k]))
		}
		b.WriteString("}}")
	}
	b.WriteString("}")
	if edges {
		b.WriteString(`,"edges":{`)
		// Group each source's edges by relation, relations in the order
		// they first appear.
		for s := 0; s < len(g.Edges); {
			src := g.Edges[s].Source
			e := s
			for e < len(g.Edges) && g.Edges[e].Source == src {
				e++
			}
			if s > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"` + strconv.Itoa(index[src]) + `":{`)
			var rels []string
			targets := map[string][]int{}
			for _, ed := range g.Edges[s:e] {
				if _, ok := targets[ed.Relation]; !ok {
					rels = append(rels, ed.Relation)
				}
				targets[ed.Relation] = append(targets[ed.Relation], index[ed.Target])
			}
			for j, rel := range rels {
				if j > 0 {
					b.WriteByte(',')
				}
				b.WriteString(`"` + rel + `":[`)
				for k, t := range targets[rel] {
					if k > 0 {
						b.WriteByte(',')
					}
					b.WriteString(strconv.Itoa(t))
				}
				b.WriteByte(']')
			}
			b.WriteByte('}')
			s = e
		}
		b.WriteByte('}')
	}
	b.WriteByte('}')
	return b.String()
}
