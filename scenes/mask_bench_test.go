package scenes

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkMaskCrowd marks the masks of a crowded table as
// bench/tabletop's distractors do, object by object (GridTable's 48: a
// bowl bars a disc of 0.13 m to bowls and of 0.092 m to blocks, a block
// a disc of 0.092 m to bowls and a square of 0.045 m to blocks), and, in
// draw, readies the sampler of one of the two masks before each object
// and draws from it, as each distractor's draw does.
//
//	go test -run '^$' -bench MaskCrowd ./scenes/
func BenchmarkMaskCrowd(b *testing.B) {
	objs := GridTable(8, 6)
	mark := func(blocks, bowls *Mask, o *Object) {
		x, y := o.Pose.X(), o.Pose.Y()
		if o.Class == ClassBowl {
			bowls.AddDisc(x, y, 0.13)
			blocks.AddDisc(x, y, 0.092)
		} else {
			bowls.AddDisc(x, y, 0.092)
			blocks.AddSquare(x, y, 0.045)
		}
	}
	for _, draw := range []bool{false, true} {
		name := "mark"
		if draw {
			name = "draw"
		}
		b.Run(name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			var u uncovered
			for b.Loop() {
				var blocks, bowls Mask
				for i := range objs {
					if draw {
						m := &blocks
						if i%4 == 0 {
							m = &bowls
						}
						u.reset(m, inset(Table))
						u.draw(rng)
					}
					mark(&blocks, &bowls, &objs[i])
				}
			}
		})
	}
}

// BenchmarkUncoveredReset readies a sampler over a crowded table's mask
// (a disc of 0.092 m about every other object of GridTable's 48), as a
// distractor's draw does before its first spot.
func BenchmarkUncoveredReset(b *testing.B) {
	var m Mask
	for i, o := range GridTable(8, 6) {
		if i%2 == 0 {
			m.AddDisc(o.Pose.X(), o.Pose.Y(), 0.092)
		}
	}
	var u uncovered
	for b.Loop() {
		u.reset(&m, inset(Table))
	}
}
