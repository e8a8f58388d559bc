package camera

import (
	"math"

	"github.com/ambibench/ambibench/scenes"
	"github.com/go-gl/mathgl/mgl64"
)

// PointScale is what an image point's coordinates are normalised to: a
// point is [y, x], each from 0 (the image's top, its left) to PointScale
// (its bottom, its right). It is the scale of a detection's box in a
// model's reply (llm.BoxScale), so that the centre of a box is a point.
const PointScale = 1000

// PickTolerance is how far, in metres on the table plane, the point where
// a line of sight meets the table may lie from an object's centre for
// [Pick] to take that object when the line meets none: 3 cm, a block's
// half side and one centimetre more. A point that lands on the table at
// most a centimetre beside a block's foot is taken as meant for the block,
// as a gripper closing there would still catch it; a point on the table
// two centimetres from a block takes nothing. No table point the image
// shows lies within 3 cm of a bowl's centre (the bowl hides them), so a
// bowl is picked only where the line meets it.
const PickTolerance = 0.03

// Pick returns the index in objs of the object that the image of opt shows
// at the point [y, x] (normalised to 0–[PointScale]): the first object the
// line of sight through the point meets, or, if it meets none, the object
// whose centre is nearest the point where the line meets the table plane,
// within [PickTolerance] (on a tie, the higher one). Objects the image
// does not draw are never picked: those in a strip the robot does not
// observe under partial observability, and those not wholly in front of
// the camera. ok is false if the point picks nothing, lies outside the
// image or is not a number, or if opt is not valid ([Options.Validate]).
func Pick(objs []scenes.Object, opt Options, y, x float64) (idx int, ok bool) {
	s, ok := newSight(opt, y, x)
	if !ok {
		return -1, false
	}
	return s.pick(objs, nil)
}

// pick is Pick along s; drawn, if not nil, is s.drawn of each object.
func (s *sight) pick(objs []scenes.Object, drawn []bool) (int, bool) {
	if i, ok := s.hit(objs, drawn); ok {
		return i, true
	}
	px, py, ok := s.table()
	if !ok {
		return -1, false
	}
	return s.nearest(objs, drawn, px, py)
}

// Picker is [Pick] at many points of one image of the same objects: the
// camera, its inverse projection and which objects the image draws are
// worked out once, not at every point. Judging a perceived graph picks at
// each of its nodes, so at a crowded table a Pick of its own for each
// rebuilt the camera dozens of times and tested every object's place in
// the view for every node. A Picker gives what Pick gives at every point;
// objs must not change while it is used.
//
// It also keeps where in the image each drawn object can be: the bounds
// of its box's eight corners, projected (the box holds a block, and a
// bowl's rim and foot; the image of a box in front of the camera lies in
// the hull of its corners' images). A line of sight through a point
// outside them meets no point of the object, so a pick tests the shape of
// only the few objects whose bounds hold its point, rather than of every
// object on the table: at 48 objects, a pick at each of the graph's
// nodes tested 2,304 shapes.
type Picker struct {
	objs   []scenes.Object
	opt    Options // resolved
	cam    camera
	inv    mgl64.Mat4
	drawn  []bool
	bounds []box  // of each drawn object in the image, in point units, widened by pickMargin
	under  []bool // scratch of Pick: drawn, and its bounds hold the point
	valid  bool
}

// pickMargin widens each object's bounds in a Picker, in point units (a
// thousandth of the image's side): a line of sight is the projection
// inverted, and the two round differently by far less than this.
const pickMargin = 1.0

// NewPicker returns the Picker of the image of opt over objs. Where opt
// is not valid ([Options.Validate]) its Pick picks nothing, as Pick does.
func NewPicker(objs []scenes.Object, opt Options) *Picker {
	p := &Picker{objs: objs}
	if opt.Validate() != nil {
		return p
	}
	p.valid, p.opt = true, opt.resolved()
	p.cam = newCamera(p.opt)
	p.inv = p.cam.m.Inv()
	s := sight{opt: p.opt, cam: p.cam}
	p.drawn = make([]bool, len(objs))
	p.bounds = make([]box, len(objs))
	p.under = make([]bool, len(objs))
	sx, sy := PointScale/p.cam.w, PointScale/p.cam.h
	for i := range objs {
		o := &objs[i]
		p.drawn[i] = s.drawn(o)
		if !p.drawn[i] {
			continue
		}
		b := box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
		for _, c := range corners(o) {
			q := p.cam.project(c)
			b.minX, b.maxX = min(b.minX, q.X), max(b.maxX, q.X)
			b.minY, b.maxY = min(b.minY, q.Y), max(b.maxY, q.Y)
		}
		p.bounds[i] = box{b.minX*sx - pickMargin, b.minY*sy - pickMargin, b.maxX*sx + pickMargin, b.maxY*sy + pickMargin}
	}
	return p
}

// Pick is [Pick] of the Picker's objects and options at [y, x].
func (p *Picker) Pick(y, x float64) (idx int, ok bool) {
	if !p.valid {
		return -1, false
	}
	s, ok := sightThrough(p.opt, p.cam, &p.inv, y, x)
	if !ok {
		return -1, false
	}
	for i, b := range p.bounds {
		p.under[i] = p.drawn[i] && x >= b.minX && x <= b.maxX && y >= b.minY && y <= b.maxY
	}
	if i, ok := s.hit(p.objs, p.under); ok {
		return i, true
	}
	px, py, ok := s.table()
	if !ok {
		return -1, false
	}
	return s.nearest(p.objs, p.drawn, px, py)
}

// Hit is [Pick] without the tolerance: the first object the line of sight
// through [y, x] meets, if any.
func Hit(objs []scenes.Object, opt Options, y, x float64) (idx int, ok bool) {
	s, ok := newSight(opt, y, x)
	if !ok {
		return -1, false
	}
	return s.hit(objs, nil)
}

// TablePoint returns where the line of sight through the image point
// [y, x] (normalised to 0–[PointScale]) meets the table plane z = 0, in
// table coordinates (metres), whatever stands there. ok is false if the
// line meets the plane only behind the camera or not at all (a point
// above the horizon), if the point lies outside the image or is not a
// number, or if opt is not valid. The point may lie off the table top
// ([scenes.Table]): that is for the caller to judge.
func TablePoint(opt Options, y, x float64) (px, py float64, ok bool) {
	s, ok := newSight(opt, y, x)
	if !ok {
		return 0, 0, false
	}
	return s.table()
}

// sight is the line of sight through one point of an image: it starts on
// the near plane at o and runs along the unit vector d, away from the
// camera.
type sight struct {
	opt  Options // resolved
	cam  camera
	o, d mgl64.Vec3
}

// newSight inverts the camera's projection at the image point [y, x]: the
// point in normalised device coordinates, unprojected on the near and the
// far plane, gives two points of the line. The line is the one the
// drawing projects along, whatever the view: through the eye for the
// perspective camera, parallel to its axis (straight down, by default)
// for the orthographic one.
func newSight(opt Options, y, x float64) (sight, bool) {
	if !(y >= 0 && y <= PointScale && x >= 0 && x <= PointScale) || opt.Validate() != nil {
		return sight{}, false
	}
	o := opt.resolved()
	c := newCamera(o)
	inv := c.m.Inv()
	return sightThrough(o, c, &inv, y, x)
}

// sightThrough is newSight with the camera c of the resolved options o
// and the inverse of its projection made, and opt found valid.
func sightThrough(o Options, c camera, inv *mgl64.Mat4, y, x float64) (sight, bool) {
	if !(y >= 0 && y <= PointScale && x >= 0 && x <= PointScale) {
		return sight{}, false
	}
	xn, yn := 2*x/PointScale-1, 1-2*y/PointScale
	near, far := unproject(inv, xn, yn, -1), unproject(inv, xn, yn, 1)
	d := far.Sub(near)
	if l := d.Len(); l > 0 && !math.IsInf(l, 0) && !math.IsNaN(l) {
		return sight{opt: o, cam: c, o: near, d: d.Mul(1 / l)}, true
	}
	return sight{}, false
}

// unproject maps a point in normalised device coordinates back to table
// coordinates through inv, the inverse of projection × view.
func unproject(inv *mgl64.Mat4, x, y, z float64) mgl64.Vec3 {
	p := inv.Mul4x1(mgl64.Vec4{x, y, z, 1})
	return mgl64.Vec3{p[0] / p[3], p[1] / p[3], p[2] / p[3]}
}

// drawn reports whether the image draws o: it is in a strip the robot
// observes and wholly in front of the camera (as newScene decides).
func (s *sight) drawn(o *scenes.Object) bool {
	return !s.opt.hidden(o.Pose.X(), o.Pose.Y()) && s.cam.inFront(o)
}

// isDrawn is s.drawn(&objs[i]), or drawn[i] where drawn holds it.
func (s *sight) isDrawn(objs []scenes.Object, drawn []bool, i int) bool {
	if drawn != nil {
		return drawn[i]
	}
	return s.drawn(&objs[i])
}

// hit returns the drawn object whose shape the line meets first; on an
// exact tie, the first in objs. drawn, if not nil, is s.drawn of each.
func (s *sight) hit(objs []scenes.Object, drawn []bool) (int, bool) {
	best, bestT := -1, math.Inf(1)
	for i := range objs {
		o := &objs[i]
		if !s.isDrawn(objs, drawn, i) {
			continue
		}
		var t float64
		var ok bool
		if o.Class == scenes.ClassBowl {
			t, ok = s.bowl(o)
		} else {
			t, ok = s.box(o)
		}
		if ok && t < bestT {
			best, bestT = i, t
		}
	}
	return best, best >= 0
}

// table returns where the line meets the plane z = 0.
func (s *sight) table() (x, y float64, ok bool) {
	if s.d[2] >= 0 { // level or rising: it never comes down to the table
		return 0, 0, false
	}
	t := -s.o[2] / s.d[2]
	if t < 0 {
		return 0, 0, false
	}
	return s.o[0] + t*s.d[0], s.o[1] + t*s.d[1], true
}

// nearest returns the drawn object whose centre is nearest (x, y) on the
// table plane, within PickTolerance; of two as near (a stack), the higher.
// drawn, if not nil, is s.drawn of each object.
func (s *sight) nearest(objs []scenes.Object, drawn []bool, x, y float64) (int, bool) {
	best, bestD := -1, PickTolerance
	for i := range objs {
		o := &objs[i]
		if !s.isDrawn(objs, drawn, i) {
			continue
		}
		d := math.Hypot(o.Pose.X()-x, o.Pose.Y()-y)
		switch {
		case d > bestD:
		case best < 0 || d < bestD || o.Pose.Z() > objs[best].Pose.Z():
			best, bestD = i, d
		}
	}
	return best, best >= 0
}

// box returns the distance along the line to where it enters o's box (a
// block is drawn as its box), by the slab method.
func (s *sight) box(o *scenes.Object) (float64, bool) {
	t0, t1 := 0.0, math.Inf(1) // the line starts at o, on the near plane
	for k := range 3 {
		h := o.Extent[k] / 2
		lo, hi := o.Pose[k]-h, o.Pose[k]+h
		if math.Abs(s.d[k]) < 1e-12 { // parallel to the slab
			if s.o[k] < lo || s.o[k] > hi {
				return 0, false
			}
			continue
		}
		a, b := (lo-s.o[k])/s.d[k], (hi-s.o[k])/s.d[k]
		if a > b {
			a, b = b, a
		}
		t0, t1 = max(t0, a), min(t1, b)
		if t0 > t1 {
			return 0, false
		}
	}
	return t0, true
}

// bowl returns the distance along the line to the first point of o's
// bowl as drawn: a frustum whose rim is the top of o's box (its half
// extents the radii, elliptic if they differ) and whose foot, at the
// bottom, is bowlBase times as wide, open at the top. Its surfaces are
// the wall, which a line may meet from outside or, through the opening,
// from inside, and the floor; the opening is not a surface, so the line
// goes on through it to the inside wall, the floor, or whatever lies in
// the bowl, which it meets first.
func (s *sight) bowl(o *scenes.Object) (float64, bool) {
	rx, ry, height := o.Extent.X()/2, o.Extent.Y()/2, o.Extent.Z()
	if rx <= 0 || ry <= 0 || height <= 0 {
		return 0, false
	}
	bottom := o.Pose.Z() - height/2
	// In units of the rim's radii about the axis, the wall is
	// u² + v² = w(z)², w rising linearly from bowlBase at the bottom to 1
	// at the rim; along the line each of u, v and w is linear in t.
	u0, v0 := (s.o[0]-o.Pose.X())/rx, (s.o[1]-o.Pose.Y())/ry
	du, dv := s.d[0]/rx, s.d[1]/ry
	slope := (1 - bowlBase) / height
	w0, dw := bowlBase+slope*(s.o[2]-bottom), slope*s.d[2]
	const eps = 1e-9 // metres: rounding at the rim and the floor
	best := math.Inf(1)
	try := func(t float64) {
		if t < 0 || t >= best || math.IsNaN(t) {
			return
		}
		if z := s.o[2] + t*s.d[2]; z < bottom-eps || z > bottom+height+eps {
			return
		}
		best = t
	}
	a := du*du + dv*dv - dw*dw
	b := 2 * (u0*du + v0*dv - w0*dw)
	c := u0*u0 + v0*v0 - w0*w0
	switch disc := b*b - 4*a*c; {
	case math.Abs(a) < 1e-12: // the line parallel to the cone's side
		if b != 0 {
			try(-c / b)
		}
	case disc >= 0:
		// The roots without cancellation: q and the product c/a.
		q := -(b + math.Copysign(math.Sqrt(disc), b)) / 2
		try(q / a)
		if q != 0 {
			try(c / q)
		}
	}
	if s.d[2] != 0 { // the floor
		t := (bottom - s.o[2]) / s.d[2]
		if u, v := u0+t*du, v0+t*dv; u*u+v*v <= bowlBase*bowlBase {
			try(t)
		}
	}
	return best, !math.IsInf(best, 1)
}
