package camera

import (
	"bytes"
	"flag"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/ambibench/ambibench/scenes"
	"github.com/go-gl/mathgl/mgl64"
)

var update = flag.Bool("update", false, "rewrite the golden PNGs under testdata/")

// goldenTolerance is the share of pixels that may differ from a golden
// image: rasterising in float32 may round a few edge pixels differently on
// another architecture or SIMD path.
const goldenTolerance = 0.005

func goldenCases() []struct {
	name, why string
	objs      []scenes.Object
	opt       Options
} {
	partial := DefaultOptions()
	partial.TwoRobots, partial.Partial, partial.Robot = true, true, scenes.Robot1
	top := DefaultOptions()
	top.View = TopDown
	return []struct {
		name, why string
		objs      []scenes.Object
		opt       Options
	}{
		{"one_robot_6", "the default view of a one-robot table: cubes, bowls, painter's order", sixObjects(), DefaultOptions()},
		{"two_robots_partial_robot1", "the strips' tints, and robot 2's strip covered with none of its objects drawn", twoRobotObjects(), partial},
		{"stack", "a block on a block on a block is drawn bottom to top", stack(), DefaultOptions()},
		{"block_in_bowl", "a nested block is drawn after its bowl", nested(), DefaultOptions()},
		{"many_48", "a full table of 48 objects, many occluding each other", many(48, 7), DefaultOptions()},
		{"top_down", "the orthographic top-down view: squares and rings", sixObjects(), top},
	}
}

func TestGolden(t *testing.T) {
	for _, tc := range goldenCases() {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := Render(tc.objs, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", tc.name+".png")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./scenes/camera -update to write it)", err)
			}
			diff, total := differingPixels(t, got, want)
			if float64(diff) > goldenTolerance*float64(total) {
				t.Errorf("%s (%s): %d of %d pixels differ from %s, more than %.1f%%", tc.name, tc.why, diff, total, path, 100*goldenTolerance)
			}
		})
	}
}

// differingPixels decodes two PNGs and counts the pixels whose colours
// differ.
func differingPixels(t *testing.T, a, b []byte) (diff, total int) {
	t.Helper()
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if ia.Bounds() != ib.Bounds() {
		t.Fatalf("size %v, golden %v", ia.Bounds(), ib.Bounds())
	}
	r := ia.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, a1 := ia.At(x, y).RGBA()
			r2, g2, b2, a2 := ib.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				diff++
			}
		}
	}
	return diff, r.Dx() * r.Dy()
}

func TestDeterministic(t *testing.T) {
	var reused Renderer // buffers left over from the previous case must not show
	for _, tc := range goldenCases() {
		for range 2 {
			c, _, err := reused.Render(tc.objs, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			a, _, _ := Render(tc.objs, tc.opt)
			if !bytes.Equal(a, c) {
				t.Errorf("%s: a reused Renderer draws another image", tc.name)
			}
		}
		a, va, err := Render(tc.objs, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		b, vb, err := Render(tc.objs, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two renders differ", tc.name)
		}
		for i := range va {
			if va[i] != vb[i] {
				t.Errorf("%s: visibility of %s differs: %+v, %+v", tc.name, va[i].ID, va[i], vb[i])
			}
		}
	}
}

func TestPartialHidesOtherStrip(t *testing.T) {
	for _, tc := range []struct {
		robot, hiddenID, why string
	}{
		{scenes.Robot1, "pink block 1", "robot 1 does not see robot 2's strip"},
		{scenes.Robot2, "red block 1", "robot 2 does not see robot 1's strip"},
	} {
		opt := DefaultOptions()
		opt.TwoRobots, opt.Partial, opt.Robot = true, true, tc.robot
		vis, err := Visibility(twoRobotObjects(), opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vis {
			if v.ID == tc.hiddenID && (!v.Hidden || v.Fraction != 0) {
				t.Errorf("%s: %+v, want hidden", tc.why, v)
			}
			if v.ID == "green block 1" && (v.Hidden || v.Fraction < 0.99) {
				t.Errorf("%s: the shared strip's block %+v, want fully visible", tc.why, v)
			}
		}
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		why string
		opt Options
		ok  bool
	}{
		{"the defaults are valid", DefaultOptions(), true},
		{"the zero value means the defaults", Options{}, true},
		{"an unknown view", Options{View: "fisheye"}, false},
		{"an unknown robot", Options{Robot: "robot3"}, false},
		{"a negative width", Options{Width: -1}, false},
		{"a field of view of 180°", Options{FovY: 180}, false},
		{"eye at the target", Options{Eye: [3]float64{0, -0.5, 0.3}, Target: [3]float64{0, -0.5, 0.3}}, false},
		{"an eye under the table", Options{Eye: [3]float64{0, -1, -0.2}}, false},
		{"an eye over the table's middle looking at its far edge leaves the near edge behind", Options{Eye: [3]float64{0, -0.5, 0.2}, Target: [3]float64{0, 0, 0.2}}, false},
		{"the top-down view", Options{View: TopDown}, true},
		{"a camera from the side", Options{Eye: [3]float64{1.2, -0.5, 0.6}}, true},
	} {
		if err := tc.opt.Validate(); (err == nil) != tc.ok {
			t.Errorf("%s: Validate() = %v", tc.why, err)
		}
	}
	// An object between the eye and the near plane (a camera placed among
	// the objects) is neither drawn nor counted visible.
	objs := []scenes.Object{scenes.NewBlock("red block 1", "red", 0, -0.5)}
	objs[0].Pose = mgl64.Vec3(defaultEye)
	vis, err := Visibility(objs, DefaultOptions())
	if err != nil || vis[0].Fraction != 0 || !vis[0].Box.Empty() || vis[0].Hidden {
		t.Errorf("an object at the eye: %+v, %v; want nothing visible, not hidden", vis, err)
	}
	if _, err := Draw(nil, Options{View: "x"}); err == nil {
		t.Error("Draw accepted an unknown view")
	}
	img, err := Draw(nil, Options{Width: 32, Height: 24})
	if err != nil || img.Bounds() != image.Rect(0, 0, 32, 24) {
		t.Errorf("Draw of an empty table: %v, %v", img.Bounds(), err)
	}
}
