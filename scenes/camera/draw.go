package camera

import (
	"image"
	"image/draw"
	"math"

	"github.com/ambibench/ambibench/scenes"
	"github.com/go-gl/mathgl/mgl64"
	"golang.org/x/image/vector"
)

// Draw rasterises the table and objs as the camera of opt sees them.
func Draw(objs []scenes.Object, opt Options) (*image.Paletted, error) {
	return new(Renderer).Draw(objs, opt)
}

// draw paints the scene with r: the table and its strips, the objects far
// to near, then the occluder.
func (sc *scene) draw(r *raster) *image.Paletted {
	img := image.NewPaletted(image.Rect(0, 0, sc.opt.Width, sc.opt.Height), palette)
	// Pix starts at 0, idxBackground.
	r.fill(img, sc.rect(scenes.Table, 0), idxTable)
	if sc.opt.TwoRobots {
		for _, s := range [...]struct {
			region string
			idx    uint8
		}{{scenes.RegionRobot1, idxRobot1}, {scenes.RegionShared, idxShared}, {scenes.RegionRobot2, idxRobot2}} {
			r.fill(img, sc.rect(scenes.RegionRect(s.region), 0), s.idx)
		}
	}
	var buf []pt
	for i := range sc.items {
		buf = sc.drawObject(r, img, &sc.items[i], buf)
	}
	if sc.occ != nil {
		r.fill(img, sc.occ, idxOccluder)
	}
	return img
}

// boxFaces lists a box's faces as corner indices (see corners), with their
// outward normals and shades.
var boxFaces = [...]struct {
	c      [4]int
	normal mgl64.Vec3
	shade  int
}{
	{[4]int{4, 5, 7, 6}, mgl64.Vec3{0, 0, 1}, shadeLight}, // top
	{[4]int{0, 1, 5, 4}, mgl64.Vec3{0, -1, 0}, shadeMid},  // front
	{[4]int{2, 3, 7, 6}, mgl64.Vec3{0, 1, 0}, shadeMid},   // back
	{[4]int{0, 2, 6, 4}, mgl64.Vec3{-1, 0, 0}, shadeDark}, // left
	{[4]int{1, 3, 7, 5}, mgl64.Vec3{1, 0, 0}, shadeDark},  // right
}

// drawObject paints one object: its silhouette in the mid shade, then its
// visible faces (a box) or its rim and inside (a bowl) over it, so that the
// pixels it covers are exactly its silhouette's.
func (sc *scene) drawObject(r *raster, img *image.Paletted, it *item, buf []pt) []pt {
	o := it.obj
	c := o.Color()
	r.fill(img, it.sil, shadeIndex(c, shadeMid))
	if o.Class == scenes.ClassBowl {
		top := o.Pose.Z() + o.Extent.Z()/2
		buf = sc.circle(o, 1, top, buf[:0])
		r.fill(img, buf, shadeIndex(c, shadeLight))
		buf = sc.circle(o, 0.84, top, buf[:0])
		r.fill(img, buf, shadeIndex(c, shadeDark))
		return buf
	}
	cs := corners(o)
	for _, f := range boxFaces {
		centre := cs[f.c[0]].Add(cs[f.c[2]]).Mul(0.5)
		if !sc.cam.facing(f.normal, centre) {
			continue
		}
		buf = buf[:0]
		for _, k := range f.c {
			buf = append(buf, sc.cam.project(cs[k]))
		}
		r.fill(img, buf, shadeIndex(c, f.shade))
	}
	return buf
}

// raster fills polygons into a paletted image: vector rasterises each one
// into an alpha mask over its bounding box, and the pixels whose coverage
// is at least 50% take the polygon's palette index.
type raster struct {
	z    vector.Rasterizer
	mask image.Alpha
}

// maskThreshold is 50% coverage.
const maskThreshold = 128

func (r *raster) fill(img *image.Paletted, p []pt, idx uint8) {
	if len(p) < 3 {
		return
	}
	b := bounds(p)
	x0, y0 := max(0, int(math.Floor(b.minX))), max(0, int(math.Floor(b.minY)))
	x1, y1 := min(img.Rect.Dx(), int(math.Ceil(b.maxX))), min(img.Rect.Dy(), int(math.Ceil(b.maxY)))
	if x0 >= x1 || y0 >= y1 {
		return
	}
	w, h := x1-x0, y1-y0
	r.z.Reset(w, h)
	r.z.DrawOp = draw.Src
	fx, fy := float64(x0), float64(y0)
	r.z.MoveTo(float32(p[0].X-fx), float32(p[0].Y-fy))
	for _, q := range p[1:] {
		r.z.LineTo(float32(q.X-fx), float32(q.Y-fy))
	}
	r.z.ClosePath()
	if cap(r.mask.Pix) < w*h {
		r.mask.Pix = make([]uint8, w*h)
	}
	r.mask.Pix = r.mask.Pix[:w*h]
	r.mask.Stride = w
	r.mask.Rect = image.Rect(0, 0, w, h)
	r.z.Draw(&r.mask, r.mask.Rect, image.Opaque, image.Point{})
	for y := 0; y < h; y++ {
		row := img.Pix[(y0+y)*img.Stride+x0:][:w]
		m := r.mask.Pix[y*w:][:w]
		for x, a := range m {
			if a >= maskThreshold {
				row[x] = idx
			}
		}
	}
}
