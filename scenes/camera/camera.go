package camera

import (
	"math"

	"github.com/ambibench/ambibench/scenes"
	"github.com/go-gl/mathgl/mgl64"
)

// nearPlane is the distance from the eye, along its axis, below which
// nothing is drawn.
const nearPlane = 0.01

// camera projects table coordinates to pixels.
type camera struct {
	m     mgl64.Mat4 // projection × view
	eye   mgl64.Vec3
	fwd   mgl64.Vec3 // unit vector from the eye to the target
	ortho bool
	w, h  float64
}

// newCamera builds the camera of resolved, valid options.
func newCamera(o Options) camera {
	eye, target := mgl64.Vec3(o.Eye), mgl64.Vec3(o.Target)
	fwd := target.Sub(eye).Normalize()
	up := mgl64.Vec3{0, 0, 1}
	if o.View == TopDown || fwd.Cross(up).Len() < 1e-6 {
		up = mgl64.Vec3{0, 1, 0}
		if fwd.Cross(up).Len() < 1e-6 {
			up = mgl64.Vec3{0, 0, 1}
		}
	}
	view := mgl64.LookAtV(eye, target, up)
	aspect := float64(o.Width) / float64(o.Height)
	dist := target.Sub(eye).Len()
	var proj mgl64.Mat4
	if o.View == TopDown {
		hh := o.OrthoHeight / 2
		proj = mgl64.Ortho(-hh*aspect, hh*aspect, -hh, hh, nearPlane, dist*4+1)
	} else {
		proj = mgl64.Perspective(mgl64.DegToRad(o.FovY), aspect, nearPlane, dist*4+1)
	}
	return camera{m: proj.Mul4(view), eye: eye, fwd: fwd, ortho: o.View == TopDown,
		w: float64(o.Width), h: float64(o.Height)}
}

// project returns the pixel position of a point: x to the right, y down.
func (c *camera) project(p mgl64.Vec3) pt {
	// c.m × (p, 1), rows 0, 1 and 3 only; mgl64 is column-major.
	m := &c.m
	x := m[0]*p[0] + m[4]*p[1] + m[8]*p[2] + m[12]
	y := m[1]*p[0] + m[5]*p[1] + m[9]*p[2] + m[13]
	w := m[3]*p[0] + m[7]*p[1] + m[11]*p[2] + m[15]
	return c.pixel(x, y, w)
}

// pixel returns the pixel position of a point whose homogeneous clip
// coordinates are x, y and w.
func (c *camera) pixel(x, y, w float64) pt {
	if math.Abs(w) < 1e-12 {
		w = 1e-12
	}
	return pt{(x/w + 1) * 0.5 * c.w, (1 - y/w) * 0.5 * c.h}
}

// projectBox appends the projections of o's box corners, in corners'
// order, each as project gives it. A corner has one of two values on
// each axis, so the products of the matrix with them are taken once for
// all eight: project's sums of the same products, in the same order,
// give the same points with a quarter of the multiplications.
func (c *camera) projectBox(o *scenes.Object, dst []pt) []pt {
	h := o.Extent.Mul(0.5)
	m := &c.m
	// The products of rows 0, 1 and 3 with each axis's low and high
	// value, as corners computes the values.
	var px, py, pz [2][3]float64
	for k, v := range [2]mgl64.Vec3{o.Pose.Add(mgl64.Vec3{-h[0], -h[1], -h[2]}), o.Pose.Add(h)} {
		px[k] = [3]float64{m[0] * v[0], m[1] * v[0], m[3] * v[0]}
		py[k] = [3]float64{m[4] * v[1], m[5] * v[1], m[7] * v[1]}
		pz[k] = [3]float64{m[8] * v[2], m[9] * v[2], m[11] * v[2]}
	}
	// The sums over x and y, shared by the corners above one another.
	var xy [4][3]float64
	for i := range xy {
		a, b := &px[i&1], &py[i>>1]
		xy[i] = [3]float64{a[0] + b[0], a[1] + b[1], a[2] + b[2]}
	}
	for i := range 8 {
		s, t := &xy[i&3], &pz[i>>2]
		dst = append(dst, c.pixel(s[0]+t[0]+m[12], s[1]+t[1]+m[13], s[2]+t[2]+m[15]))
	}
	return dst
}

// depth is a point's distance from the eye along the camera's axis.
func (c *camera) depth(p mgl64.Vec3) float64 { return c.fwd.Dot(p.Sub(c.eye)) }

// facing reports whether a face with outward normal n through point p
// faces the camera.
func (c *camera) facing(n, p mgl64.Vec3) bool {
	if c.ortho {
		return n.Dot(c.fwd) < -1e-9
	}
	return n.Dot(c.eye.Sub(p)) > 1e-9
}

// inFront reports whether all of o's box lies beyond the near plane; an
// object that does not (only a camera placed among the objects meets one)
// is not drawn, since its points behind the eye would project mirrored.
func (c *camera) inFront(o *scenes.Object) bool {
	// The box's nearest corner, by the axis's components: depth is linear.
	h := o.Extent.Mul(0.5)
	reach := math.Abs(c.fwd[0])*h[0] + math.Abs(c.fwd[1])*h[1] + math.Abs(c.fwd[2])*h[2]
	return c.depth(o.Pose)-reach >= nearPlane
}
