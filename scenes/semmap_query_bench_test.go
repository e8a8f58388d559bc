package scenes_test

import (
	"fmt"
	"testing"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks/mapqueries"
)

// BenchmarkResolveObjects answers one built-in query per op over maps of
// 10, 100 and 1,000 objects generated from seed 1 as the built-in
// dataset's are, cycling through the 20 queries that relate nothing
// (query=plain) or the 10 that relate objects to anchors ("a microwave
// close to an oven", "somewhere to sit not near the TV": query=related),
// reading each object's best class (minp=0) or hedging as the uncertainty
// input allows (minp=0.3). The related queries once measured every pair
// of object and anchor, and both grow with the map; resolution linear in
// the map size costs ten times more per step of the objects column, and
// no more.
//
//	go test -run '^$' -bench ResolveObjects -count 6 ./scenes/ | go tool benchstat -col /objects -
func BenchmarkResolveObjects(b *testing.B) {
	qs := map[string][]scenes.ObjectQuery{}
	for _, t := range mapqueries.Templates() {
		kind := "plain"
		if t.Request.Relation != "" {
			kind = "related"
		}
		qs[kind] = append(qs[kind], t.Request)
	}
	for _, kind := range []string{"plain", "related"} {
		for _, minP := range []float64{0, 0.3} {
			for _, n := range []int{10, 100, 1000} {
				m := mapqueries.Generate(1, 0, n).Map
				b.Run(fmt.Sprintf("query=%s/minp=%g/objects=%d", kind, minP, n), func(b *testing.B) {
					b.ReportAllocs()
					i := 0
					for b.Loop() {
						scenes.ResolveObjectsWith(m, qs[kind][i%len(qs[kind])], scenes.ResolveOptions{MinP: minP})
						i++
					}
				})
			}
		}
	}
}
