package stats_test

import (
	"fmt"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/stats"
)

func ExampleWilson() {
	// 81 successes in 100 episodes.
	lo, hi := stats.Wilson(81, 100, stats.Z95)
	fmt.Printf("0.81 [%.3f, %.3f]\n", lo, hi)
	// No successes still gives an interval that is not a point.
	lo, hi = stats.Wilson(0, 10, stats.Z95)
	fmt.Printf("0.00 [%.3f, %.3f]\n", lo, hi)
	// Output:
	// 0.81 [0.722, 0.875]
	// 0.00 [0.000, 0.278]
}

func ExampleMcNemarP() {
	// Ten episodes where the agents disagree: A alone succeeded on one,
	// B alone on nine.
	fmt.Printf("b=1, c=9: p = %.5f\n", stats.McNemarP(1, 9))
	// Disagreement split evenly is no evidence either way.
	fmt.Printf("b=5, c=5: p = %.5f\n", stats.McNemarP(5, 5))
	// Output:
	// b=1, c=9: p = 0.02148
	// b=5, c=5: p = 1.00000
}

func ExampleMcNemar() {
	// Two agents on the same eight episodes; only the outcome differs.
	var direct, sgcot []results.Record
	for ep := range 8 {
		r := results.Record{Suite: 1, Outcome: results.OutcomeScored, Track: "tabletop", Family: "pick_place", Perturbation: "absence", Seed: 1, Episode: ep, Model: "sim"}
		r.Agent, r.Success = "direct", ep < 3
		direct = append(direct, r)
		r.Agent, r.Success = "sgcot", ep < 7
		sgcot = append(sgcot, r)
	}
	p := stats.McNemar(direct, sgcot, func(r results.Record) bool { return r.Success })
	fmt.Printf("pairs %d, direct only %d, sgcot only %d, p = %.4f\n", p.Pairs, p.B, p.C, p.P)
	// Output:
	// pairs 8, direct only 0, sgcot only 4, p = 0.1250
}
