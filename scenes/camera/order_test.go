package camera

import (
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

// TestPainterOrder checks the occlusions painter's order must produce.
func TestPainterOrder(t *testing.T) {
	top := DefaultOptions()
	top.View = TopDown
	for _, tc := range []struct {
		why      string
		objs     []scenes.Object
		opt      Options
		id       string
		min, max float64
	}{
		{"the top of a stack is in full view", stack(), DefaultOptions(), "yellow block 1", 0.999, 1},
		{"the bottom of a stack is partly hidden by the block on it", stack(), DefaultOptions(), "red block 1", 0.2, 0.9},
		{"seen from above, a stack shows only its top", stack(), top, "red block 1", 0, 0.001},
		{"a nested block is in full view", nested(), DefaultOptions(), "red block 1", 0.999, 1},
		{"a bowl is partly hidden by the block in it", nested(), DefaultOptions(), "blue bowl 1", 0.5, 0.95},
		{"a block at the back of a bowl, resting in it, is in full view: the bowl's inside hides nothing in it (by centre depth alone the bowl painted it over, and a robot looking for it after a move found it gone)",
			nestedAtBack(), DefaultOptions(), "red block 1", 0.999, 1},
		{"a block behind a bowl is partly hidden", []scenes.Object{
			scenes.NewBlock("red block 1", "red", 0, -0.4), scenes.NewBowl("blue bowl 1", "blue", 0, -0.46),
		}, DefaultOptions(), "red block 1", 0, 0.5},
		{"a block in front of a bowl is in full view", []scenes.Object{
			scenes.NewBlock("red block 1", "red", 0, -0.6), scenes.NewBowl("blue bowl 1", "blue", 0, -0.52),
		}, DefaultOptions(), "red block 1", 0.999, 1},
	} {
		vis, err := Visibility(tc.objs, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vis {
			if v.ID == tc.id && (v.Fraction < tc.min || v.Fraction > tc.max) {
				t.Errorf("%s: %s visible %.3f, want [%g, %g]", tc.why, v.ID, v.Fraction, tc.min, tc.max)
			}
		}
	}
}

// nestedAtBack is a block resting in a bowl, near the bowl's back rim.
func nestedAtBack() []scenes.Object {
	bowl := scenes.NewBowl("blue bowl 1", "blue", 0, -0.5)
	blk := scenes.NewBlock("red block 1", "red", 0, -0.5+scenes.BowlSize/2-scenes.BlockSize/2-0.005)
	blk.Pose[2] = scenes.BlockSize/2 + 0.01
	return []scenes.Object{bowl, blk}
}
