package physics_test

import (
	"fmt"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/sim/physics"
)

func ExampleWorld_PickAndPlace() {
	w, err := physics.New([]scenes.Object{
		scenes.NewBlock("red block 1", "red", -0.2, -0.3),
		scenes.NewBowl("blue bowl 1", "blue", 0.1, -0.6),
	}, physics.Config{})
	if err != nil {
		panic(err)
	}
	if _, err := w.PickAndPlace(scenes.Robot1, "red block 1", "blue bowl 1"); err != nil {
		panic(err)
	}
	objs := w.Objects()
	fmt.Println("inside:", scenes.Inside(objs[0], objs[1]))
	_, err = w.PickAndPlace(scenes.Robot1, "blue bowl 1", "middle")
	fmt.Println(err)
	// Output:
	// inside: true
	// pick_and_place("blue bowl 1", "middle"): blue bowl 1 is a bowl; only blocks can be picked up
}
