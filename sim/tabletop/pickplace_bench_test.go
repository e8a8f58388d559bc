package tabletop

import (
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

// BenchmarkPickAndPlace measures one action on a six-object table, settling
// included. The world is rebuilt outside the timer every other action so the
// block travels back and forth between two bowls.
func BenchmarkPickAndPlace(b *testing.B) {
	w := mustWorld(b, table(), Config{})
	dst := [2]string{"blue bowl 1", "green bowl 1"}
	steps := 0
	i := 0
	for b.Loop() {
		out, err := w.PickAndPlace(scenes.Robot1, "red block 1", dst[i%2])
		if err != nil {
			b.Fatal(err)
		}
		steps += out.Steps
		i++
	}
	b.ReportMetric(float64(steps)/float64(i), "steps/op")
}

// BenchmarkNewWorld measures building and settling a six-object world.
func BenchmarkNewWorld(b *testing.B) {
	objs := table()
	for b.Loop() {
		mustWorld(b, objs, Config{})
	}
}
