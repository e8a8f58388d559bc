package tabletop

import (
	"strconv"
	"testing"

	"github.com/ambibench/ambibench/bench"
)

// BenchmarkSceneSetup is the part of a BenchmarkSceneSize episode that no
// agent plays: drawing the plain pick-and-place table of each size, its
// distractors included, and building it in the physics engine. It is the
// floor under every agent's row there, so that how an episode's cost
// grows with the table can be split into the table's and the agent's.
//
//	go test -run '^$' -bench SceneSetup -benchtime 300x ./bench/tabletop/
func BenchmarkSceneSetup(b *testing.B) {
	for _, size := range []int{6, 12, 24, MaxSceneSize} {
		b.Run("size="+strconv.Itoa(size), func(b *testing.B) {
			i := bench.BlockStart(b)
			objects := 0
			for b.Loop() {
				ep, err := MakeEpisodeSized(1, "pick_place", "none", i, size)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := NewWorld(ep); err != nil {
					b.Fatal(err)
				}
				objects += len(ep.Objects)
				i++
			}
			b.ReportMetric(float64(objects)/float64(b.N), "objects/op")
		})
	}
}
