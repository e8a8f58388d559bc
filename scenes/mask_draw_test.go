package scenes

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// Draws from a mask's free pixels fall only in free pixels of the area,
// and as often in each part of it as its free share says: they stand in
// for rejection sampling over the whole table, so they must be uniform
// over what that sampling would keep.
func TestUncoveredDrawsUniformlyFromFreePixels(t *testing.T) {
	var m Mask
	m.AddDisc(-0.1, -0.4, 0.13)
	m.AddDisc(0.15, -0.65, 0.09)
	m.AddSquare(0.2, -0.3, 0.045)
	for _, tc := range []struct {
		name string
		area Rect
	}{
		{"the whole table", Table},
		{"an area whose border cuts pixels", Rect{TableMinX + 0.0123, TableMinY + 0.0171, TableMaxX - 0.0331, TableMaxY - 0.0097}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var u uncovered
			u.reset(&m, tc.area)
			rng := rand.New(rand.NewPCG(1, 2))
			const cells = 8 // a side of the grid the draws are counted on
			var got [cells * cells]int
			kept := 0
			for range 400000 {
				x, y, ok := u.draw(rng)
				if !ok {
					if tc.area.Contains(x, y) {
						t.Fatalf("(%g, %g) refused though inside the area", x, y)
					}
					continue
				}
				if m.Covered(x, y) || !tc.area.Contains(x, y) {
					t.Fatalf("(%g, %g) drawn: covered %v, in the area %v", x, y, m.Covered(x, y), tc.area.Contains(x, y))
				}
				got[cell(x, y, cells)]++
				kept++
			}
			// What each cell should get: its share of the free part of the
			// area, measured on a fine lattice of points.
			var want [cells * cells]float64
			free := 0.0
			const n = 1200
			for i := range n {
				for j := range n {
					x := TableMinX + (float64(i)+0.5)*(TableMaxX-TableMinX)/n
					y := TableMinY + (float64(j)+0.5)*(TableMaxY-TableMinY)/n
					if tc.area.Contains(x, y) && !m.Covered(x, y) {
						want[cell(x, y, cells)]++
						free++
					}
				}
			}
			for c := range want {
				p := want[c] / free
				mean := p * float64(kept)
				sd := math.Sqrt(float64(kept) * p * (1 - p))
				if math.Abs(float64(got[c])-mean) > 5*sd+0.002*float64(kept) {
					t.Errorf("cell %d: %d draws, want about %.0f (±%.0f)", c, got[c], mean, sd)
				}
			}
		})
	}
}

// cell is the cell of a side-by-side grid over the table that holds (x, y).
func cell(x, y float64, side int) int {
	i := min(int((x-TableMinX)/(TableMaxX-TableMinX)*float64(side)), side-1)
	j := min(int((y-TableMinY)/(TableMaxY-TableMinY)*float64(side)), side-1)
	return j*side + i
}

func TestAddSpacedOff(t *testing.T) {
	var full Mask
	full.AddSquare(0, -0.5, 1) // the whole table
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		name    string
		area    Rect
		covered *Mask
		ok      func(x, y float64) bool
		wantErr error // nil: an object is placed
	}{
		{"an empty mask places anywhere ok allows", Table, &Mask{}, func(x, y float64) bool { return x > 0 }, nil},
		{"a mask covering the table leaves no room", Table, &full, func(x, y float64) bool { return true }, ErrNoRoom},
		{"a condition nothing meets leaves no room", Table, &Mask{}, func(x, y float64) bool { return false }, ErrNoRoom},
		{"an area off the table is refused", Rect{-1, -0.8, 0, -0.2}, &Mask{}, func(x, y float64) bool { return true }, errOffTable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := NewLayout(rng, 0.045, false)
			o, err := l.AddSpacedOff(ClassBlock, "red", tc.area, tc.covered, tc.ok)
			switch {
			case tc.wantErr == nil && err != nil:
				t.Fatalf("got %v", err)
			case tc.wantErr == errOffTable && (err == nil || errors.Is(err, ErrNoRoom)):
				t.Fatalf("got %v, want an error naming the area", err)
			case tc.wantErr == ErrNoRoom && !errors.Is(err, ErrNoRoom):
				t.Fatalf("got %v, want %v", err, ErrNoRoom)
			case err == nil:
				if !tc.ok(o.Pose.X(), o.Pose.Y()) || !tc.area.Contains(o.Pose.X(), o.Pose.Y()) || len(l.Objects()) != 1 {
					t.Fatalf("placed %s at (%g, %g)", o.ID, o.Pose.X(), o.Pose.Y())
				}
			}
		})
	}
}

// errOffTable marks the rows that want AddSpacedOff's refusal of an area.
var errOffTable = errors.New("off the table")
