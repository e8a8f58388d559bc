package dyref_test

import (
	"fmt"

	"github.com/ambibench/ambibench/agents/dyref"
	"github.com/ambibench/ambibench/agents/housework"
)

// A heat task that failed: the egg went into the fridge without being
// heated. Its graph says how hard the task is; the router would read the
// vector.
func ExampleBuild() {
	s := housework.State{
		Opening: "You are in the middle of a room. Looking quickly around you, you see a cabinet 1, a countertop 1, a fridge 1, a garbagecan 1, a microwave 1, and a sinkbasin 1.\n\nYour task is to: heat some egg and put it in fridge.",
		Turns: []housework.Turn{
			{Command: "go to garbagecan 1", Observation: "You arrive at loc 3. On the garbagecan 1, you see a egg 1."},
			{Command: "take egg 1 from garbagecan 1", Observation: "You pick up the egg 1 from the garbagecan 1."},
			{Command: "go to fridge 1", Observation: "You arrive at loc 1. The fridge 1 is closed."},
			{Command: "open fridge 1", Observation: "You open the fridge 1. The fridge 1 is open. In it, you see nothing."},
			{Command: "put egg 1 in/on fridge 1", Observation: "You put the egg 1 in/on the fridge 1."},
		},
	}
	g, err := dyref.Build(s)
	if err != nil {
		panic(err)
	}
	f := g.Factors()
	fmt.Println(g.Nodes[0].Label)
	fmt.Printf("%d nodes, %d edges\n", len(g.Nodes), len(g.Edges))
	fmt.Println("dependency", f.Dependency, "interaction", f.Interaction, "spatial", f.Spatial)
	fmt.Println(len(f.Vector()), "features")
	// Output:
	// pick_heat_then_place: egg → fridge
	// 18 nodes, 23 edges
	// dependency 5 interaction 4 spatial 4
	// 19 features
}

func ExamplePseudoLabel() {
	var success, cost [dyref.Subsets]float64
	// Reflecting with the lesson alone fixes the next attempt; adding the
	// key rules fixes it too but costs 1,500 more tokens.
	lesson := dyref.Subset(dyref.Lesson)
	both := dyref.Subset(dyref.KeyRules | dyref.Lesson)
	success[lesson], cost[lesson] = 1, 800
	success[both], cost[both] = 1, 2300
	fmt.Println(dyref.PseudoLabel(success, cost, 0.05))
	// Output: lesson
}
