package camera

import (
	"math/rand/v2"

	"github.com/ambibench/ambibench/scenes"
)

// sixObjects is a one-robot table of three blocks and three bowls.
func sixObjects() []scenes.Object {
	return []scenes.Object{
		scenes.NewBlock("red block 1", "red", -0.15, -0.35),
		scenes.NewBlock("blue block 1", "blue", 0.05, -0.6),
		scenes.NewBlock("yellow block 1", "yellow", 0.2, -0.45),
		scenes.NewBowl("green bowl 1", "green", -0.12, -0.62),
		scenes.NewBowl("purple bowl 1", "purple", 0.15, -0.3),
		scenes.NewBowl("orange bowl 1", "orange", 0.0, -0.42),
	}
}

// twoRobotObjects has objects in each of the three strips.
func twoRobotObjects() []scenes.Object {
	return []scenes.Object{
		scenes.NewBlock("red block 1", "red", -0.22, -0.4),
		scenes.NewBowl("blue bowl 1", "blue", -0.2, -0.65),
		scenes.NewBlock("green block 1", "green", 0.0, -0.5),
		scenes.NewBowl("yellow bowl 1", "yellow", 0.02, -0.32),
		scenes.NewBlock("pink block 1", "pink", 0.2, -0.45),
		scenes.NewBowl("cyan bowl 1", "cyan", 0.21, -0.68),
	}
}

// stack is three blocks one on another, and one block beside them.
func stack() []scenes.Object {
	a := scenes.NewBlock("red block 1", "red", 0, -0.5)
	b := scenes.NewBlock("blue block 1", "blue", 0, -0.5)
	b.Pose[2] = 1.5 * scenes.BlockSize
	c := scenes.NewBlock("yellow block 1", "yellow", 0, -0.5)
	c.Pose[2] = 2.5 * scenes.BlockSize
	d := scenes.NewBlock("green block 1", "green", 0.08, -0.45)
	return []scenes.Object{a, b, c, d}
}

// nested is a block in a bowl, and a bowl beside it.
func nested() []scenes.Object {
	bowl := scenes.NewBowl("blue bowl 1", "blue", 0, -0.5)
	blk := scenes.NewBlock("red block 1", "red", 0, -0.5)
	blk.Pose[2] = scenes.BlockSize/2 + 0.01
	return []scenes.Object{bowl, blk, scenes.NewBowl("green bowl 1", "green", 0.15, -0.45)}
}

// many lays n objects on a jittered grid of 8 columns 8 cm apart (a bowl
// beside a block just clears it), every seventh a bowl, colours cycling.
func many(n int, seed uint64) []scenes.Object {
	rng := rand.New(rand.NewPCG(seed, 1))
	objs := make([]scenes.Object, 0, n)
	for i := range n {
		col, row := i%8, (i/8)%6
		x := -0.28 + 0.08*float64(col) + (rng.Float64()-0.5)*0.004
		y := -0.74 + 0.096*float64(row) + (rng.Float64()-0.5)*0.004
		c := scenes.Colors[(i*3+row)%len(scenes.Colors)]
		if i%7 == 3 {
			objs = append(objs, scenes.NewBowl(scenes.ObjectID(c, scenes.ClassBowl, i), c, x, y))
		} else {
			objs = append(objs, scenes.NewBlock(scenes.ObjectID(c, scenes.ClassBlock, i), c, x, y))
		}
	}
	return objs
}

// randomScene draws n objects anywhere on the table, overlapping freely,
// some stacked on an earlier block or nested in an earlier bowl.
func randomScene(rng *rand.Rand, n int) []scenes.Object {
	objs := make([]scenes.Object, 0, n)
	for i := range n {
		c := scenes.Colors[rng.IntN(len(scenes.Colors))]
		x := scenes.TableMinX + 0.03 + rng.Float64()*(scenes.TableMaxX-scenes.TableMinX-0.06)
		y := scenes.TableMinY + 0.03 + rng.Float64()*(scenes.TableMaxY-scenes.TableMinY-0.06)
		var o scenes.Object
		if rng.IntN(3) == 0 {
			o = scenes.NewBowl(scenes.ObjectID(c, scenes.ClassBowl, i), c, x, y)
		} else {
			o = scenes.NewBlock(scenes.ObjectID(c, scenes.ClassBlock, i), c, x, y)
			if i > 0 && rng.IntN(4) == 0 { // on or in an earlier object
				u := objs[rng.IntN(i)]
				o.Pose[0], o.Pose[1] = u.Pose[0], u.Pose[1]
				if u.Class == scenes.ClassBowl {
					o.Pose[2] = u.Pose[2] - u.Extent[2]/2 + scenes.BlockSize/2 + 0.01
				} else {
					o.Pose[2] = u.Pose[2] + scenes.BlockSize
				}
			}
		}
		objs = append(objs, o)
	}
	return objs
}
