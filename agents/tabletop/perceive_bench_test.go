package tabletop

import (
	"context"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/simmodel"
	"github.com/ambibench/ambibench/scenes"
)

// crowdedPerception is a crowded table's detections and the perceive
// reply the simulated model writes over them: 48 objects on an 8 × 6
// grid over the whole table, a quarter of them bowls, so that the reply
// holds thousands of relations as MaxSceneSize's tables do.
func crowdedPerception(tb testing.TB) ([]llm.Detection, string) {
	var ds []llm.Detection
	for _, o := range scenes.GridTable(8, 6) {
		ds = append(ds, llm.DetectionOf(o))
	}
	m := &recording{Model: simmodel.New(simmodel.Perfect, "sim:perfect")}
	if _, err := perceiveScene(context.Background(), m, &detectEnv{ds: ds}, true); err != nil {
		tb.Fatal(err)
	}
	reply, err := m.Model.Generate(context.Background(), m.reqs[0])
	if err != nil {
		tb.Fatal(err)
	}
	return ds, reply.Text
}

// BenchmarkParsePerception reads the perceive reply the simulated model
// writes for a crowded table: 48 objects on an 8 × 6 grid over the whole
// table, a quarter of them bowls, so that the reply holds thousands of
// relations as MaxSceneSize's tables do (crowdedPerception). It is the
// parse alone, the reply written once before the loop.
//
//	go test -run '^$' -bench ParsePerception -count 5 ./agents/tabletop/
func BenchmarkParsePerception(b *testing.B) {
	ds, reply := crowdedPerception(b)
	edges := 0
	for b.Loop() {
		g, err := parsePerception(reply, ds, true)
		if err != nil {
			b.Fatal(err)
		}
		edges = g.NumEdges()
	}
	b.ReportMetric(float64(edges), "edges")
}

// BenchmarkParseImageObjects reads the detection reply the simulated
// model writes for the image of a crowded table (48 objects on an 8 × 6
// grid, each seen whole in its cell of a 640 × 480 image) into the nodes
// the scene-graph call lists: the parse alone, the reply written once.
//
//	go test -run '^$' -bench 'ParseImageObjects' -count 5 ./agents/tabletop/
func BenchmarkParseImageObjects(b *testing.B) {
	const cols, rows, w, h = 8, 6, 640, 480
	var seen []llm.Seen
	for i, o := range scenes.GridTable(cols, rows) {
		px, py := (i%cols)*w/cols, (i/cols)*h/rows
		seen = append(seen, llm.Seen{ID: o.ID,
			Attributes: map[string]string{scenes.AttrColor: o.Color(), scenes.AttrType: o.Class},
			Box:        [4]int{px + 8, py + 8, px + w/cols - 8, py + h/rows - 8}, Fraction: 1})
	}
	m := simmodel.New(simmodel.Perfect, "sim:perfect")
	reply, err := m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "List them."}},
		Context: &llm.CallContext{Role: llm.CallDetect, Track: "tabletop", Robot: "robot1", Seen: seen,
			ImageSize: [2]int{w, h}, Format: llm.FormatJSON}})
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for b.Loop() {
		objs, err := parseImageObjects(reply.Text)
		if err != nil {
			b.Fatal(err)
		}
		n = len(seenNodes(objs))
	}
	b.ReportMetric(float64(n), "objects")
}
