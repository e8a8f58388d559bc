package tasks

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

func TestFamiliesGenerateSolvableEpisodes(t *testing.T) {
	for _, f := range All() {
		for seed := range uint64(50) {
			ep, err := f.Generate(rand.New(rand.NewPCG(seed, 1)))
			if err != nil {
				t.Fatalf("%s seed %d: %v", f.Name(), seed, err)
			}
			if strings.Contains(ep.Instruction(), "{") {
				t.Errorf("%s: unfilled slot in %q", f.Name(), ep.Instruction())
			}
			if ep.Label != LabelNone || ep.TwoRobots != f.TwoRobots() {
				t.Errorf("%s: label %q, two robots %v", f.Name(), ep.Label, ep.TwoRobots)
			}
			for _, id := range ep.Referred() {
				if _, ok := ep.Object(id); !ok {
					t.Errorf("%s: refers to missing %s", f.Name(), id)
				}
			}
			if ok, _ := ep.Goal().Holds(ep.Objects); ok {
				t.Errorf("%s seed %d: the goal holds before anything moves", f.Name(), seed)
			}
		}
	}
}

// In a spatial episode the named block is the only block in the named
// direction from the reference.
func TestSpatialTargetIsUnique(t *testing.T) {
	f, _ := Lookup("spatial")
	for seed := range uint64(100) {
		ep, err := f.Generate(rand.New(rand.NewPCG(seed, 2)))
		if err != nil {
			t.Fatal(err)
		}
		target, _ := ep.Object(ep.Moves[0].Pick.ID)
		var found int
		for _, ref := range ep.Objects {
			for _, rel := range Directions {
				if SpatialPhrase(rel, ref) != ep.Moves[0].Pick.Phrase {
					continue
				}
				for _, o := range ep.Objects {
					if o.Class == scenes.ClassBlock && o.ID != ref.ID && scenes.Direction(o, ref) == rel {
						found++
						if o.ID != target.ID {
							t.Errorf("seed %d: %s also lies %s %s", seed, o.ID, rel, ref.ID)
						}
					}
				}
			}
		}
		if found != 1 {
			t.Errorf("seed %d: %d blocks match %q", seed, found, ep.Moves[0].Pick.Phrase)
		}
	}
}

func TestGoalHolds(t *testing.T) {
	block := scenes.NewBlock("red block 1", "red", 0, -0.5)
	bowl := scenes.NewBowl("blue bowl 1", "blue", 0.01, -0.5)
	far := scenes.NewBowl("green bowl 1", "green", 0.2, -0.5)
	under := scenes.NewBlock("green block 1", "green", 0, -0.5)
	stacked := block
	stacked.Pose[2] = 0.06
	for _, tc := range []struct {
		why  string
		cond Cond
		objs []scenes.Object
		want bool
	}{
		{"block within the rim is inside", Cond{"red block 1", "blue bowl 1"}, []scenes.Object{block, bowl}, true},
		{"a bowl 20 cm away does not hold it", Cond{"red block 1", "green bowl 1"}, []scenes.Object{block, far}, false},
		{"a raised block over another is on top", Cond{"red block 1", "green block 1"}, []scenes.Object{stacked, under}, true},
		{"level with it is not on top", Cond{"red block 1", "green block 1"}, []scenes.Object{block, under}, false},
		{"within 5 cm of a place is at it", Cond{"red block 1", "middle"}, []scenes.Object{block}, true},
		{"a missing object fails", Cond{"red block 1", "blue bowl 1"}, []scenes.Object{bowl}, false},
	} {
		if got, why := (Goal{Conds: []Cond{tc.cond}}).Holds(tc.objs); got != tc.want {
			t.Errorf("%s: got %v (%s)", tc.why, got, why)
		}
	}
}

// The reference solution of a two-robot episode: robot 2 brings a block
// from its workspace; a destination in robot 2's workspace is robot 2's
// to reach, after robot 1 has put the block in the shared workspace.
func TestPlanHandsOverThroughTheSharedWorkspace(t *testing.T) {
	obj := func(id, class, region string) scenes.Object {
		return scenes.Object{ID: id, Class: class, Region: region}
	}
	for _, tc := range []struct {
		why          string
		pick, place  string // regions
		two, partial bool
		want         []string
	}{
		{"one robot: one move", scenes.RegionTable, scenes.RegionTable, false, false,
			[]string{"robot1 pick_and_place red block 1 -> blue bowl 1"}},
		{"the block out of view: robot 2 brings it", scenes.RegionRobot2, scenes.RegionRobot1, true, true,
			[]string{"robot1 ask_robot red block 1 -> shared workspace", "robot2 pick_and_place red block 1 -> shared workspace", "robot1 pick_and_place red block 1 -> blue bowl 1"}},
		{"the destination out of view: robot 2 places it", scenes.RegionRobot1, scenes.RegionRobot2, true, true,
			[]string{"robot1 pick_and_place red block 1 -> shared workspace", "robot1 ask_robot red block 1 -> blue bowl 1", "robot2 pick_and_place red block 1 -> blue bowl 1"}},
	} {
		t.Run(tc.why, func(t *testing.T) {
			ep := &Episode{Label: LabelNone, TwoRobots: tc.two, PartialView: tc.partial,
				Moves:   []Move{{Pick: Ref{ID: "red block 1"}, Place: Ref{ID: "blue bowl 1"}}},
				Objects: []scenes.Object{obj("red block 1", scenes.ClassBlock, tc.pick), obj("blue bowl 1", scenes.ClassBowl, tc.place)}}
			var got []string
			for _, s := range ep.Plan() {
				got = append(got, s.Robot+" "+s.Action+" "+s.Pick+" -> "+s.Place)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("plan:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
