package textworld_test

import (
	"fmt"

	"github.com/ambibench/ambibench/sim/textworld"
)

func Example() {
	g, err := textworld.New(tinyHouse(), textworld.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(g.Reset())
	for _, cmd := range []string{
		"go to countertop 1",
		"take apple 1 from countertop 1",
		"go to microwave 1",
		"heat apple 1 with microwave 1",
		"go to fridge 1",
		"put apple 1 in/on fridge 1",
		"open fridge 1",
		"put apple 1 in/on fridge 1",
	} {
		fmt.Printf("> %s\n%s\n", cmd, g.Step(cmd))
	}
	fmt.Println(g.Steps(), "steps")
	// Output:
	// You are in the middle of a room. Looking quickly around you, you see a cabinet 1, a countertop 1, a desk 1, a fridge 1, a microwave 1, and a sinkbasin 1.
	// > go to countertop 1
	// You arrive at loc 2. On the countertop 1, you see a apple 1, and a mug 2.
	// > take apple 1 from countertop 1
	// You pick up the apple 1 from the countertop 1.
	// > go to microwave 1
	// You arrive at loc 5. The microwave 1 is closed.
	// > heat apple 1 with microwave 1
	// You heat the apple 1 using the microwave 1.
	// > go to fridge 1
	// You arrive at loc 1. The fridge 1 is closed.
	// > put apple 1 in/on fridge 1
	// Nothing happens.
	// > open fridge 1
	// You open the fridge 1. The fridge 1 is open. In it, you see a egg 1.
	// > put apple 1 in/on fridge 1
	// You put the apple 1 in/on the fridge 1.
	// 8 steps
}

func ExampleGame_Admissible() {
	g, err := textworld.New(tinyHouse(), textworld.Options{Grammar: textworld.GrammarV04})
	if err != nil {
		panic(err)
	}
	g.Reset()
	g.Step("go to countertop 1")
	g.Step("take apple 1 from countertop 1")
	for _, c := range g.Admissible() {
		fmt.Println(c)
	}
	// Output:
	// examine apple 1
	// examine countertop 1
	// examine mug 2
	// go to cabinet 1
	// go to desk 1
	// go to fridge 1
	// go to microwave 1
	// go to sinkbasin 1
	// help
	// inventory
	// look
	// move apple 1 to countertop 1
}
