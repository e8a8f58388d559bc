package camera_test

import (
	"fmt"

	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/scenes/camera"
)

// Robot 1's view of a two-robot table under partial observability: the
// block in robot 2's strip is not drawn, and the block behind the bowl is
// partly hidden.
func Example() {
	objs := []scenes.Object{
		scenes.NewBlock("red block 1", "red", -0.15, -0.40),
		scenes.NewBowl("blue bowl 1", "blue", -0.15, -0.46),
		scenes.NewBlock("green block 1", "green", 0.2, -0.5),
	}
	opt := camera.DefaultOptions()
	opt.TwoRobots, opt.Partial = true, true
	png, vis, err := camera.Render(objs, opt)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(png) > 0)
	for _, v := range vis {
		fmt.Printf("%s: hidden %v, visible %.0f%%\n", v.ID, v.Hidden, 100*v.Fraction)
	}
	// Output:
	// true
	// red block 1: hidden false, visible 16%
	// blue bowl 1: hidden false, visible 100%
	// green block 1: hidden true, visible 0%
}
