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
	if math.Abs(w) < 1e-12 {
		w = 1e-12
	}
	return pt{(x/w + 1) * 0.5 * c.w, (1 - y/w) * 0.5 * c.h}
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
