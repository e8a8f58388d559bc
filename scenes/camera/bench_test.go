package camera

import (
	"bytes"
	"fmt"
	"testing"
)

// BenchmarkRender times the three parts of Render at 6, 24 and 48
// objects: rasterising (a Renderer reusing its buffers), PNG encoding,
// and visibility; all is the whole of Renderer.Render.
func BenchmarkRender(b *testing.B) {
	for _, n := range []int{6, 24, 48} {
		objs := many(n, 1)
		opt := DefaultOptions().resolved()
		b.Run(fmt.Sprintf("objects=%d/raster", n), func(b *testing.B) {
			var r Renderer
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.Draw(objs, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("objects=%d/png", n), func(b *testing.B) {
			img, _ := Draw(objs, opt)
			var buf bytes.Buffer
			var r Renderer
			b.ReportAllocs()
			for b.Loop() {
				buf.Reset()
				if err := r.EncodePNG(&buf, img); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("objects=%d/visibility", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				newScene(objs, opt).visibility()
			}
		})
		b.Run(fmt.Sprintf("objects=%d/all", n), func(b *testing.B) {
			var r Renderer
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := r.Render(objs, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPick times Pick at 6 and 48 objects, at the centre of each
// object's projected box in turn (one pick an iteration), and at a miss:
// a point at the image's bottom, where the line meets no object and the
// table plane just in front of the table, so that every object is tried
// and then the nearest centre sought.
func BenchmarkPick(b *testing.B) {
	for _, n := range []int{6, 48} {
		objs := many(n, 1)
		opt := DefaultOptions()
		vis, err := Visibility(objs, opt)
		if err != nil {
			b.Fatal(err)
		}
		var points [][2]float64
		for _, v := range vis {
			points = append(points, [2]float64{
				float64(v.Box.Min.Y+v.Box.Max.Y) / 2 / DefaultHeight * PointScale,
				float64(v.Box.Min.X+v.Box.Max.X) / 2 / DefaultWidth * PointScale,
			})
		}
		b.Run(fmt.Sprintf("objects=%d/box-centres", n), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				p := points[i%len(points)]
				if _, ok := Pick(objs, opt, p[0], p[1]); !ok {
					b.Fatalf("the centre %v of a box picks nothing", p)
				}
				i++
			}
		})
		b.Run(fmt.Sprintf("objects=%d/miss", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := Pick(objs, opt, 990, 500); ok {
					b.Fatal("the miss picks something")
				}
			}
		})
	}
}
