package camera

import (
	"math"
	"slices"
	"sync"

	"github.com/ambibench/ambibench/scenes"
	"github.com/go-gl/mathgl/mgl64"
)

// bowlSegments is how many sides the polygons of a bowl's circles have.
const bowlSegments = 32

// bowlBase is the radius of a bowl's foot relative to its rim.
const bowlBase = 0.6

// item is an object as drawn: its place in the input, its depth, and its
// silhouette in pixels.
type item struct {
	idx   int
	obj   *scenes.Object
	depth float64
	sil   poly
	sb    box
}

// scene is what drawing and visibility share: the camera, the drawn
// objects in painter's order, and the occluder.
type scene struct {
	opt    Options
	objs   []scenes.Object
	cam    camera
	items  []item
	hidden []bool // by input index
	behind []int  // objects not drawn, being too near the eye or behind it
	occ    poly   // the occluder's polygon, if any
	occB   box
	arena  arena // scratch of visibility
	// Scratch of paintersOrder: the items' sort keys, and the items'
	// other slice.
	keys  []depthKey
	spare []item
	// tops[j] is the least top edge of the silhouettes of items j on
	// (findTops).
	tops []float64
	rest []nestee // scratch of nestInBowls
	// Scratch of layout, kept with the scene: the projected outline of
	// one object, its corners sorted, and the silhouettes' points.
	buf, sorted, slab []pt
}

// newScene lays out objs under resolved, valid options.
func newScene(objs []scenes.Object, o Options) *scene {
	sc := new(scene)
	sc.layout(objs, o)
	return sc
}

// scenePool keeps scenes, with their scratch, from one Visibility to the
// next: a crowded table's silhouettes and the pieces of their
// subtraction were most of what a look allocated. A scene goes back with
// no reference to the objects it showed (release).
var scenePool = sync.Pool{New: func() any { return new(scene) }}

// release drops what sc holds of the objects it laid out, before it goes
// back to scenePool.
func (sc *scene) release() {
	clear(sc.items)
	clear(sc.spare[:cap(sc.spare)])
	sc.objs, sc.items, sc.occ = nil, sc.items[:0], nil
}

// layout lays out objs under resolved, valid options in sc, reusing its
// scratch.
func (sc *scene) layout(objs []scenes.Object, o Options) {
	sc.opt, sc.objs, sc.cam = o, objs, newCamera(o)
	sc.hidden = append(sc.hidden[:0], make([]bool, len(objs))...)
	sc.behind, sc.occ, sc.occB = sc.behind[:0], nil, box{}
	if cap(sc.arena.ds) < 4*bowlSegments {
		sc.arena.ds = make([]float64, 0, 4*bowlSegments)
	}
	sc.items = slices.Grow(sc.items[:0], len(objs))
	buf := sc.buf[:0]
	sorted := sc.sorted[:0]
	if cap(sorted) < 4*bowlSegments {
		sorted = make([]pt, 0, 4*bowlSegments)
	}
	slab := sc.slab[:0] // the silhouettes
	if cap(slab) < 16*len(objs) {
		slab = make([]pt, 0, 16*len(objs))
	}
	for i := range objs {
		ob := &objs[i]
		if o.hidden(ob.Pose.X(), ob.Pose.Y()) {
			sc.hidden[i] = true
			continue
		}
		if !sc.cam.inFront(ob) {
			sc.behind = append(sc.behind, i)
			continue
		}
		buf = sc.outline(ob, buf[:0])
		if cap(slab)-len(slab) < 2*len(buf)+1 { // the hull's room
			slab = make([]pt, 0, max(16*len(objs), 4*len(buf)+2))
		}
		var sil poly
		if ob.Class == scenes.ClassBowl {
			// The rim and the foot, each a convex ring in order.
			sil = ringsHullTo(buf[:bowlSegments], buf[bowlSegments:], sorted, slab)
		} else {
			sil = hullTo(buf, slab)
		}
		slab = slab[:len(slab)+len(sil)]
		sc.items = append(sc.items, item{idx: i, obj: ob, depth: sc.cam.depth(ob.Pose), sil: sil, sb: bounds(sil)})
	}
	sc.buf, sc.sorted, sc.slab = buf, sorted, slab
	sc.nestInBowls()
	sc.paintersOrder()
	sc.findTops()
	if r, ok := o.hiddenRegion(); ok {
		sc.occ = sc.rect(r, 0)
		sc.occB = bounds(sc.occ)
	}
}

// rect projects a rectangle of the table at height z, as a convex polygon.
func (sc *scene) rect(r scenes.Rect, z float64) poly {
	pts := []pt{
		sc.cam.project(mgl64.Vec3{r.MinX, r.MinY, z}),
		sc.cam.project(mgl64.Vec3{r.MaxX, r.MinY, z}),
		sc.cam.project(mgl64.Vec3{r.MaxX, r.MaxY, z}),
		sc.cam.project(mgl64.Vec3{r.MinX, r.MaxY, z}),
	}
	return hull(pts)
}

// outline appends the projected points whose hull is the object's
// silhouette: a bowl's rim and foot circles, any other object's box
// corners.
func (sc *scene) outline(o *scenes.Object, dst []pt) []pt {
	if o.Class == scenes.ClassBowl {
		top, bottom := o.Pose.Z()+o.Extent.Z()/2, o.Pose.Z()-o.Extent.Z()/2
		dst = sc.circle(o, 1, top, dst)
		return sc.circle(o, bowlBase, bottom, dst)
	}
	return sc.cam.projectBox(o, dst)
}

// circle appends the projection of a horizontal circle around o's axis at
// height z, of radius scale times o's half extent.
func (sc *scene) circle(o *scenes.Object, scale, z float64, dst []pt) []pt {
	rx, ry := scale*o.Extent.X()/2, scale*o.Extent.Y()/2
	// project's sums, in its order, with its products by z taken once.
	m := &sc.cam.m
	zx, zy, zw := m[8]*z, m[9]*z, m[11]*z
	for _, u := range unitCircle {
		x, y := o.Pose.X()+rx*u[1], o.Pose.Y()+ry*u[0]
		dst = append(dst, sc.cam.pixel(m[0]*x+m[4]*y+zx+m[12], m[1]*x+m[5]*y+zy+m[13], m[3]*x+m[7]*y+zw+m[15]))
	}
	return dst
}

// unitCircle holds the sine and cosine of each of a bowl circle's corners,
// computed once: math.Sincos was a twentieth of the visibility's time.
var unitCircle = func() (u [bowlSegments][2]float64) {
	for k := range u {
		u[k][0], u[k][1] = math.Sincos(2 * math.Pi * float64(k) / bowlSegments)
	}
	return u
}()

// corners returns the eight corners of o's box: bit 0 of the index picks
// max x, bit 1 max y, bit 2 max z.
func corners(o *scenes.Object) [8]mgl64.Vec3 {
	var cs [8]mgl64.Vec3
	h := o.Extent.Mul(0.5)
	for i := range cs {
		d := mgl64.Vec3{-h[0], -h[1], -h[2]}
		if i&1 != 0 {
			d[0] = h[0]
		}
		if i&2 != 0 {
			d[1] = h[1]
		}
		if i&4 != 0 {
			d[2] = h[2]
		}
		cs[i] = o.Pose.Add(d)
	}
	return cs
}

// nestInBowls draws what rests in a bowl after the bowl. By the depth of
// its centre alone a block at the back of a bowl is farther than the
// bowl's centre, and the bowl, drawn after it, would paint it over, when
// a bowl's inside hides none of what lies in it. An object whose centre is
// within a bowl's rim, above the bowl's bottom, is taken to rest in it
// (nothing else can stand there): its depth becomes just less than the
// bowl's, less again the higher it is, so that a stack in a bowl keeps
// its order.
func (sc *scene) nestInBowls() {
	// What may rest in a bowl, read once, not through each item's object
	// for every bowl: on a crowded table, cold, that was a tenth of
	// layout.
	rest := sc.rest[:0]
	for j := range sc.items {
		if o := sc.items[j].obj; o.Class != scenes.ClassBowl {
			rest = append(rest, nestee{j, o.Pose})
		}
	}
	sc.rest = rest
	if len(rest) == len(sc.items) {
		return // no bowl
	}
	for i := range sc.items {
		b := &sc.items[i]
		if b.obj.Class != scenes.ClassBowl {
			continue
		}
		r := b.obj.Extent.X() / 2
		bottom := b.obj.Pose.Z() - b.obj.Extent.Z()/2
		for _, o := range rest {
			if o.pose.Z() <= bottom {
				continue
			}
			dx, dy := o.pose.X()-b.obj.Pose.X(), o.pose.Y()-b.obj.Pose.Y()
			if dx*dx+dy*dy >= r*r {
				continue
			}
			if d := b.depth - 1e-6*(1+o.pose.Z()); sc.items[o.j].depth > d {
				sc.items[o.j].depth = d
			}
		}
	}
}

// nestee is an item that is no bowl, by its index, and its centre.
type nestee struct {
	j    int
	pose mgl64.Vec3
}
