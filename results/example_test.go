package results_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ambibench/ambibench/results"
)

func ExampleWilson() {
	// 81 successes in 100 episodes.
	lo, hi := results.Wilson(81, 100, results.Z95)
	fmt.Printf("0.81 [%.3f, %.3f]\n", lo, hi)
	// No successes still gives an interval that is not a point.
	lo, hi = results.Wilson(0, 10, results.Z95)
	fmt.Printf("0.00 [%.3f, %.3f]\n", lo, hi)
	// Output:
	// 0.81 [0.722, 0.875]
	// 0.00 [0.000, 0.278]
}

func ExampleMarkdown() {
	var recs []results.Record
	for i := range 20 {
		recs = append(recs,
			results.Record{Suite: 1, Outcome: results.OutcomeScored, Schema: results.SchemaVersion, Track: "tabletop", Family: "pick_place",
				Perturbation: "none", Label: "none", Agent: "sgcot", Episode: i,
				ADA: i < 19, Success: i < 18},
			results.Record{Suite: 1, Outcome: results.OutcomeScored, Schema: results.SchemaVersion, Track: "tabletop", Family: "pick_place",
				Perturbation: "absence", Label: "absence", Agent: "sgcot", Episode: i,
				ADA: i < 15, Asked: i < 15, Success: i < 12},
		)
	}
	cells := results.Aggregate(recs, results.AggregateOptions{Perturbations: []string{"none", "absence"}})
	err := results.Markdown(os.Stdout, cells, results.TableOptions{Intervals: true, Perturbations: []string{"none", "absence"}})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// ADA / SR with 95% Wilson intervals (n = episodes)
	//
	// | agent | none | absence |
	// | --- | --- | --- |
	// | sgcot | ADA 0.95 [0.76, 0.99] · SR 0.90 [0.70, 0.97] (n=20) | ADA 0.75 [0.53, 0.89] · SR 0.60 [0.39, 0.78] (n=20) |
}

func ExampleOpenAppend() {
	dir, err := os.MkdirTemp("", "results")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "records.jsonl")

	// A run that was killed after one whole record and part of another.
	w, _, c, err := results.OpenAppend(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	r := results.Record{Suite: 1, Outcome: results.OutcomeScored, Track: "tabletop", Family: "pick_place", Perturbation: "none", Agent: "oracle", Episode: 0}
	if err := w.Write(r); err != nil {
		fmt.Println(err)
	}
	c.Close()
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"schema":1,"track":"tabl`)
	f.Close()

	// The resumed run gets the whole record back; the partial one is gone.
	w, done, c, err := results.OpenAppend(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	for _, r := range done {
		fmt.Println("done:", r.Key())
	}
	r.Episode = 1
	if err := w.Write(r); err != nil {
		fmt.Println(err)
	}
	// Output:
	// done: "tabletop"/"pick_place"/"none"/"oracle"/""/0/0
}
