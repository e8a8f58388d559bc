package tabletop

import (
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

// BenchmarkCountPerceptionErrors counts the errors of a perceived graph
// of a crowded table: 48 objects on an 8 × 6 grid over the whole table, a
// quarter of them bowls, each node over the object of its id, the graph
// the table's own with one relation in twenty turned around, so that it
// holds thousands of relations as a perceive reply at MaxSceneSize does.
//
//	go test -run '^$' -bench CountPerceptionErrors -count 5 ./bench/tabletop/
func BenchmarkCountPerceptionErrors(b *testing.B) {
	objs := scenes.GridTable(8, 6)
	es := scenes.BuildGraph(objs).EdgeList()
	for i := range es {
		if i%20 == 0 {
			es[i].Source, es[i].Target = es[i].Target, es[i].Source
		}
	}
	g := scenes.NewGraph(scenes.BuildGraph(objs).Nodes, es)
	observed := make([]int, len(objs))
	byID := make(map[string]int, len(objs))
	for i, o := range objs {
		observed[i], byID[o.ID] = i, i
	}
	under := func(n scenes.Node) (int, bool) { i, ok := byID[n.ID]; return i, ok }
	var p perceptionErrors
	for b.Loop() {
		p = countPerceptionErrors(g, objs, observed, under)
	}
	b.ReportMetric(float64(g.NumEdges()), "edges")
	b.ReportMetric(float64(p.wrong), "wrong")
}
