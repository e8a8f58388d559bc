package camera

import (
	"math"
	"math/rand/v2"
	"testing"
)

// A Picker picks what Pick picks at every point: on random tables under
// each view, with partial observability, at points inside and outside
// the image and not numbers, and under options that are not valid.
func TestPickerIsPick(t *testing.T) {
	t.Parallel()
	top := DefaultOptions()
	top.View = TopDown
	partial := DefaultOptions()
	partial.TwoRobots, partial.Partial = true, true
	bad := DefaultOptions()
	bad.Width = 0
	rng := rand.New(rand.NewPCG(37, 3))
	for _, opt := range []Options{DefaultOptions(), top, partial, bad} {
		for trial := range 20 {
			objs := randomScene(rng, 1+rng.IntN(48))
			if trial == 0 {
				objs = append(objs, twoRobotObjects()...)
			}
			p := NewPicker(objs, opt)
			for range 200 {
				y, x := rng.Float64()*1100-50, rng.Float64()*1100-50
				if rng.IntN(50) == 0 {
					y = math.NaN()
				}
				i, ok := Pick(objs, opt, y, x)
				j, ok2 := p.Pick(y, x)
				if i != j || ok != ok2 {
					t.Fatalf("%v at [%v, %v] over %d objects: Pick %d %v, Picker %d %v", opt.View, y, x, len(objs), i, ok, j, ok2)
				}
			}
		}
	}
}
