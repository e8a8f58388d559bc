package camera

import (
	"image"
	"math"

	"github.com/ambibench/ambibench/scenes"
)

// Visible is what the image shows of one object.
type Visible struct {
	ID string `json:"id"`
	// Box is the projected bounding box of the object's silhouette, in
	// pixels, within the image.
	Box image.Rectangle `json:"box"`
	// Fraction is the share of the silhouette's area left visible: inside
	// the image, not under the silhouettes drawn after it nor the occluder.
	Fraction float64 `json:"fraction"`
	// Area is the silhouette's whole projected area, in square pixels.
	Area float64 `json:"area"`
	// Hidden marks an object in a strip the robot does not observe: it is
	// not drawn, and its Box, Fraction and Area are zero.
	Hidden bool `json:"hidden,omitempty"`
}

// Visibility returns, for every object of objs in their order, what the
// image of opt shows of it, from geometry alone.
func Visibility(objs []scenes.Object, opt Options) ([]Visible, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	sc := scenePool.Get().(*scene)
	sc.layout(objs, opt.resolved())
	v := sc.visibility()
	sc.release()
	scenePool.Put(sc)
	return v, nil
}

func (sc *scene) visibility() []Visible {
	out := make([]Visible, len(sc.hidden))
	for i, h := range sc.hidden {
		if h {
			out[i] = Visible{ID: sc.objs[i].ID, Hidden: true}
		}
	}
	for _, i := range sc.behind {
		out[i] = Visible{ID: sc.objs[i].ID}
	}
	W, H := float64(sc.opt.Width), float64(sc.opt.Height)
	frame := poly{{0, 0}, {W, 0}, {W, H}, {0, H}}
	imgRect := image.Rect(0, 0, sc.opt.Width, sc.opt.Height)
	for i := range sc.items {
		it := &sc.items[i]
		v := Visible{Area: area(it.sil)}
		if len(it.sil) >= 3 {
			v.Box = image.Rect(int(math.Floor(it.sb.minX)), int(math.Floor(it.sb.minY)),
				int(math.Ceil(it.sb.maxX)), int(math.Ceil(it.sb.maxY))).Intersect(imgRect)
		} else {
			v.Area = 0
		}
		if v.Area > 0 {
			v.Fraction = sc.visibleArea(i, frame) / v.Area
		}
		v.ID = it.obj.ID
		out[it.idx] = v
	}
	return out
}

// visibleArea is the area of item i's visible pieces.
func (sc *scene) visibleArea(i int, frame poly) float64 {
	var a float64
	for _, p := range sc.visiblePieces(i, frame) {
		a += p.a
	}
	return a
}

// visiblePieces returns item i's silhouette inside frame, minus the
// silhouettes of the items drawn after it and the occluder, as convex
// pieces. They live in the scene's arena, valid until the next call.
func (sc *scene) visiblePieces(i int, frame poly) []piece {
	ar := &sc.arena
	ar.pts = ar.pts[:0]
	it := &sc.items[i]
	c := ar.clip(it.sil, it.sb, frame, bounds(frame))
	if len(c) < 3 {
		return nil
	}
	pieces := append(ar.pa[:0], piece{c, area(c)})
	take := func(q poly, qb box) {
		next := ar.subtract(pieces, q, qb, ar.pb[:0])
		ar.pa, ar.pb = next, pieces
		pieces = next
	}
	for j := i + 1; j < len(sc.items) && len(pieces) > 0; j++ {
		if sc.tops[j] >= it.sb.maxY { // none from j on overlaps it
			break
		}
		if q := &sc.items[j]; len(q.sil) >= 3 && q.sb.overlaps(it.sb) {
			take(q.sil, q.sb)
		}
	}
	if sc.occ != nil && len(pieces) > 0 && sc.occB.overlaps(it.sb) {
		take(sc.occ, sc.occB)
	}
	return pieces
}
