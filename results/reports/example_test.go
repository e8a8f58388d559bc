package reports_test

import (
	"fmt"
	"os"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/reports"
	"github.com/ambibench/ambibench/results/stats"
)

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
	cells := stats.Aggregate(recs, stats.AggregateOptions{Perturbations: []string{"none", "absence"}})
	err := reports.Markdown(os.Stdout, cells, reports.TableOptions{Intervals: true, Perturbations: []string{"none", "absence"}})
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
