package simmodel

import (
	"encoding/json"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// perceptionJSON writes the bytes of the map-based writer it replaced,
// on the graphs a perceive call writes. Rows: the table's own graph, with
// the relation part of noise (dropped and imagined edges out of order),
// renamed and re-attributed nodes, a relation outside scenes.Relations,
// nodes only, and an empty table.
func TestPerceptionJSONBytes(t *testing.T) {
	for seed := range uint64(30) {
		objs, err := scenes.GenerateTabletop(rand.New(rand.NewPCG(seed, 3)), scenes.TabletopConfig{Blocks: 3 + int(seed%4), Bowls: 3, TwoRobots: seed%2 == 0})
		if err != nil {
			t.Fatal(err)
		}
		ds := make([]llm.Detection, len(objs))
		for i, o := range objs {
			ds[i] = llm.DetectionOf(o)
		}
		base := scenes.BuildGraph(objs)
		noisy, _ := base.WithNoise(scenes.GraphNoise{Drop: 0.3, Spurious: 0.2, Seed: seed})
		renamed, _ := base.WithNoise(scenes.GraphNoise{Drop: 0.1, Spurious: 0.1, Flip: 0.4, Seed: seed})
		odd := scenes.NewGraph(base.Nodes, append([]scenes.Edge{{Source: base.Nodes[1].ID, Target: base.Nodes[0].ID, Relation: "beside"}}, base.EdgeList()...))
		for _, tc := range []struct {
			why   string
			g     *scenes.Graph
			edges bool
		}{
			{"the table's graph", base, true},
			{"dropped and imagined edges", noisy, true},
			{"nodes read otherwise", renamed, true},
			{"a relation outside the list", odd, true},
			{"nodes only", renamed, false},
			{"an empty table", &scenes.Graph{}, true},
		} {
			if got, want := perceptionJSON(tc.g, ds, tc.edges), perceptionJSONMaps(tc.g, ds, tc.edges); got != want {
				t.Errorf("scene %d, %s:\n got %s\nwant %s", seed, tc.why, got, want)
			}
		}
	}
}

// readTokens measures a context with detections as the JSON of the whole
// context, fenced, as it always has: the rates grow by the same tokens;
// a string counts as its bytes, whatever JSON escapes in it (contextSize).
// Rows: a perceive call's context, a baseline's (with exchanges), a
// detection whose id JSON escapes, and none.
func TestReadTokensOfDetections(t *testing.T) {
	ds := []llm.Detection{llm.DetectionOf(scenes.NewBlock("red block 1", "red", -0.1234567, 0.5)), llm.DetectionOf(scenes.NewBowl("blue bowl 1", "blue", 0.2, -0.6))}
	odd := append([]llm.Detection{{ID: `a "quoted" <id>`, Attributes: map[string]string{"type": "block"}}}, ds...)
	for _, cc := range []*llm.CallContext{
		{Role: llm.CallPerceive, Track: "tabletop", Robot: "robot1", Detections: ds, Format: llm.FormatJSON},
		{Role: llm.CallPlan, Track: "tabletop", Instruction: "Put it there.", Detections: ds, Exchanges: []llm.Exchange{{Kind: "ask", Text: "Which?", Reply: "That."}}, Format: llm.FormatProgram},
		{Role: llm.CallPlan, Track: "tabletop", Detections: odd, Format: llm.FormatToolCalls},
		{Role: llm.CallPlan, Track: "tabletop", Format: llm.FormatToolCalls},
	} {
		c := *cc
		c.Version = llm.ContextVersion
		c.Detections = slices.Clone(c.Detections)
		for i := range c.Detections {
			c.Detections[i].ID = strings.Repeat("x", len(c.Detections[i].ID))
		}
		data, _ := json.Marshal(c)
		want := (len(data) + len("```ambibench\n") + len("\n```") + 3) / 4
		if got := readTokens(cc); got != want {
			t.Errorf("%s call with %d detections: %d tokens, want %d", cc.Role, len(cc.Detections), got, want)
		}
	}
}

// perceptionJSONMaps is the reference perceptionJSON is held to: the
// reply written plainly, with maps and strings.
func perceptionJSONMaps(g *scenes.Graph, ds []llm.Detection, edges bool) string {
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
		for s := 0; s < g.NumEdges(); {
			src := g.Edge(s).Source
			e := s
			for e < g.NumEdges() && g.Edge(e).Source == src {
				e++
			}
			if s > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"` + strconv.Itoa(index[src]) + `":{`)
			var rels []string
			targets := map[string][]int{}
			for _, ed := range g.EdgeList()[s:e] {
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

// A perceive call without relation noise writes the bytes the graph's
// writer (perceptionJSON, held to the plain writer by
// TestPerceptionJSONBytes) writes for scenes.BuildGraph over the detected
// objects, though
// it writes from the relations' indexes. Rows: tables dense enough for
// every relation (blocks in bowls, stacks, near pairs, ties of
// direction) up to 48 objects; detections in a workspace, at the table
// and in an empty one (the last two not nodes as NodeOf makes them);
// one object and none; tables of 64 objects and more; ids two detections share (left to the graph's
// writer); and nodes only.
func TestPerceiveWritesTheGraphsBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	reference := func(ds []llm.Detection, edges bool) string {
		objs := make([]scenes.Object, len(ds))
		for i, d := range ds {
			objs[i] = d.Object()
		}
		g := scenes.BuildGraph(objs)
		if !edges {
			g = &scenes.Graph{}
			for i, o := range objs {
				g.Nodes = append(g.Nodes, scenes.Node{ID: o.ID, Attributes: ds[i].Attributes})
			}
		}
		return perceptionJSON(g, ds, edges)
	}
	table := func(n int) []llm.Detection {
		var objs []scenes.Object
		for i := range n {
			x, y := -0.3+0.6*rng.Float64(), -0.8+0.6*rng.Float64()
			if rng.IntN(4) == 0 && len(objs) > 0 { // on or at another
				o := objs[rng.IntN(len(objs))]
				x, y = o.Pose.X()+0.01*rng.NormFloat64(), o.Pose.Y()
			}
			var o scenes.Object
			if rng.IntN(3) == 0 {
				o = scenes.NewBowl(scenes.ObjectID("red", scenes.ClassBowl, i), "red", x, y)
			} else {
				o = scenes.NewBlock(scenes.ObjectID("blue", scenes.ClassBlock, i), "blue", x, y)
				o.Pose[2] += scenes.BlockSize * float64(rng.IntN(2))
			}
			if rng.IntN(5) == 0 {
				o.Region = scenes.RegionShared
			}
			objs = append(objs, o)
		}
		ds := make([]llm.Detection, len(objs))
		for i, o := range objs {
			ds[i] = llm.DetectionOf(o)
		}
		return ds
	}
	withWorkspace := func(ds []llm.Detection, ws string) []llm.Detection {
		ds = slices.Clone(ds)
		for i := 0; i < len(ds); i += 2 {
			ds[i].Attributes = maps.Clone(ds[i].Attributes)
			ds[i].Attributes[scenes.AttrWorkspace] = ws
		}
		return ds
	}
	shared := table(6)
	shared[3].ID = shared[1].ID
	rows := []struct {
		why   string
		ds    []llm.Detection
		edges bool
	}{
		{"no objects", nil, true},
		{"one object", table(1), true},
		{"a table at the table workspace", withWorkspace(table(8), scenes.RegionTable), true},
		{"a table in an empty workspace", withWorkspace(table(8), ""), true},
		{"a shared id", shared, true},
		{"nodes only", withWorkspace(table(12), scenes.RegionTable), false},
		// More objects than a word of targets holds (appendRelations).
		{"64 objects", table(64), true},
		{"65 objects", table(65), true},
		{"130 objects", table(130), true},
	}
	for trial := range 60 {
		rows = append(rows, struct {
			why   string
			ds    []llm.Detection
			edges bool
		}{"dense table " + strconv.Itoa(trial), table(2 + trial%47), true})
	}
	for _, row := range rows {
		cc := llm.CallContext{Role: llm.CallPerceive, Detections: row.ds}
		if !row.edges {
			cc.Mode = llm.ModeNodesOnly
		}
		c := &call{cc: cc}
		if got, want := c.perceive().Text, reference(row.ds, row.edges); got != want {
			t.Errorf("%s:\n got %s\nwant %s", row.why, got, want)
		}
	}
}
