package physics

import (
	"errors"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

// table returns a fixed six-object table.
func table() []scenes.Object {
	return []scenes.Object{
		scenes.NewBlock("red block 1", "red", -0.2, -0.3),
		scenes.NewBlock("blue block 1", "blue", 0.0, -0.3),
		scenes.NewBlock("green block 1", "green", 0.2, -0.3),
		scenes.NewBowl("red bowl 1", "red", -0.2, -0.6),
		scenes.NewBowl("blue bowl 1", "blue", 0.0, -0.6),
		scenes.NewBowl("green bowl 1", "green", 0.2, -0.6),
	}
}

func mustWorld(t testing.TB, objs []scenes.Object, cfg Config) *World {
	t.Helper()
	w, err := New(objs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func obj(t testing.TB, w *World, id string) scenes.Object {
	t.Helper()
	o, ok := scenes.Find(w.Objects(), id)
	if !ok {
		t.Fatalf("no %s", id)
	}
	return o
}

func TestPickAndPlaceOutcomes(t *testing.T) {
	for _, tc := range []struct {
		name, pick, place string
		check             func(w *World) bool
	}{
		{"a block lands inside an empty bowl", "red block 1", "blue bowl 1", func(w *World) bool {
			return scenes.Inside(obj(t, w, "red block 1"), obj(t, w, "blue bowl 1"))
		}},
		{"a block stacks on a free block", "red block 1", "green block 1", func(w *World) bool {
			return scenes.OnTop(obj(t, w, "red block 1"), obj(t, w, "green block 1"))
		}},
		{"a block reaches a named place", "blue block 1", "top left corner", func(w *World) bool {
			return scenes.AtPoint(obj(t, w, "blue block 1"), scenes.Places["top left corner"])
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := mustWorld(t, table(), Config{})
			if _, err := w.PickAndPlace(scenes.Robot1, tc.pick, tc.place); err != nil {
				t.Fatal(err)
			}
			if !tc.check(w) {
				t.Errorf("after pick_and_place(%s, %s) the goal does not hold: %+v", tc.pick, tc.place, w.Objects())
			}
		})
	}
}

// A block placed where another block already stands pushes it: the outcome
// comes from the collision, not from a rule.
func TestPlacedBlockPushesNeighbour(t *testing.T) {
	// The middle named place is 3 cm from the blue block's centre, so the
	// red block lands overlapping it.
	objs := table()
	objs[1] = scenes.NewBlock("blue block 1", "blue", 0.0, -0.47)
	w := mustWorld(t, objs, Config{})
	before := obj(t, w, "blue block 1")
	if _, err := w.PickAndPlace(scenes.Robot1, "red block 1", "middle"); err != nil {
		t.Fatal(err)
	}
	after := obj(t, w, "blue block 1")
	if scenes.PlanarDistance(before, after) < 0.002 {
		t.Errorf("blue block did not move: before %v after %v", before.Pose, after.Pose)
	}
	red := obj(t, w, "red block 1")
	if d := scenes.PlanarDistance(red, after); d < scenes.BlockSize*0.95 {
		t.Errorf("blocks still overlap: centres %.3f m apart", d)
	}
}

func TestRefusedActions(t *testing.T) {
	for _, tc := range []struct {
		name, robot, pick, place, want string
	}{
		{"unknown pick", scenes.Robot1, "purple block 1", "red bowl 1", "no object"},
		{"unknown place", scenes.Robot1, "red block 1", "purple bowl 1", "no object or place"},
		{"bowls cannot be picked", scenes.Robot1, "red bowl 1", "middle", "only blocks"},
		{"no such robot", "robot3", "red block 1", "red bowl 1", "no robot"},
		{"no shared workspace on one-robot table", scenes.Robot1, "red block 1", scenes.SharedPlace, "no shared workspace"},
		{"self", scenes.Robot1, "red block 1", "red block 1", "on itself"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := mustWorld(t, table(), Config{})
			before := w.Objects()
			_, err := w.PickAndPlace(tc.robot, tc.pick, tc.place)
			var ae *ActionError
			if !errors.As(err, &ae) || !strings.Contains(ae.Reason, tc.want) {
				t.Fatalf("got %v, want an ActionError containing %q", err, tc.want)
			}
			for i, o := range w.Objects() {
				if o.Pose != before[i].Pose {
					t.Errorf("refused action moved %s", o.ID)
				}
			}
		})
	}
}

func TestUnderAndReach(t *testing.T) {
	w := mustWorld(t, table(), Config{})
	if _, err := w.PickAndPlace(scenes.Robot1, "red block 1", "green block 1"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.PickAndPlace(scenes.Robot1, "green block 1", "red bowl 1"); err == nil || !strings.Contains(err.Error(), "under red block 1") {
		t.Errorf("picking a block from under another: got %v", err)
	}
	// Two robots: robot 1 cannot reach robot 2's workspace.
	w2 := mustWorld(t, table(), Config{TwoRobots: true})
	if _, err := w2.PickAndPlace(scenes.Robot1, "green block 1", "red bowl 1"); err == nil || !strings.Contains(err.Error(), "reach") {
		t.Errorf("out-of-reach pick: got %v", err)
	}
	if _, err := w2.PickAndPlace(scenes.Robot2, "green block 1", scenes.SharedPlace); err != nil {
		t.Fatalf("handover to shared workspace: %v", err)
	}
	if _, err := w2.PickAndPlace(scenes.Robot1, "green block 1", "red bowl 1"); err != nil {
		t.Fatalf("taking from the shared workspace: %v", err)
	}
	if !scenes.Inside(obj(t, w2, "green block 1"), obj(t, w2, "red bowl 1")) {
		t.Error("handed-over block did not land in the bowl")
	}
	// Partial view hides the other robot's workspace.
	w3 := mustWorld(t, table(), Config{TwoRobots: true, PartialView: true})
	for _, o := range w3.Observe(scenes.Robot1) {
		if o.Region == scenes.RegionRobot2 {
			t.Errorf("robot 1 sees %s in robot 2's workspace", o.ID)
		}
	}
}

// A crowded bowl keeps what is dropped into it: four blocks in one bowl all
// end inside the rim, pushed apart by each other.
func TestCrowdedBowl(t *testing.T) {
	objs := []scenes.Object{scenes.NewBowl("red bowl 1", "red", 0, -0.5)}
	for i, c := range []string{"blue", "green", "yellow", "pink"} {
		objs = append(objs, scenes.NewBlock(scenes.ObjectID(c, "block", 1), c, -0.25+0.15*float64(i), -0.25))
	}
	w := mustWorld(t, objs, Config{})
	for _, o := range objs[1:] {
		if _, err := w.PickAndPlace(scenes.Robot1, o.ID, "red bowl 1"); err != nil {
			t.Fatal(err)
		}
	}
	bowl := obj(t, w, "red bowl 1")
	for _, o := range w.Objects()[1:] {
		if !scenes.Inside(o, bowl) {
			t.Errorf("%s ended outside the bowl at %v", o.ID, o.Pose)
		}
	}
}

func TestDeterministic(t *testing.T) {
	run := func() []scenes.Object {
		w := mustWorld(t, table(), Config{PlaceNoise: 0.02, SlipRate: 0.3, NoiseSeed: 7})
		for _, a := range [][2]string{{"red block 1", "blue bowl 1"}, {"blue block 1", "blue bowl 1"}, {"green block 1", "middle"}} {
			if _, err := w.PickAndPlace(scenes.Robot1, a[0], a[1]); err != nil {
				t.Fatal(err)
			}
		}
		return w.Objects()
	}
	a, b := run(), run()
	for i := range a {
		if a[i].Pose != b[i].Pose {
			t.Fatalf("%s: %v then %v", a[i].ID, a[i].Pose, b[i].Pose)
		}
	}
}

// Noise moves placements: over many placements some land off target.
func TestPlacementNoise(t *testing.T) {
	miss := 0
	for seed := range uint64(40) {
		w := mustWorld(t, table(), Config{PlaceNoise: 0.05, NoiseSeed: seed})
		if _, err := w.PickAndPlace(scenes.Robot1, "red block 1", "top left corner"); err != nil {
			t.Fatal(err)
		}
		if !scenes.AtPoint(obj(t, w, "red block 1"), scenes.Places["top left corner"]) {
			miss++
		}
	}
	if miss == 0 || miss == 40 {
		t.Errorf("placement noise of 5 cm missed %d of 40 places within 5 cm; want some but not all", miss)
	}
}

// Worlds built and run on many goroutines at once must be race-free (run
// under -race): upstream cp numbered bodies from an unguarded package
// variable, which the fork in third_party/cp guards.
func TestWorldsBuiltConcurrently(t *testing.T) {
	errs := make(chan string, 16)
	done := make(chan struct{})
	for range 16 {
		go func() {
			defer func() { done <- struct{}{} }()
			w, err := New(table(), Config{})
			if err != nil {
				errs <- err.Error()
				return
			}
			if _, err := w.PickAndPlace(scenes.Robot1, "red block 1", "blue bowl 1"); err != nil {
				errs <- err.Error()
			}
		}()
	}
	for range 16 {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// A table built asleep steps to the very bits of one built awake and put
// to sleep body by body, the way every world was built before
// cp.Space.AddShapeAsleep: on tables of every size, with bowls, a stack
// and a crowd, through moves that wake, push and put to sleep again.
func TestBuiltAsleepStepsAsBuiltAwake(t *testing.T) {
	stacked := table()
	top := scenes.NewBlock("yellow block 1", "yellow", stacked[0].Pose.X(), stacked[0].Pose.Y())
	top.Pose[2] += top.Extent.Z()
	stacked = append(stacked, top)
	for _, tc := range []struct {
		name  string
		objs  []scenes.Object
		moves [][2]string
	}{
		{"six objects", table(), [][2]string{{"red block 1", "blue bowl 1"}, {"blue block 1", "blue bowl 1"}, {"green block 1", "blue bowl 1"}}},
		{"a crowd of 48", crowdedTable(48), [][2]string{{"red block 1", "blue bowl 1"}, {"red block 1", "green bowl 1"}, {"gray block 7", "blue bowl 1"}}},
		{"a stack", stacked, [][2]string{{"yellow block 1", "blue bowl 1"}, {"red block 1", "green bowl 1"}}},
	} {
		play := func(add addShape) ([]scenes.Object, int) {
			w, err := build(tc.objs, Config{SlipRate: 0.3, PlaceNoise: 0.01, NoiseSeed: 9}, add)
			if err != nil {
				t.Fatal(err)
			}
			w.sleepBut(make([]bool, len(w.items)))
			w.settle()
			for _, m := range tc.moves {
				if _, err := w.PickAndPlace(scenes.Robot1, m[0], m[1]); err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
			}
			return w.Objects(), w.Steps()
		}
		asleep, asleepSteps := play(addAsleep)
		awake, awakeSteps := play(addAwake)
		if asleepSteps != awakeSteps || asleepSteps == 0 {
			t.Errorf("%s: %d steps built asleep, %d built awake (want the same, and some)", tc.name, asleepSteps, awakeSteps)
		}
		for i := range awake {
			if asleep[i].Pose != awake[i].Pose {
				t.Errorf("%s: %s ends at %v built asleep, %v built awake", tc.name, awake[i].ID, asleep[i].Pose, awake[i].Pose)
			}
		}
	}
}

// A block built above another block's footprint starts stacked on it:
// the world then refuses to pick the one below, as it does for a stack
// that a move made. Each row says what may and may not start a stack.
func TestBuiltStacks(t *testing.T) {
	lifted := func(o scenes.Object) scenes.Object {
		o.Pose[2] += scenes.BlockSize // resting on the top of a block below
		return o
	}
	tests := []struct {
		name    string
		objs    []scenes.Object
		stacked bool // "red block 1" starts on "blue block 1"
	}{
		{"a block over a block's centre is stacked",
			[]scenes.Object{lifted(scenes.NewBlock("red block 1", "red", 0, -0.3)), scenes.NewBlock("blue block 1", "blue", 0, -0.3)}, true},
		{"the stack is found whichever block comes first",
			[]scenes.Object{scenes.NewBlock("blue block 1", "blue", 0, -0.3), lifted(scenes.NewBlock("red block 1", "red", 0.01, -0.31))}, true},
		{"a lifted block beside the other's footprint is not stacked",
			[]scenes.Object{lifted(scenes.NewBlock("red block 1", "red", 0.1, -0.3)), scenes.NewBlock("blue block 1", "blue", 0, -0.3)}, false},
		{"two blocks on the table are not stacked",
			[]scenes.Object{scenes.NewBlock("red block 1", "red", 0.1, -0.3), scenes.NewBlock("blue block 1", "blue", 0, -0.3)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs := append(tt.objs, scenes.NewBowl("green bowl 1", "green", 0.2, -0.6))
			w := mustWorld(t, objs, Config{})
			_, err := w.PickAndPlace(scenes.Robot1, "blue block 1", "green bowl 1")
			if under := err != nil && strings.Contains(err.Error(), "under red block 1"); under != tt.stacked {
				t.Errorf("picking the block below: got %v, want it refused as under red block 1: %v", err, tt.stacked)
			}
		})
	}
}
