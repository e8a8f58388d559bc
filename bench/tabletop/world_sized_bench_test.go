package tabletop

import (
	"strconv"
	"testing"

	"github.com/ambibench/ambibench/tasks"
)

// BenchmarkWorldSized is BenchmarkSceneSetup without the drawing: building
// the physics world of the plain pick-and-place table of each size, over
// the same 64 tables drawn once, so that the physics' share of a table's
// cost is timed alone.
//
//	go test -run '^$' -bench WorldSized -benchtime 2000x ./bench/tabletop/
func BenchmarkWorldSized(b *testing.B) {
	for _, size := range []int{6, 12, 24, MaxSceneSize} {
		b.Run("size="+strconv.Itoa(size), func(b *testing.B) {
			eps := make([]*tasks.Episode, 64)
			for i := range eps {
				ep, err := MakeEpisodeSized(1, "pick_place", "none", i, size)
				if err != nil {
					b.Fatal(err)
				}
				eps[i] = ep
			}
			steps := 0
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				w, err := NewWorld(eps[i%len(eps)])
				if err != nil {
					b.Fatal(err)
				}
				steps += w.Steps()
				i++
			}
			b.ReportMetric(float64(steps)/float64(b.N), "steps/op")
		})
	}
}
