package scenes

import (
	"math"
	"math/rand/v2"
	"testing"
)

// A mask covers only points inside a zone it was given, by any rounding
// of the tests that use it, and covers most of each zone, or it would
// save a sampler nothing.
func TestMaskCoversOnlyItsZones(t *testing.T) {
	type zone struct {
		x, y, r float64
		square  bool
	}
	inside := func(z zone, x, y float64) bool {
		dx, dy := x-z.x, y-z.y
		if z.square {
			return math.Abs(dx) < z.r && math.Abs(dy) < z.r
		}
		return dx*dx+dy*dy < z.r*z.r && math.Hypot(dx, dy) < z.r
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct {
		name  string
		zones []zone
		// least share of a zone's points the mask must cover
		least float64
	}{
		{"a block's square, mid-table", []zone{{0.01, -0.5, 0.045, true}}, 0.75},
		{"a bowl's disc", []zone{{-0.1, -0.4, 0.13, false}}, 0.9},
		{"a small disc, a few pixels wide", []zone{{0, -0.5, 0.02, false}}, 0.3},
		{"zones over the table's edges and corner", []zone{{TableMinX, TableMinY, 0.1, false}, {TableMaxX + 0.02, -0.5, 0.05, true}}, 0.5},
		{"a zone wholly off the table", []zone{{1, 1, 0.1, false}}, 0},
		{"a zone of no size", []zone{{0, -0.5, 0, false}}, 0},
		{"zones on pixel borders", []zone{{TableMinX + 10*maskPixelX, TableMinY + 20*maskPixelY, 4 * maskPixelX, true}, {TableMinX + 64*maskPixelX, TableMinY + 64*maskPixelY, 8 * maskPixelX, false}}, 0.5},
	} {
		var m Mask
		for _, z := range tc.zones {
			if z.square {
				m.AddSquare(z.x, z.y, z.r)
			} else {
				m.AddDisc(z.x, z.y, z.r)
			}
		}
		onTable, covered := 0, 0
		for range 200000 {
			// Points over the zones' boxes, and a tenth of them on the
			// pixel borders themselves.
			z := tc.zones[rng.IntN(len(tc.zones))]
			x, y := z.x+(2*rng.Float64()-1)*(z.r+0.01), z.y+(2*rng.Float64()-1)*(z.r+0.01)
			if rng.IntN(10) == 0 {
				x = TableMinX + math.Round((x-TableMinX)/maskPixelX)*maskPixelX
				y = TableMinY + math.Round((y-TableMinY)/maskPixelY)*maskPixelY
			}
			in := false
			for _, z := range tc.zones {
				in = in || inside(z, x, y)
			}
			if m.Covered(x, y) && !in {
				t.Fatalf("%s: (%v, %v) is covered and in no zone", tc.name, x, y)
			}
			if in && x >= TableMinX && x < TableMaxX && y >= TableMinY && y < TableMaxY {
				onTable++
				if m.Covered(x, y) {
					covered++
				}
			}
		}
		if onTable > 0 && float64(covered) < tc.least*float64(onTable) {
			t.Errorf("%s: covers %d of %d points inside its zones on the table, want at least %.0f%%", tc.name, covered, onTable, 100*tc.least)
		}
	}
	var zero Mask
	if zero.Covered(0, -0.5) {
		t.Error("the zero mask covers a point")
	}
}

// fill's ends, found from an estimate by the reciprocal of a pixel's width,
// are the pixels the division found: a mask marked otherwise would move
// every draw from it, and every record of a crowded table.
func TestFillEndsAsByDivision(t *testing.T) {
	byDivision := func(a, b float64) (int, int) {
		ilo := max(floorIndex((a-TableMinX)/maskPixelX), 0)
		for ilo < maskSide && !(pixelX(float64(ilo)) > a) {
			ilo++
		}
		ihi := min(floorIndex((b-TableMinX)/maskPixelX), maskSide-1)
		for ihi >= 0 && !(pixelX(float64(ihi+1)) < b) {
			ihi--
		}
		return ilo, ihi
	}
	rng := rand.New(rand.NewPCG(7, 8))
	var xs []float64
	for i := -2; i <= maskSide+2; i++ {
		// Pixel bounds and the floats either side of them.
		x := pixelX(float64(i))
		xs = append(xs, x, math.Nextafter(x, math.Inf(1)), math.Nextafter(x, math.Inf(-1)))
	}
	for range 100000 {
		xs = append(xs, TableMinX-0.1+rng.Float64()*(TableMaxX-TableMinX+0.2))
	}
	xs = append(xs, math.NaN(), math.Inf(1), math.Inf(-1), -5, 5)
	for _, x := range xs {
		lo, hi := byDivision(x, x)
		if got := firstAfter(x); got != lo {
			t.Fatalf("firstAfter(%v) = %d, the division finds %d", x, got, lo)
		}
		if got := lastBefore(x); got != hi {
			t.Fatalf("lastBefore(%v) = %d, the division finds %d", x, got, hi)
		}
	}
}
