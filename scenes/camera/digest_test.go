package camera

import (
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

func TestDigest(t *testing.T) {
	base := sixObjects()
	opt := DefaultOptions()
	d0 := Digest(base, opt)
	same := []struct {
		why  string
		edit func([]scenes.Object, *Options)
	}{
		{"nothing changed", func([]scenes.Object, *Options) {}},
		{"another attribute than colour does not change the image", func(o []scenes.Object, _ *Options) { o[0].Attributes[scenes.AttrSize] = "large" }},
		{"the region field is not read", func(o []scenes.Object, _ *Options) { o[0].Region = scenes.RegionRobot2 }},
		{"zero options mean the defaults", func(_ []scenes.Object, p *Options) { *p = Options{} }},
	}
	changed := []struct {
		why  string
		edit func([]scenes.Object, *Options)
	}{
		{"id", func(o []scenes.Object, _ *Options) { o[0].ID = "red block 9" }},
		{"class", func(o []scenes.Object, _ *Options) { o[0].Class = scenes.ClassBowl }},
		{"colour", func(o []scenes.Object, _ *Options) { o[0].Attributes[scenes.AttrColor] = "blue" }},
		{"pose x", func(o []scenes.Object, _ *Options) { o[0].Pose[0] += 1e-12 }},
		{"pose z", func(o []scenes.Object, _ *Options) { o[5].Pose[2] += 0.01 }},
		{"extent", func(o []scenes.Object, _ *Options) { o[3].Extent[1] = 0.1 }},
		{"an object fewer", func(o []scenes.Object, _ *Options) {}},
		{"width", func(_ []scenes.Object, p *Options) { p.Width = 320 }},
		{"height", func(_ []scenes.Object, p *Options) { p.Height = 240 }},
		{"view", func(_ []scenes.Object, p *Options) { p.View = TopDown }},
		{"eye", func(_ []scenes.Object, p *Options) { p.Eye = [3]float64{0, -1, 1} }},
		{"target", func(_ []scenes.Object, p *Options) { p.Target = [3]float64{0, -0.4, 0} }},
		{"fov", func(_ []scenes.Object, p *Options) { p.FovY = 50 }},
		{"ortho height", func(_ []scenes.Object, p *Options) { p.OrthoHeight = 1 }},
		{"two robots", func(_ []scenes.Object, p *Options) { p.TwoRobots = true }},
		{"robot", func(_ []scenes.Object, p *Options) { p.Robot = scenes.Robot2 }},
		{"partial", func(_ []scenes.Object, p *Options) { p.Partial = true }},
	}
	clone := func() []scenes.Object {
		out := make([]scenes.Object, len(base))
		for i, o := range base {
			out[i] = o.Clone()
		}
		return out
	}
	for _, tc := range same {
		objs, o := clone(), opt
		tc.edit(objs, &o)
		if d := Digest(objs, o); d != d0 {
			t.Errorf("%s: digest changed", tc.why)
		}
	}
	seen := map[string]string{d0: "base"}
	for _, tc := range changed {
		objs, o := clone(), opt
		tc.edit(objs, &o)
		if tc.why == "an object fewer" {
			objs = objs[:len(objs)-1]
		}
		d := Digest(objs, o)
		if prev, ok := seen[d]; ok {
			t.Errorf("changing %s gives the digest of %s", tc.why, prev)
		}
		seen[d] = tc.why
	}
	if len(d0) != 64 {
		t.Errorf("digest %q is not hex SHA-256", d0)
	}
}

func TestSceneDigest(t *testing.T) {
	t.Parallel()
	opt := DefaultOptions()
	base := SceneDigest("tabletop seed 1 pick_place/none 0", opt)
	if again := SceneDigest("tabletop seed 1 pick_place/none 0", Options{}); again != base {
		t.Errorf("zero options (the defaults) changed the scene digest")
	}
	top := opt
	top.View = TopDown
	for why, d := range map[string]string{
		"another scene":                   SceneDigest("tabletop seed 1 pick_place/none 1", opt),
		"another view":                    SceneDigest("tabletop seed 1 pick_place/none 0", top),
		"a table of no objects by Digest": Digest(nil, opt),
		"an empty scene name":             SceneDigest("", opt),
	} {
		if d == base {
			t.Errorf("%s gives the same digest", why)
		}
	}
}
