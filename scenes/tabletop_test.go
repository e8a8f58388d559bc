package scenes_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

func newRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0)) }

func TestGenerateTabletopIsFixedBySeed(t *testing.T) {
	for _, seed := range []uint64{0, 1, 42, 1 << 40} {
		cfg := scenes.TabletopConfig{Blocks: 4, Bowls: 2}
		a, err := scenes.GenerateTabletop(newRNG(seed), cfg)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		b, err := scenes.GenerateTabletop(newRNG(seed), cfg)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("seed %d gave two different tables:\n%v\n%v", seed, a, b)
		}
	}
	a, _ := scenes.GenerateTabletop(newRNG(1), scenes.TabletopConfig{})
	b, _ := scenes.GenerateTabletop(newRNG(2), scenes.TabletopConfig{})
	if reflect.DeepEqual(a, b) {
		t.Errorf("seeds 1 and 2 gave the same table; the seed is not used")
	}
}

func TestGenerateTabletop(t *testing.T) {
	tests := []struct {
		name               string
		cfg                scenes.TabletopConfig
		wantBlocks, wantBw int
		minSep             float64
	}{
		{"zero config means three blocks and three bowls", scenes.TabletopConfig{}, 3, 3, scenes.MinSpacing},
		{"explicit counts", scenes.TabletopConfig{Blocks: 4, Bowls: 2}, 4, 2, scenes.MinSpacing},
		{"blocks only", scenes.TabletopConfig{Blocks: 2}, 2, 0, scenes.MinSpacing},
		{"bowls only", scenes.TabletopConfig{Bowls: 1}, 0, 1, scenes.MinSpacing},
		{"a wider spacing is kept", scenes.TabletopConfig{Blocks: 2, Bowls: 2, MinSpacing: 0.2}, 2, 2, 0.2},
		{"two robots", scenes.TabletopConfig{Blocks: 3, Bowls: 3, TwoRobots: true}, 3, 3, scenes.MinSpacing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for seed := range uint64(20) {
				objs, err := scenes.GenerateTabletop(newRNG(seed), tt.cfg)
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				checkTable(t, seed, objs, tt.wantBlocks, tt.wantBw, tt.minSep, tt.cfg.TwoRobots)
			}
		})
	}
}

// checkTable checks the invariants of a generated table.
func checkTable(t *testing.T, seed uint64, objs []scenes.Object, wantBlocks, wantBowls int, minSep float64, twoRobots bool) {
	t.Helper()
	count := map[string]int{}
	colors := map[string]map[string]bool{}
	ids := map[string]bool{}
	for _, o := range objs {
		count[o.Class]++
		if colors[o.Class] == nil {
			colors[o.Class] = map[string]bool{}
		}
		if colors[o.Class][o.Color()] {
			t.Errorf("seed %d: two %ss are %s", seed, o.Class, o.Color())
		}
		colors[o.Class][o.Color()] = true
		if want := scenes.ObjectID(o.Color(), o.Class, 1); o.ID != want {
			t.Errorf("seed %d: id %q, want %q", seed, o.ID, want)
		}
		if ids[o.ID] {
			t.Errorf("seed %d: duplicate id %q", seed, o.ID)
		}
		ids[o.ID] = true
		x, y := o.Pose.X(), o.Pose.Y()
		if x < -0.3 || x > 0.3 || y < -0.8 || y > -0.2 {
			t.Errorf("seed %d: %s at (%.3f, %.3f) is off the table", seed, o.ID, x, y)
		}
		if want := scenes.RegionAt(twoRobots, x, y); o.Region != want {
			t.Errorf("seed %d: %s at x=%.3f has region %q, want %q", seed, o.ID, x, o.Region, want)
		}
	}
	if count[scenes.ClassBlock] != wantBlocks || count[scenes.ClassBowl] != wantBowls {
		t.Errorf("seed %d: %d blocks and %d bowls, want %d and %d", seed, count[scenes.ClassBlock], count[scenes.ClassBowl], wantBlocks, wantBowls)
	}
	for i := range objs {
		for j := i + 1; j < len(objs); j++ {
			if d := scenes.PlanarDistance(objs[i], objs[j]); d < minSep {
				t.Errorf("seed %d: %s and %s are %.3f m apart, want at least %.2f", seed, objs[i].ID, objs[j].ID, d, minSep)
			}
		}
	}
}

func TestGenerateTabletopErrors(t *testing.T) {
	tests := []struct {
		name   string
		cfg    scenes.TabletopConfig
		want   string
		noRoom bool
	}{
		{"negative blocks", scenes.TabletopConfig{Blocks: -1, Bowls: 3}, "between 0 and 10", false},
		{"negative bowls", scenes.TabletopConfig{Blocks: 3, Bowls: -2}, "got 3 and -2", false},
		{"more blocks than colours", scenes.TabletopConfig{Blocks: 11, Bowls: 1}, "got 11 and 1", false},
		{"more bowls than colours", scenes.TabletopConfig{Bowls: 11}, "between 0 and 10", false},
		{"twenty objects do not fit 15 cm apart", scenes.TabletopConfig{Blocks: 10, Bowls: 10}, "tabletop", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := scenes.GenerateTabletop(newRNG(7), tt.cfg)
			if err == nil {
				t.Fatalf("GenerateTabletop(%+v) = %d objects, want an error", tt.cfg, len(objs))
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
			if got := errors.Is(err, scenes.ErrNoRoom); got != tt.noRoom {
				t.Errorf("errors.Is(%q, ErrNoRoom) = %v, want %v", err, got, tt.noRoom)
			}
		})
	}
}

func TestLayoutOfContinuesNumbering(t *testing.T) {
	existing := []scenes.Object{
		scenes.NewBlock("red block 1", "red", -0.2, -0.3),
		scenes.NewBlock("blue block 3", "blue", 0.2, -0.3),
		scenes.NewBowl("red bowl 2", "red", 0, -0.7),
		scenes.NewBlock("probe", "", 0.2, -0.7), // no number: numbers nothing
	}
	tests := []struct {
		name, class, color, want string
	}{
		{"after red block 1 comes red block 2", scenes.ClassBlock, "red", "red block 2"},
		{"numbering follows the highest number, not the count", scenes.ClassBlock, "blue", "blue block 4"},
		{"bowls are numbered apart from blocks", scenes.ClassBowl, "red", "red bowl 3"},
		{"a new colour starts at 1", scenes.ClassBlock, "green", "green block 1"},
		{"a red bowl does not number red blocks", scenes.ClassBowl, "green", "green bowl 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := scenes.LayoutOf(newRNG(3), 0, false, existing)
			o, err := l.Add(tt.class, tt.color, scenes.Table)
			if err != nil {
				t.Fatalf("Add: %v", err)
			}
			if o.ID != tt.want {
				t.Errorf("new %s %s is %q, want %q", tt.color, tt.class, o.ID, tt.want)
			}
			if got := len(l.Objects()); got != len(existing)+1 {
				t.Errorf("layout holds %d objects, want %d", got, len(existing)+1)
			}
			for _, e := range existing {
				if d := scenes.PlanarDistance(o, e); d < scenes.MinSpacing {
					t.Errorf("new object %.3f m from %s, want at least %.2f", d, e.ID, scenes.MinSpacing)
				}
			}
		})
	}

	// Adding twice keeps counting.
	l := scenes.LayoutOf(newRNG(3), 0, false, existing[:1])
	l.AddAt(scenes.ClassBlock, "red", 0.1, -0.5)
	if o := l.AddAt(scenes.ClassBlock, "red", 0.2, -0.5); o.ID != "red block 3" {
		t.Errorf("second added red block is %q, want red block 3", o.ID)
	}
}

// The tabletop's pairs of a colour and class are numbered apart from any
// other (and their ids made once); every pair is numbered alike, and
// NextID names what AddAt then adds.
func TestLayoutNumbersEveryPair(t *testing.T) {
	existing := []scenes.Object{
		scenes.NewBlock("red block 70", "red", -0.2, -0.3), // past the ids made once
		scenes.NewBlock("light blue mug 2", "light blue", 0.2, -0.3),
		scenes.NewBlock("red block x 5", "red", 0, -0.7),
		scenes.NewBowl("gray bowl 64", "gray", 0.2, -0.7),
	}
	for _, tt := range []struct{ class, color, want string }{
		{scenes.ClassBlock, "red", "red block 71"},
		{"mug", "light blue", "light blue mug 3"},
		{"block x", "red", "red block x 6"},
		{"x", "red block", "red block x 6"}, // the same base: numbered together
		{scenes.ClassBowl, "gray", "gray bowl 65"},
		{scenes.ClassBowl, "silver", "silver bowl 1"},
		{scenes.ClassBlock, "", " block 1"},
	} {
		l := scenes.LayoutOf(newRNG(3), 0, false, existing)
		for k := range 3 {
			next := l.NextID(tt.class, tt.color)
			o := l.AddAt(tt.class, tt.color, 0, -0.5)
			if o.ID != next {
				t.Errorf("NextID(%q, %q) = %q, AddAt gave %q", tt.class, tt.color, next, o.ID)
			}
			if k == 0 && o.ID != tt.want {
				t.Errorf("new %q %q is %q, want %q", tt.color, tt.class, o.ID, tt.want)
			}
		}
	}
	for _, color := range append(slices.Clone(scenes.Colors), "silver", "") {
		for _, class := range []string{scenes.ClassBlock, scenes.ClassBowl, "mug"} {
			for n := -1; n <= 100; n++ {
				if got, want := scenes.ObjectID(color, class, n), fmt.Sprintf("%s %s %d", color, class, n); got != want {
					t.Fatalf("ObjectID(%q, %q, %d) = %q, want %q", color, class, n, got, want)
				}
			}
		}
	}
}

func TestLayoutRegions(t *testing.T) {
	l := scenes.NewLayout(newRNG(11), 0, true)
	tests := []struct {
		name string
		x    float64
		want string
	}{
		{"far left is robot 1's", -0.25, scenes.RegionRobot1},
		{"middle is shared", 0, scenes.RegionShared},
		{"far right is robot 2's", 0.25, scenes.RegionRobot2},
		{"the strip's left border is shared", -0.1, scenes.RegionShared},
		{"just left of the strip is robot 1's", -0.1001, scenes.RegionRobot1},
		{"the strip's right border is shared", 0.1, scenes.RegionShared},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			y := -0.8 + 0.1*float64(i)
			o := l.AddAt(scenes.ClassBlock, "red", tt.x, y)
			if o.Region != tt.want || o.Region != scenes.RegionAt(true, tt.x, y) {
				t.Errorf("block at x=%g has region %q, want %q", tt.x, o.Region, tt.want)
			}
		})
	}

	// Objects placed at random in each strip land in it.
	for _, region := range []string{scenes.RegionRobot1, scenes.RegionShared, scenes.RegionRobot2} {
		l := scenes.NewLayout(newRNG(5), 0.05, true)
		for range 4 {
			o, err := l.Add(scenes.ClassBlock, "red", scenes.RegionRect(region))
			if err != nil {
				t.Fatalf("adding to %s: %v", region, err)
			}
			if o.Region != region || !scenes.RegionRect(region).Contains(o.Pose.X(), o.Pose.Y()) {
				t.Errorf("block added to %s lies at (%.3f, %.3f) in region %q", region, o.Pose.X(), o.Pose.Y(), o.Region)
			}
		}
	}

	// On a one-robot table everything is the table.
	one := scenes.NewLayout(newRNG(5), 0, false)
	if o := one.AddAt(scenes.ClassBowl, "blue", -0.25, -0.5); o.Region != scenes.RegionTable {
		t.Errorf("one-robot table region = %q, want %q", o.Region, scenes.RegionTable)
	}
}

func TestLayoutPlaceKeepsIdentity(t *testing.T) {
	l := scenes.NewLayout(newRNG(9), 0, true)
	orig := scenes.NewBlock("red block 7", "red", 0, 0)
	o, err := l.Place(orig, scenes.RegionRect(scenes.RegionRobot2), nil)
	if err != nil {
		t.Fatal(err)
	}
	if o.ID != orig.ID || o.Color() != "red" || o.Pose.Z() != orig.Pose.Z() {
		t.Errorf("Place changed the object: %+v", o)
	}
	if o.Region != scenes.RegionRobot2 {
		t.Errorf("placed in robot 2's strip but region is %q", o.Region)
	}
	o.Attributes[scenes.AttrColor] = "blue"
	if orig.Color() != "red" {
		t.Errorf("the placed object shares its attributes with the original")
	}
	// A condition no spot satisfies gives ErrNoRoom.
	if _, err := l.Place(orig, scenes.Table, func(x, y float64) bool { return false }); !errors.Is(err, scenes.ErrNoRoom) {
		t.Errorf("Place with an impossible condition: %v, want ErrNoRoom", err)
	}
}

func TestPickColors(t *testing.T) {
	tests := []struct {
		name    string
		n       int
		exclude []string
		want    int
	}{
		{"three of ten", 3, nil, 3},
		{"all ten", 10, nil, 10},
		{"more than there are is capped", 12, nil, 10},
		{"exclusions are never drawn", 9, []string{"red", "blue"}, 8},
		{"none", 0, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := scenes.PickColors(newRNG(1), tt.n, tt.exclude)
			if len(got) != tt.want {
				t.Fatalf("PickColors(%d, %v) = %v, want %d colours", tt.n, tt.exclude, got, tt.want)
			}
			seen := map[string]bool{}
			for _, c := range got {
				if seen[c] {
					t.Errorf("colour %s drawn twice", c)
				}
				seen[c] = true
				for _, e := range tt.exclude {
					if c == e {
						t.Errorf("excluded colour %s drawn", c)
					}
				}
			}
		})
	}
	if len(scenes.Colors) != 10 || scenes.Colors[0] != "blue" {
		t.Errorf("PickColors changed scenes.Colors: %v", scenes.Colors)
	}
}
