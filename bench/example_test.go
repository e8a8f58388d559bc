package bench_test

import (
	"context"
	"fmt"
	"github.com/ambibench/ambibench/bench/tabletop"

	"github.com/ambibench/ambibench/bench"
)

// One episode of the rules agent on a pick-and-place task whose block was
// removed: it asks with the absence tag, takes the block the user offers,
// and succeeds.
func ExampleRunEpisode() {
	job := bench.Job{Cell: bench.Cell{Family: "pick_place", Perturbation: "absence"}, Agent: "rules", Index: 3}
	rec, err := bench.RunEpisode(context.Background(), job, bench.Options{Track: tabletop.New(), Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Println(rec.Instruction)
	fmt.Println("asked:", rec.Asked, "tag:", rec.Tag, "ADA:", rec.ADA, "SR:", rec.Success)
	// Output:
	// Place the blue block in the orange bowl.
	// asked: true tag: absence ADA: true SR: true
}
