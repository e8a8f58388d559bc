package alfworld_test

import (
	"fmt"

	"github.com/ambibench/ambibench/tasks/alfworld"
)

func ExampleSpec_Build() {
	s := alfworld.EvalGames()[55]
	g, err := s.Build("multiplicity")
	if err != nil {
		panic(err)
	}
	plan, err := g.Expert("v0.3")
	if err != nil {
		panic(err)
	}
	fmt.Println(g.ID)
	fmt.Println(g.Instruction)
	fmt.Println(g.Label, "→", g.Answer)
	fmt.Println(len(plan), "commands:", plan[0], "…", plan[len(plan)-1])
	// Output:
	// eval/pick_heat_then_place/00
	// heat that egg and put it in countertop.
	// multiplicity → I mean the egg 3.
	// 6 commands: go to sinkbasin 1 … put egg 3 in/on countertop 1
}
