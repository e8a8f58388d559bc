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

// A Picker tests the shapes of only the objects whose bounds in the image
// hold the point: at points along the edges of every object's image,
// where a line of sight grazes its shape, it still picks what Pick picks.
func TestPickerAtTheEdges(t *testing.T) {
	t.Parallel()
	top := DefaultOptions()
	top.View = TopDown
	rng := rand.New(rand.NewPCG(41, 5))
	edges := 0
	for _, opt := range []Options{DefaultOptions(), top} {
		for range 20 {
			objs := randomScene(rng, 1+rng.IntN(48))
			p := NewPicker(objs, opt)
			vis, err := Visibility(objs, opt)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range vis {
				if v.Area == 0 {
					continue
				}
				r := v.Box
				sx, sy := PointScale/float64(opt.Width), PointScale/float64(opt.Height)
				for range 100 {
					// A point within two pixels of one of the box's sides.
					x := float64(r.Min.X) + rng.Float64()*float64(r.Dx())
					y := float64(r.Min.Y) + rng.Float64()*float64(r.Dy())
					d := (rng.Float64()*4 - 2)
					switch rng.IntN(4) {
					case 0:
						x = float64(r.Min.X) + d
					case 1:
						x = float64(r.Max.X) + d
					case 2:
						y = float64(r.Min.Y) + d
					default:
						y = float64(r.Max.Y) + d
					}
					py, px := y*sy, x*sx
					i, ok := Pick(objs, opt, py, px)
					j, ok2 := p.Pick(py, px)
					if i != j || ok != ok2 {
						t.Fatalf("%v at [%v, %v], by object %d of %d: Pick %d %v, Picker %d %v", opt.View, py, px, k, len(objs), i, ok, j, ok2)
					}
					if i == k {
						edges++
					}
				}
			}
		}
	}
	if edges == 0 {
		t.Error("no point by an object's edge picked that object")
	}
}
