package scenes_test

import (
	"fmt"
	"testing"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks/semmap"
)

// BenchmarkResolveObjects answers one built-in query per op, cycling
// through the 30 (a third of them relate objects to anchors), over maps
// of 10, 100 and 1,000 objects generated from seed 1 as the built-in
// dataset's are. Resolution linear in the map size costs ten times more
// per step of the size column, and no more.
//
//	go test -run '^$' -bench ResolveObjects -count 6 ./scenes/ | go tool benchstat -col /objects -
func BenchmarkResolveObjects(b *testing.B) {
	var qs []scenes.ObjectQuery
	for _, t := range semmap.Templates() {
		qs = append(qs, t.Request)
	}
	for _, n := range []int{10, 100, 1000} {
		m := semmap.Generate(1, 0, n).Map
		for _, minP := range []float64{0, 0.3} {
			b.Run(fmt.Sprintf("objects=%d/minp=%g", n, minP), func(b *testing.B) {
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					scenes.ResolveObjectsWith(m, qs[i%len(qs)], scenes.ResolveOptions{MinP: minP})
					i++
				}
			})
		}
	}
}
