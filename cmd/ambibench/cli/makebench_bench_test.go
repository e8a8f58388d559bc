package cli

import (
	"io"
	"testing"
)

// BenchmarkMakeBench is the command `make bench` runs, without the output
// directory: the reference agents on every tabletop cell, 100 episodes
// each, at the default concurrency. One op is the whole grid. It lives
// here rather than in package bench so that `-bench . -benchtime 50x
// ./bench/` stays one op per episode.
func BenchmarkMakeBench(b *testing.B) {
	args := []string{"run", "--track", "tabletop", "--agents", "oracle,rules,random", "--episodes", "100"}
	for b.Loop() {
		if err := Run(io.Discard, io.Discard, args); err != nil {
			b.Fatal(err)
		}
	}
}
