package tabletop

import (
	"encoding/json"
	"fmt"
	"image"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/scenes/camera"
)

// A point of pick_at and place_at is a detection's box centre: both
// packages count to the same scale.
func TestPointScaleIsBoxScale(t *testing.T) {
	if camera.PointScale != llm.BoxScale {
		t.Errorf("camera.PointScale %d, llm.BoxScale %d", camera.PointScale, llm.BoxScale)
	}
}

// boxOf is an object's projected box in the robot's image now.
func boxOf(t *testing.T, e *robotEnv, id string) image.Rectangle {
	t.Helper()
	objs := e.st.world.Objects()
	vis, err := camera.Visibility(objs, e.cameraOptions())
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range objs {
		if o.ID == id {
			if vis[i].Hidden || vis[i].Box.Empty() {
				t.Fatalf("%s is not in robot %s's image", id, e.robot)
			}
			return vis[i].Box
		}
	}
	t.Fatalf("no %s on the table", id)
	return image.Rectangle{}
}

// centreOf is where a detection of the box b would say it saw the
// object: the centre of b, normalised as a detection reply writes it.
func centreOf(e *robotEnv, b image.Rectangle) [2]int {
	opt := e.cameraOptions()
	return llm.BoxCentre(llm.NormBox([4]int{b.Min.X, b.Min.Y, b.Max.X, b.Max.Y}, opt.Width, opt.Height))
}

// seenAt is centreOf the object's own box.
func seenAt(t *testing.T, e *robotEnv, id string) [2]int { return centreOf(e, boxOf(t, e, id)) }

// emptyTable is an image point that shows the table with nothing on it
// nor within camera.PickTolerance of it, and where that is on the table.
func emptyTable(t *testing.T, e *robotEnv) ([2]int, [2]float64) {
	t.Helper()
	objs, opt := e.st.world.Objects(), e.cameraOptions()
	for y := 600; y < 1000; y += 20 {
		for x := 100; x < 900; x += 20 {
			if _, ok := camera.Pick(objs, opt, float64(y), float64(x)); ok {
				continue
			}
			px, py, ok := camera.TablePoint(opt, float64(y), float64(x))
			if !ok || !scenes.Table.Contains(px, py) {
				continue
			}
			near := false
			for _, o := range objs {
				near = near || scenes.PlanarDistance(o, scenes.Object{Pose: [3]float64{px, py, 0}}) < 0.08
			}
			if !near {
				return [2]int{y, x}, [2]float64{px, py}
			}
		}
	}
	t.Fatal("no image point shows empty table")
	return [2]int{}, [2]float64{}
}

// classOf lists the ids of the table's objects of a class.
func classOf(st *episodeState, class string) []string {
	var ids []string
	for _, o := range st.world.Objects() {
		if o.Class == class {
			ids = append(ids, o.ID)
		}
	}
	return ids
}

// pickAt is a pick_and_place call's arguments with points.
func pickAt(pick, place string, pickAt, placeAt *[2]int) string {
	b, err := json.Marshal(agents.PickAndPlaceArgs{Pick: pick, Place: place, PickAt: pickAt, PlaceAt: placeAt})
	if err != nil {
		panic(err)
	}
	return string(b)
}

func ptr(p [2]int) *[2]int { return &p }

func poses(st *episodeState) map[string][3]float64 {
	m := map[string][3]float64{}
	for _, o := range st.world.Objects() {
		m[o.ID] = o.Pose
	}
	return m
}

func find(t *testing.T, st *episodeState, id string) scenes.Object {
	t.Helper()
	o, ok := scenes.Find(st.world.Objects(), id)
	if !ok {
		t.Fatalf("no %s on the table", id)
	}
	return o
}

// TestPickAtGroundsByGeometry: a pick_and_place with points acts on what
// the robot's image shows there, whatever the names say (issue 29's
// grounding by geometry). Each case starts from episode 0 of pick_place
// without perturbation: three blocks and three bowls, all in full view.
func TestPickAtGroundsByGeometry(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why string
		run func(t *testing.T, e *robotEnv, st *episodeState, blocks, bowls []string)
	}{
		{"a detection's box moved onto a neighbour, keeping its id: the neighbour is moved", func(t *testing.T, e *robotEnv, st *episodeState, blocks, bowls []string) {
			a, b, bowl := blocks[0], blocks[1], bowls[0]
			before := poses(st)
			r := callTool(t, e, agents.ToolPickAndPlace, pickAt(a, bowl, ptr(seenAt(t, e, b)), nil))
			if r.Error != "" {
				t.Fatalf("refused: %s", r.Error)
			}
			if !scenes.Inside(find(t, st, b), find(t, st, bowl)) {
				t.Errorf("%s, where the box was, is not in %s", b, bowl)
			}
			if find(t, st, a).Pose != before[a] {
				t.Errorf("%s, whose id the box kept, moved", a)
			}
			if want := "robot1 " + b + " > " + bowl; len(st.moves) != 1 || st.moves[0] != want {
				t.Errorf("moves %q, want [%q]", st.moves, want)
			}
		}},
		{"a detection's box moved onto empty table, keeping its id: nothing to grasp, and the episode goes on", func(t *testing.T, e *robotEnv, st *episodeState, blocks, bowls []string) {
			a, bowl := blocks[0], bowls[0]
			at, _ := emptyTable(t, e)
			before := poses(st)
			r := callTool(t, e, agents.ToolPickAndPlace, pickAt(a, bowl, &at, nil))
			if want := fmt.Sprintf("pick_and_place: nothing to grasp at [%d, %d]", at[0], at[1]); r.Error != want || r.Ended {
				t.Errorf("got %+v, want the refusal %q", r, want)
			}
			for id, p := range poses(st) {
				if p != before[id] {
					t.Errorf("a refused call moved %s", id)
				}
			}
			if st.steps != 1 || len(st.moves) != 0 || len(st.actedBy) != 0 {
				t.Errorf("steps %d, moves %q, acted by %q; want one step and nothing done", st.steps, st.moves, st.actedBy)
			}
			if r := callTool(t, e, agents.ToolPickAndPlace, pickAt(a, bowl, ptr(seenAt(t, e, a)), nil)); r.Error != "" || !scenes.Inside(find(t, st, a), find(t, st, bowl)) {
				t.Errorf("after the refusal, the call at %s's box: %+v", a, r)
			}
		}},
		{"a stack's box picks the block on top, whichever block's name the call gives", func(t *testing.T, e *robotEnv, st *episodeState, blocks, bowls []string) {
			top, under, bowl := blocks[0], blocks[1], bowls[0]
			if r := callTool(t, e, agents.ToolPickAndPlace, pickAt(top, under, nil, nil)); r.Error != "" {
				t.Fatalf("stacking %s on %s: %s", top, under, r.Error)
			}
			if !scenes.OnTop(find(t, st, top), find(t, st, under)) {
				t.Fatalf("%s is not on %s", top, under)
			}
			// The lower block's own box: the top block stands in front of
			// its middle. Then the box of the stack as one.
			for _, at := range [][2]int{seenAt(t, e, under), centreOf(e, boxOf(t, e, under).Union(boxOf(t, e, top)))} {
				r := callTool(t, e, agents.ToolPickAndPlace, pickAt(under, bowl, &at, nil))
				if r.Error != "" {
					t.Fatalf("the call at %v: %s", at, r.Error)
				}
				if !scenes.Inside(find(t, st, top), find(t, st, bowl)) || find(t, st, under).Pose.Z() > scenes.BlockSize {
					t.Errorf("at %v: %s moved, not %s on top of it (moves %q)", at, under, top, st.moves)
				}
				// Stack them again for the next point.
				if r := callTool(t, e, agents.ToolPickAndPlace, pickAt(top, under, nil, nil)); r.Error != "" {
					t.Fatalf("stacking %s on %s again: %s", top, under, r.Error)
				}
			}
		}},
		{"a bowl's box with a block in it picks the block, not the bowl", func(t *testing.T, e *robotEnv, st *episodeState, blocks, bowls []string) {
			a, bowl := blocks[0], bowls[0]
			if r := callTool(t, e, agents.ToolPickAndPlace, pickAt(a, bowl, nil, nil)); r.Error != "" {
				t.Fatal(r.Error)
			}
			r := callTool(t, e, agents.ToolPickAndPlace, pickAt(bowl, "top left corner", ptr(seenAt(t, e, bowl)), nil))
			if r.Error != "" {
				t.Fatalf("refused: %s", r.Error)
			}
			if o := find(t, st, a); !scenes.AtPoint(o, scenes.Places["top left corner"]) {
				t.Errorf("%s, in the bowl, was not moved to the corner: at %v", a, o.Pose)
			}
		}},
		{"two names at one point act on one object", func(t *testing.T, e *robotEnv, st *episodeState, blocks, bowls []string) {
			a := blocks[0]
			for _, c := range []struct{ name, place string }{{"red block 9", "top left corner"}, {"the small cube", "bottom right corner"}} {
				r := callTool(t, e, agents.ToolPickAndPlace, pickAt(c.name, c.place, ptr(seenAt(t, e, a)), nil))
				if r.Error != "" {
					t.Fatalf("%s: %s", c.name, r.Error)
				}
				if o := find(t, st, a); !scenes.AtPoint(o, scenes.Places[c.place]) {
					t.Errorf("%s at %s's box: %s is at %v, not the %s", c.name, a, a, o.Pose, c.place)
				}
			}
		}},
		{"place_at on a bowl puts the block in it, whatever the place's name", func(t *testing.T, e *robotEnv, st *episodeState, blocks, bowls []string) {
			a, bowl := blocks[0], bowls[1]
			r := callTool(t, e, agents.ToolPickAndPlace, pickAt(a, bowls[0], nil, ptr(seenAt(t, e, bowl))))
			if r.Error != "" {
				t.Fatalf("refused: %s", r.Error)
			}
			if !scenes.Inside(find(t, st, a), find(t, st, bowl)) {
				t.Errorf("%s is not in %s, where place_at pointed", a, bowl)
			}
		}},
		{"place_at on empty table puts the block there", func(t *testing.T, e *robotEnv, st *episodeState, blocks, bowls []string) {
			a := blocks[0]
			at, p := emptyTable(t, e)
			r := callTool(t, e, agents.ToolPickAndPlace, pickAt(a, "there", nil, &at))
			if r.Error != "" {
				t.Fatalf("refused: %s", r.Error)
			}
			if o := find(t, st, a); !scenes.AtPoint(o, p) {
				t.Errorf("%s placed at %v (the table at %v) is at %v", a, at, p, o.Pose)
			}
			if want := fmt.Sprintf("robot1 %s > the table at [%d, %d]", a, at[0], at[1]); len(st.moves) != 1 || st.moves[0] != want {
				t.Errorf("moves %q, want [%q]", st.moves, want)
			}
		}},
		{"place_at beside the table is refused in the image's terms", func(t *testing.T, e *robotEnv, st *episodeState, blocks, bowls []string) {
			at := [2]int{990, 10} // the near left corner of the image: floor
			r := callTool(t, e, agents.ToolPickAndPlace, pickAt(blocks[0], "there", nil, &at))
			want := fmt.Sprintf("place_at [%d, %d] is off the table", at[0], at[1])
			if !strings.Contains(r.Error, want) || strings.Contains(r.Error, "(-0.") {
				t.Errorf("got %q, want a refusal with %q and no table coordinates", r.Error, want)
			}
		}},
		{"pick_at on an empty bowl: the robot cannot pick a bowl, and names it by where it is", func(t *testing.T, e *robotEnv, st *episodeState, blocks, bowls []string) {
			at := seenAt(t, e, bowls[0])
			r := callTool(t, e, agents.ToolPickAndPlace, pickAt(blocks[0], "middle", &at, nil))
			want := fmt.Sprintf("the object at [%d, %d] is a bowl; only blocks can be picked up", at[0], at[1])
			if r.Error != want {
				t.Errorf("got %q, want %q", r.Error, want)
			}
		}},
		{"a point outside the image is refused", func(t *testing.T, e *robotEnv, st *episodeState, blocks, bowls []string) {
			r := callTool(t, e, agents.ToolPickAndPlace, pickAt(blocks[0], "middle", &[2]int{1200, 5}, nil))
			if want := "pick_at [1200, 5] is outside the image"; !strings.Contains(r.Error, want) {
				t.Errorf("got %q, want %q", r.Error, want)
			}
		}},
	} {
		t.Run(tc.why, func(t *testing.T) {
			e, st := newTestEnv(t, "pick_place", "none", 40)
			blocks, bowls := classOf(st, scenes.ClassBlock), classOf(st, scenes.ClassBowl)
			if len(blocks) < 2 || len(bowls) < 2 {
				t.Fatalf("episode 0 has %d blocks and %d bowls; the cases need two of each", len(blocks), len(bowls))
			}
			tc.run(t, e, st, blocks, bowls)
		})
	}
}

// Under partial observability the robot cannot grasp what it does not
// observe by pointing where it is: its image does not show it there.
func TestPickAtHiddenObject(t *testing.T) {
	t.Parallel()
	e, st := newTestEnv(t, "pick_place", "partial_observability", 40)
	opt := e.cameraOptions()
	vis, err := camera.Visibility(st.world.Objects(), opt)
	if err != nil {
		t.Fatal(err)
	}
	all := opt
	all.Partial = false
	seen, err := camera.Visibility(st.world.Objects(), all)
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range st.world.Objects() {
		if !vis[i].Hidden || o.Class != scenes.ClassBlock {
			continue
		}
		b := seen[i].Box
		at := llm.BoxCentre(llm.NormBox([4]int{b.Min.X, b.Min.Y, b.Max.X, b.Max.Y}, opt.Width, opt.Height))
		r := callTool(t, e, agents.ToolPickAndPlace, pickAt(o.ID, "middle", &at, nil))
		if want := fmt.Sprintf("pick_and_place: nothing to grasp at [%d, %d]", at[0], at[1]); r.Error != want {
			t.Errorf("pointing at %s, hidden from robot 1: %q, want %q", o.ID, r.Error, want)
		}
		return
	}
	t.Fatal("no block hidden from robot 1 in the episode")
}
