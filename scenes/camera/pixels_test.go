package camera

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

// The pixel test's tolerance: the pixels of a colour may differ from the
// visible area that geometry reports by pixelTolPerLength pixels per pixel
// of the visible pieces' outlines, plus pixelTolSlack per object.
// Thresholding coverage at 50% errs only in the pixels an edge crosses, by
// at most half a pixel each in the worst case, an edge aligned with the
// pixel grid, where every pixel along it rounds the same way (a top-down
// block 27.4 px wide fills 28×28 pixels: +32 px² over a 110 px outline).
// Along a slanted edge the errors mostly cancel. The pieces' outline also
// counts the cuts between pieces, so it is longer than the true one.
const (
	pixelTolPerLength = 0.5
	pixelTolSlack     = 2
	minGroupArea      = 50 // px²; smaller groups are all edge
)

// TestPixelsAgreeWithVisibility renders random scenes, classifies each
// decoded pixel by its colour alone, and checks that every colour's pixels
// inside its objects' boxes match the visible area geometry reports.
func TestPixelsAgreeWithVisibility(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 12))
	// Which object colour, if any, each palette colour is.
	colorOf := map[color.RGBA]string{}
	for _, c := range scenes.Colors {
		for s := range numShades {
			colorOf[palette[shadeIndex(c, s)].(color.RGBA)] = c
		}
	}
	var worst float64
	var groups, partly int
	for n := range 120 {
		objs := randomScene(rng, 1+rng.IntN(30))
		opt := DefaultOptions()
		if rng.IntN(3) == 0 {
			opt.View = TopDown
		}
		if rng.IntN(2) == 0 {
			opt.TwoRobots, opt.Partial = true, rng.IntN(2) == 0
			opt.Robot = []string{scenes.Robot1, scenes.Robot2}[rng.IntN(2)]
		}
		pngBytes, vis, err := Render(objs, opt)
		if err != nil {
			t.Fatal(err)
		}
		decoded, err := png.Decode(bytes.NewReader(pngBytes))
		if err != nil {
			t.Fatal(err)
		}
		img, ok := decoded.(*image.Paletted)
		if !ok {
			t.Fatalf("decoded a %T, want a paletted image", decoded)
		}
		// Name the object colour, if any, of each entry of the decoded
		// palette, by its RGBA alone.
		names := make([]string, len(img.Palette))
		for i, pc := range img.Palette {
			r, g, b, a := pc.RGBA()
			names[i] = colorOf[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}]
		}
		seen := make([]bool, len(img.Pix))
		sc := newScene(objs, opt.resolved())
		W, H := float64(opt.Width), float64(opt.Height)
		frame := poly{{0, 0}, {W, 0}, {W, H}, {0, H}}
		outline := make([]float64, len(objs))
		for i := range sc.items {
			for _, p := range sc.visiblePieces(i, frame) {
				outline[sc.items[i].idx] += perimeter(p.p)
			}
		}
		for _, c := range scenes.Colors {
			var want, area, tol float64
			var boxes []image.Rectangle
			for i, o := range objs {
				if o.Color() != c || vis[i].Hidden {
					continue
				}
				want += vis[i].Fraction * vis[i].Area
				area += vis[i].Area
				tol += pixelTolPerLength*outline[i] + pixelTolSlack
				boxes = append(boxes, vis[i].Box)
			}
			if area < minGroupArea {
				continue
			}
			groups++
			if want < 0.9*area {
				partly++
			}
			clear(seen)
			got := countInBoxes(img, boxes, seen, func(i uint8) bool { return names[i] == c })
			if d := abs(float64(got) - want); d > tol {
				t.Errorf("scene %d (%d objects, %+v), %s: %d pixels, geometry says %.1f of %.1f (fraction %.3f vs %.3f), tolerance %.1f px",
					n, len(objs), opt, c, got, want, area, float64(got)/area, want/area, tol)
			} else if r := d / tol; r > worst {
				worst = r
			}
		}
	}
	t.Logf("%d colour groups, %d partly hidden; worst error %.2f of the tolerance", groups, partly, worst)
	if partly < groups/10 {
		t.Errorf("only %d of %d groups partly hidden: the scenes test too little occlusion", partly, groups)
	}
}

// countInBoxes counts the pixels inside the union of boxes whose palette
// index passes keep; seen marks the pixels counted.
func countInBoxes(img *image.Paletted, boxes []image.Rectangle, seen []bool, keep func(uint8) bool) int {
	n := 0
	for _, b := range boxes {
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				k := img.PixOffset(x, y)
				if seen[k] {
					continue
				}
				seen[k] = true
				if keep(img.Pix[k]) {
					n++
				}
			}
		}
	}
	return n
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestPaletteDistinct: the pixel test classifies by colour, so no two
// palette entries may be the same colour.
func TestPaletteDistinct(t *testing.T) {
	seen := map[color.Color]int{}
	for i, c := range palette {
		if j, ok := seen[c]; ok {
			t.Errorf("palette entries %d and %d are both %v", j, i, c)
		}
		seen[c] = i
	}
	if len(palette) != idxObjects+numShades*len(scenes.Colors) {
		t.Errorf("palette has %d entries", len(palette))
	}
}

func TestSubtract(t *testing.T) {
	sq := func(x0, y0, x1, y1 float64) poly { return poly{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}} }
	for _, tc := range []struct {
		why  string
		p, q poly
		want float64
	}{
		{"disjoint squares leave the piece whole", sq(0, 0, 10, 10), sq(20, 20, 30, 30), 100},
		{"a corner overlap takes a quarter", sq(0, 0, 10, 10), sq(5, 5, 15, 15), 75},
		{"a hole in the middle", sq(0, 0, 10, 10), sq(4, 4, 6, 6), 96},
		{"covered whole", sq(0, 0, 10, 10), sq(-1, -1, 11, 11), 0},
		{"a triangle over half", sq(0, 0, 10, 10), poly{{-10, -10}, {20, -10}, {-10, 20}}, 50},
	} {
		var got float64
		for _, p := range new(arena).subtract([]piece{{tc.p, area(tc.p)}}, tc.q, bounds(tc.q), nil) {
			if area(p.p) <= 0 {
				t.Errorf("%s: piece %v is not counter-clockwise", tc.why, p.p)
			}
			if p.a != area(p.p) {
				t.Errorf("%s: piece %v has area %g, want %g", tc.why, p.p, p.a, area(p.p))
			}
			got += p.a
		}
		if abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: area %g, want %g", tc.why, got, tc.want)
		}
	}
}

// perimeter returns the length of p's outline: the pixels its edges cross,
// where thresholding may round either way.
func perimeter(p []pt) float64 {
	var s float64
	for i := range p {
		s += math.Hypot(p[(i+1)%len(p)].X-p[i].X, p[(i+1)%len(p)].Y-p[i].Y)
	}
	return s
}
