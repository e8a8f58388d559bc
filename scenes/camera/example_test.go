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

// The centre of each object's projected box, as a detection writes it
// (normalised to 0–1000, [y, x]), picks what the image shows there: the
// bowl's box is centred over the block in it, so its centre picks the
// block. A point on empty table picks nothing, and meets the table.
func ExamplePick() {
	bowl := scenes.NewBowl("blue bowl 1", "blue", 0, -0.5)
	block := scenes.NewBlock("red block 1", "red", 0, -0.5)
	block.Pose[2] = 0.02 // in the bowl, on its floor
	objs := []scenes.Object{bowl, block, scenes.NewBlock("green block 1", "green", 0.1, -0.5)}
	opt := camera.DefaultOptions()
	vis, err := camera.Visibility(objs, opt)
	if err != nil {
		panic(err)
	}
	for _, v := range vis {
		y := float64(v.Box.Min.Y+v.Box.Max.Y) / 2 / camera.DefaultHeight * camera.PointScale
		x := float64(v.Box.Min.X+v.Box.Max.X) / 2 / camera.DefaultWidth * camera.PointScale
		if i, ok := camera.Pick(objs, opt, y, x); ok {
			fmt.Printf("the centre of %s's box picks %s\n", v.ID, objs[i].ID)
		}
	}
	_, ok := camera.Pick(objs, opt, 850, 250)
	px, py, _ := camera.TablePoint(opt, 850, 250)
	fmt.Printf("[850, 250] picks something: %v; it is the table at (%.3f, %.3f)\n", ok, px, py)
	// Output:
	// the centre of blue bowl 1's box picks red block 1
	// the centre of red block 1's box picks red block 1
	// the centre of green block 1's box picks green block 1
	// [850, 250] picks something: false; it is the table at (-0.200, -0.755)
}
