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
