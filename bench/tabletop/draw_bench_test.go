package tabletop

import (
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/ambibench/ambibench/bench"
)

// BenchmarkDrawSized is BenchmarkSceneSetup without the physics: drawing
// the plain pick-and-place table of each size, distractors included,
// which is what a crowded table costs before any engine or agent sees it.
// Beside the wall time it reports cpu-ns/op, the CPU the process spent
// (the collector's included), which a machine shared with other work
// disturbs far less than the wall time.
//
//	go test -run '^$' -bench DrawSized -benchtime 2000x -benchmem ./bench/tabletop/
func BenchmarkDrawSized(b *testing.B) {
	for _, size := range []int{6, 12, 24, MaxSceneSize} {
		b.Run("size="+strconv.Itoa(size), func(b *testing.B) {
			i := bench.BlockStart(b)
			objects := 0
			cpu := processCPU()
			for b.Loop() {
				ep, err := MakeEpisodeSized(1, "pick_place", "none", i, size)
				if err != nil {
					b.Fatal(err)
				}
				objects += len(ep.Objects)
				i++
			}
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(objects)/float64(b.N), "objects/op")
		})
	}
}

// processCPU is the CPU time, user and system, the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
