package camera

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ambibench/ambibench/scenes"
	"github.com/go-gl/mathgl/mgl64"
)

// pointOf is where the image of opt shows the table point p, as [y, x] in
// 0–PointScale.
func pointOf(opt Options, p mgl64.Vec3) (y, x float64) {
	o := opt.resolved()
	c := newCamera(o)
	q := c.project(p)
	return q.Y / float64(o.Height) * PointScale, q.X / float64(o.Width) * PointScale
}

// topOf is the middle of an object's top face.
func topOf(o scenes.Object) mgl64.Vec3 {
	return mgl64.Vec3{o.Pose.X(), o.Pose.Y(), o.Pose.Z() + o.Extent.Z()/2}
}

// floorOf is the middle of a bowl's floor.
func floorOf(o scenes.Object) mgl64.Vec3 {
	return mgl64.Vec3{o.Pose.X(), o.Pose.Y(), o.Pose.Z() - o.Extent.Z()/2}
}

func TestPick(t *testing.T) {
	t.Parallel()
	six, stacked, inBowl, two := sixObjects(), stack(), nested(), twoRobotObjects()
	top := DefaultOptions()
	top.View = TopDown
	partial := DefaultOptions()
	partial.TwoRobots, partial.Partial = true, true
	both := partial
	both.Partial = false
	red := six[0] // at (-0.15, -0.35), left of the camera's axis
	for _, tc := range []struct {
		why  string
		objs []scenes.Object
		opt  Options
		at   mgl64.Vec3 // a point of the table whose image is picked
		y, x float64    // the image point, when at is zero
		want string     // the id picked; "" for nothing
	}{
		{"a lone block's top picks it", six, DefaultOptions(), topOf(red), 0, 0, "red block 1"},
		{"a bowl's floor, seen through the opening, picks the bowl", six, DefaultOptions(), floorOf(six[3]), 0, 0, "green bowl 1"},
		{"a block's front face picks it: the line meets the face before the table behind",
			six, DefaultOptions(), mgl64.Vec3{red.Pose.X(), red.Pose.Y() - scenes.BlockSize/2, 0.01}, 0, 0, "red block 1"},
		{"the top of a stack picks the top block, not those under it", stacked, DefaultOptions(), topOf(stacked[2]), 0, 0, "yellow block 1"},
		{"the side of the middle block of a stack picks it", stacked, DefaultOptions(),
			mgl64.Vec3{0, -0.5 - scenes.BlockSize/2, 1.5 * scenes.BlockSize}, 0, 0, "blue block 1"},
		{"a block in a bowl picks the block, not the bowl around it", inBowl, DefaultOptions(), topOf(inBowl[1]), 0, 0, "red block 1"},
		{"the inside of a bowl beside the block in it picks the bowl",
			inBowl, DefaultOptions(), mgl64.Vec3{0.035, -0.5, 0.005}, 0, 0, "blue bowl 1"},
		// Nine millimetres, not ten: a centimetre beside the foot is the
		// tolerance itself, and projecting there and back lands a rounding
		// either side of it (over it where the build fuses multiply-adds).
		{"the table nine millimetres beside a block's foot is within the tolerance of its centre",
			six, DefaultOptions(), mgl64.Vec3{red.Pose.X() + scenes.BlockSize/2 + 0.009, red.Pose.Y(), 0}, 0, 0, "red block 1"},
		{"the table two centimetres beside a block's foot is beyond the tolerance",
			six, DefaultOptions(), mgl64.Vec3{red.Pose.X() + scenes.BlockSize/2 + 0.02, red.Pose.Y(), 0}, 0, 0, ""},
		{"the table just beside a bowl's rim, on the side the wall does not hide, picks nothing: the rim is wider than the tolerance",
			six, DefaultOptions(), mgl64.Vec3{six[3].Pose.X() + scenes.BowlSize/2 + 0.002, six[3].Pose.Y(), 0}, 0, 0, ""},
		{"the table just left of a bowl's foot is hidden by the wall, which the line meets first",
			six, DefaultOptions(), mgl64.Vec3{six[3].Pose.X() - scenes.BowlSize/2 - 0.002, six[3].Pose.Y(), 0}, 0, 0, "green bowl 1"},
		{"empty table picks nothing", six, DefaultOptions(), mgl64.Vec3{-0.25, -0.75, 0}, 0, 0, ""},
		{"the background above the table picks nothing", six, DefaultOptions(), mgl64.Vec3{}, 1, 1, ""},
		{"a point outside the image picks nothing", six, DefaultOptions(), mgl64.Vec3{}, -5, 500, ""},
		{"a point that is not a number picks nothing", six, DefaultOptions(), mgl64.Vec3{}, math.NaN(), 500, ""},
		{"invalid options pick nothing", six, Options{View: "fisheye"}, topOf(red), 0, 0, ""},
		{"an object in the strip the robot does not observe is not picked", two, partial, topOf(two[4]), 0, 0, ""},
		{"the same object, observed, is picked", two, both, topOf(two[4]), 0, 0, "pink block 1"},
		{"robot 2 picks in its own strip", two, Options{TwoRobots: true, Partial: true, Robot: scenes.Robot2}, topOf(two[4]), 0, 0, "pink block 1"},
		{"top-down: a vertical line picks the top of a stack", stacked, top, topOf(stacked[0]), 0, 0, "yellow block 1"},
		{"top-down: a block in a bowl", inBowl, top, topOf(inBowl[1]), 0, 0, "red block 1"},
		{"top-down: the sloping inside wall of an empty bowl", inBowl, top, mgl64.Vec3{0.15 + 0.05, -0.45, 0.04}, 0, 0, "green bowl 1"},
	} {
		t.Run(tc.why, func(t *testing.T) {
			y, x := tc.y, tc.x
			if tc.at != (mgl64.Vec3{}) {
				proj := tc.opt
				if proj.Validate() != nil { // where a valid camera would see it
					proj = DefaultOptions()
				}
				y, x = pointOf(proj, tc.at)
			}
			i, ok := Pick(tc.objs, tc.opt, y, x)
			got := ""
			if ok {
				got = tc.objs[i].ID
			}
			if got != tc.want {
				t.Errorf("Pick at [%.1f, %.1f] = %q (ok %v), want %q", y, x, got, ok, tc.want)
			}
		})
	}
}

// TestHitHasNoTolerance: beside a block, where Pick takes it by the
// tolerance, Hit takes nothing; on it, both take it.
func TestHitHasNoTolerance(t *testing.T) {
	t.Parallel()
	objs := sixObjects()
	red := objs[0]
	opt := DefaultOptions()
	// Nine millimetres beside the foot: within the tolerance by a margin
	// no rounding crosses (see TestPick).
	y, x := pointOf(opt, mgl64.Vec3{red.Pose.X() + scenes.BlockSize/2 + 0.009, red.Pose.Y(), 0})
	if i, ok := Hit(objs, opt, y, x); ok {
		t.Errorf("Hit beside %s took %s", red.ID, objs[i].ID)
	}
	if i, ok := Pick(objs, opt, y, x); !ok || i != 0 {
		t.Errorf("Pick beside %s: %d, %v; want it", red.ID, i, ok)
	}
	y, x = pointOf(opt, topOf(red))
	if i, ok := Hit(objs, opt, y, x); !ok || i != 0 {
		t.Errorf("Hit on %s: %d, %v; want it", red.ID, i, ok)
	}
}

// TestTablePointInvertsTheProjection: the image point of a table point,
// cast back, meets the table there, in both views and from cameras moved
// about; a point above the horizon meets no table.
func TestTablePointInvertsTheProjection(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 29))
	for trial := range 300 {
		opt := DefaultOptions()
		if trial%3 == 0 {
			opt.View = TopDown
		}
		if trial%2 == 1 {
			opt.Eye = [3]float64{rng.Float64() - 0.5, -1.2 + 0.4*rng.Float64(), 0.3 + rng.Float64()}
		}
		if err := opt.Validate(); err != nil {
			continue
		}
		want := mgl64.Vec3{-0.25 + 0.5*rng.Float64(), -0.75 + 0.5*rng.Float64(), 0}
		y, x := pointOf(opt, want)
		if y < 0 || y > PointScale || x < 0 || x > PointScale {
			continue
		}
		px, py, ok := TablePoint(opt, y, x)
		if !ok || math.Abs(px-want.X()) > 1e-9 || math.Abs(py-want.Y()) > 1e-9 {
			t.Fatalf("trial %d (%s, eye %v): table point of [%.3f, %.3f] is (%g, %g) ok %v, want (%g, %g)",
				trial, opt.View, opt.Eye, y, x, px, py, ok, want.X(), want.Y())
		}
	}
	// A low camera looking along the table sees the sky above it.
	low := DefaultOptions()
	low.Eye = [3]float64{0, -1.4, 0.05}
	if err := low.Validate(); err != nil {
		t.Fatal(err)
	}
	if px, py, ok := TablePoint(low, 0, 500); ok {
		t.Errorf("the top of a low camera's image meets the table at (%g, %g)", px, py)
	}
	if _, _, ok := TablePoint(low, 1000, 500); !ok {
		t.Error("the bottom of a low camera's image meets no table")
	}
}

// normBox is a pixel box (x0, y0, x1, y1) of a w×h image as a detection
// reply writes it, [ymin, xmin, ymax, xmax] in 0–PointScale rounded to
// the nearest unit; its centre is [y, x]. This is llm.NormBox and
// llm.BoxCentre, which this package may not import.
func normBox(b [4]int, w, h int) [4]int {
	n := func(v, side int) int { return (v*PointScale*2 + side) / (2 * side) }
	return [4]int{n(b[1], h), n(b[0], w), n(b[3], h), n(b[2], w)}
}

func boxCentre(b [4]int) (y, x int) { return (b[0] + b[2]) / 2, (b[1] + b[3]) / 2 }

// interpenetrates reports whether objs[i] shares volume with another
// object without being nested in it or holding it: randomScene drops
// objects anywhere, and where two solids pass through each other the
// painter's order, not the geometry, decides what the image shows.
func interpenetrates(objs []scenes.Object, i int) bool {
	a := &objs[i]
	for j := range objs {
		b := &objs[j]
		if j == i || !boxesOverlap(a, b) || contains(a, b) || contains(b, a) {
			continue
		}
		return true
	}
	return false
}

func boxesOverlap(a, b *scenes.Object) bool {
	for k := range 3 {
		if math.Abs(a.Pose[k]-b.Pose[k]) >= (a.Extent[k]+b.Extent[k])/2-1e-9 {
			return false
		}
	}
	return true
}

// contains reports whether b sits in bowl a, inside its frustum.
func contains(a, b *scenes.Object) bool {
	if a.Class != scenes.ClassBowl {
		return false
	}
	bottom := a.Pose.Z() - a.Extent.Z()/2
	for _, c := range corners(b) {
		z := (c.Z() - bottom) / a.Extent.Z()
		w := bowlBase + (1-bowlBase)*z
		u, v := (c.X()-a.Pose.X())/(a.Extent.X()/2), (c.Y()-a.Pose.Y())/(a.Extent.Y()/2)
		if z < 0 || z > 1+1e-9 || u*u+v*v > w*w {
			return false
		}
	}
	return true
}

// TestBoxCentrePicksTheObject: in random scenes, the centre of every
// fully visible object's projected box, normalised as a detection writes
// it, picks that object; and the centre of a box moved onto another
// fully visible object picks the other (the geometry, not the box's
// owner, decides).
func TestBoxCentrePicksTheObject(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 29))
	checked, stackedOrNested := 0, 0
	for trial := range 300 {
		n := []int{3, 6, 12, 24, 48}[trial%5]
		objs := randomScene(rng, n)
		opt := DefaultOptions()
		switch trial % 4 {
		case 1:
			opt.View = TopDown
		case 2:
			opt.TwoRobots, opt.Partial = true, true
		case 3:
			opt.TwoRobots, opt.Partial, opt.Robot = true, true, scenes.Robot2
		}
		vis, err := Visibility(objs, opt)
		if err != nil {
			t.Fatal(err)
		}
		o := opt.resolved()
		for i, v := range vis {
			if v.Hidden || v.Fraction < 0.999 || interpenetrates(objs, i) {
				continue
			}
			y, x := boxCentre(normBox([4]int{v.Box.Min.X, v.Box.Min.Y, v.Box.Max.X, v.Box.Max.Y}, o.Width, o.Height))
			got, ok := Pick(objs, opt, float64(y), float64(x))
			if !ok || got != i {
				what := "nothing"
				if ok {
					what = objs[got].ID
				}
				t.Errorf("trial %d (%s, %d objects): the centre [%d, %d] of %s's box %v picks %s",
					trial, o.View, n, y, x, objs[i].ID, v.Box, what)
				continue
			}
			checked++
			if objs[i].Pose.Z() > objs[i].Extent.Z()/2+1e-9 {
				stackedOrNested++
			}
		}
	}
	if checked < 1000 || stackedOrNested < 50 {
		t.Errorf("checked %d objects, %d of them stacked or nested; want at least 1000 and 50", checked, stackedOrNested)
	}
}
