package physics

import (
	"strconv"
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

// BenchmarkPickAndPlace measures one action, settling included, on tables
// of 6 to 48 objects: the six of table() and blocks standing still around
// them, which cost a step nothing while nothing touches them. The block
// travels back and forth between two bowls.
func BenchmarkPickAndPlace(b *testing.B) {
	for _, n := range []int{6, 12, 24, 48} {
		b.Run("objects="+strconv.Itoa(n), func(b *testing.B) {
			w := mustWorld(b, crowdedTable(n), Config{})
			dst := [2]string{"blue bowl 1", "green bowl 1"}
			steps := 0
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				out, err := w.PickAndPlace(scenes.Robot1, "red block 1", dst[i%2])
				if err != nil {
					b.Fatal(err)
				}
				steps += out.Steps
				i++
			}
			b.ReportMetric(float64(steps)/float64(i), "steps/op")
		})
	}
}

// crowdedTable returns table() with blocks added on a 6 cm grid, in rows
// clear of its blocks, its bowls and the path between the blue and green
// bowls, until it holds n objects (at most 56).
func crowdedTable(n int) []scenes.Object {
	objs := table()
	for _, y := range []float64{-0.22, -0.38, -0.46, -0.72, -0.78} {
		for col := range 10 {
			if len(objs) == n {
				return objs
			}
			x := -0.27 + 0.06*float64(col)
			objs = append(objs, scenes.NewBlock(scenes.ObjectID("gray", "block", len(objs)), "gray", x, y))
		}
	}
	return objs
}

// BenchmarkNewWorld measures building and settling a six-object world.
func BenchmarkNewWorld(b *testing.B) {
	objs := table()
	b.ReportAllocs()
	for b.Loop() {
		mustWorld(b, objs, Config{})
	}
}
