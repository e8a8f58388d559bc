package camera

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/ambibench/ambibench/scenes"
)

// View is how the camera projects the table.
type View string

// Views.
const (
	// Perspective is the KnowNo tabletop's camera: above and in front of the
	// table on the robots' side, looking down at its middle.
	Perspective View = "perspective"
	// TopDown looks straight down at the table, orthographically.
	TopDown View = "top-down"
)

// Defaults of the options.
const (
	DefaultWidth  = 640
	DefaultHeight = 480
	// DefaultFovY is the perspective camera's vertical field of view, in
	// degrees.
	DefaultFovY = 40
	// DefaultOrthoHeight is how many metres of the table the top-down view
	// shows from the image's top to its bottom.
	DefaultOrthoHeight = 0.7
	// maxSide bounds the image's sides.
	maxSide = 8192
)

// defaultEye and defaultTarget place the perspective camera: at (0, -1.05,
// 0.8), 0.55 m in front of the table's middle and 0.8 m above it, looking
// down at the middle (0, -0.5, 0) at about 55°. Unexported so that no one
// changes what a zero Eye means behind Digest's back.
var (
	defaultEye    = [3]float64{0, -1.05, 0.8}
	defaultTarget = [3]float64{0, -0.5, 0}
	// defaultTopEye is the top-down camera's eye, 1 m above the middle.
	// Its up direction is +y, so the far edge is at the top of the image.
	defaultTopEye = [3]float64{0, -0.5, 1}
)

// Options fix an image. They are plain values, so that a run's settings can
// record them as JSON. A zero Width, Height, View, Eye, Target, FovY,
// OrthoHeight or Robot means its default.
type Options struct {
	Width  int  `json:"width"`
	Height int  `json:"height"`
	View   View `json:"view"`
	// Eye and Target are the camera's position and the point it looks at,
	// in table coordinates (metres). Zero means the view's default: the
	// perspective eye (0, -1.05, 0.8), the top-down eye (0, -0.5, 1), the
	// target (0, -0.5, 0), the table's middle.
	Eye    [3]float64 `json:"eye"`
	Target [3]float64 `json:"target"`
	// FovY is the perspective camera's vertical field of view in degrees.
	FovY float64 `json:"fov_y"`
	// OrthoHeight is the top-down view's vertical extent in metres.
	OrthoHeight float64 `json:"ortho_height"`
	// TwoRobots marks the three strips of a two-robot table.
	TwoRobots bool `json:"two_robots,omitempty"`
	// Robot is whose view this is: scenes.Robot1 or scenes.Robot2.
	Robot string `json:"robot,omitempty"`
	// Partial covers the strip the robot does not observe (two robots only).
	Partial bool `json:"partial,omitempty"`
}

// DefaultOptions are a 640×480 perspective view of a one-robot table, from
// robot 1.
func DefaultOptions() Options {
	return Options{Width: DefaultWidth, Height: DefaultHeight, View: Perspective, Robot: scenes.Robot1}
}

// Resolved returns o with every zero field set to its default: the
// options as a run's settings record them.
func (o Options) Resolved() Options { return o.resolved() }

// resolved returns o with every zero field set to its default.
func (o Options) resolved() Options {
	if o.Width == 0 {
		o.Width = DefaultWidth
	}
	if o.Height == 0 {
		o.Height = DefaultHeight
	}
	if o.View == "" {
		o.View = Perspective
	}
	if o.Eye == ([3]float64{}) {
		if o.View == TopDown {
			o.Eye = defaultTopEye
		} else {
			o.Eye = defaultEye
		}
	}
	if o.Target == ([3]float64{}) {
		o.Target = defaultTarget
	}
	if o.FovY == 0 {
		o.FovY = DefaultFovY
	}
	if o.OrthoHeight == 0 {
		o.OrthoHeight = DefaultOrthoHeight
	}
	if o.Robot == "" {
		o.Robot = scenes.Robot1
	}
	return o
}

// Validate reports what is wrong with o, once defaults are filled in.
func (o Options) Validate() error {
	r := o.resolved()
	switch {
	case r.Width < 0 || r.Width > maxSide || r.Height < 0 || r.Height > maxSide:
		return fmt.Errorf("camera: image size %d×%d out of range (1..%d)", r.Width, r.Height, maxSide)
	case r.View != Perspective && r.View != TopDown:
		return fmt.Errorf("camera: unknown view %q (want %q or %q)", r.View, Perspective, TopDown)
	case r.FovY <= 0 || r.FovY >= 180:
		return fmt.Errorf("camera: field of view %g° out of range (0, 180)", r.FovY)
	case r.OrthoHeight <= 0:
		return fmt.Errorf("camera: ortho height %g must be positive", r.OrthoHeight)
	case r.Eye == r.Target:
		return fmt.Errorf("camera: eye and target are the same point")
	case r.Robot != scenes.Robot1 && r.Robot != scenes.Robot2:
		return fmt.Errorf("camera: unknown robot %q", r.Robot)
	case r.Eye[2] <= 0:
		return fmt.Errorf("camera: eye %v is not above the table (its z must be positive)", r.Eye)
	}
	// A point behind a perspective camera projects mirrored: the whole
	// table must lie in front of it.
	c := newCamera(r)
	t := scenes.Table
	for _, p := range [...][2]float64{{t.MinX, t.MinY}, {t.MaxX, t.MinY}, {t.MinX, t.MaxY}, {t.MaxX, t.MaxY}} {
		if c.depth(mgl64.Vec3{p[0], p[1], 0}) < nearPlane {
			return fmt.Errorf("camera: eye %v looking at %v has the table's corner (%g, %g) behind it; move the eye back or aim lower", r.Eye, r.Target, p[0], p[1])
		}
	}
	return nil
}

// hidden reports whether the robot of o observes the region of an object
// at (x, y) not at all.
func (o Options) hidden(x, y float64) bool {
	if !o.TwoRobots || !o.Partial {
		return false
	}
	return !scenes.Sees(o.Robot, scenes.RegionAt(true, x, y), true)
}

// hiddenRegion returns the strip the robot of o does not observe, if any.
func (o Options) hiddenRegion() (scenes.Rect, bool) {
	if !o.TwoRobots || !o.Partial {
		return scenes.Rect{}, false
	}
	if o.Robot == scenes.Robot2 {
		return scenes.RegionRect(scenes.RegionRobot1), true
	}
	return scenes.RegionRect(scenes.RegionRobot2), true
}
