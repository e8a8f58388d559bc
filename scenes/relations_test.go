package scenes_test

import (
	"slices"
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

// stacked returns a block of the given colour resting on b.
func stacked(id, color string, b scenes.Object) scenes.Object {
	o := scenes.NewBlock(id, color, b.Pose.X(), b.Pose.Y())
	o.Pose[2] = b.Pose.Z() + scenes.BlockSize
	return o
}

func TestDirection(t *testing.T) {
	origin := scenes.NewBowl("blue bowl 1", "blue", 0, -0.5)
	tests := []struct {
		name string
		x, y float64
		want string
	}{
		{"smaller x is left", -0.2, -0.5, scenes.RelLeftOf},
		{"larger x is right", 0.2, -0.5, scenes.RelRightOf},
		{"larger y is above (away from the robots)", 0, -0.3, scenes.RelAbove},
		{"smaller y is below", 0, -0.7, scenes.RelBelow},
		{"x dominates a diagonal leaning left", -0.2, -0.4, scenes.RelLeftOf},
		{"y dominates a diagonal leaning up", 0.05, -0.3, scenes.RelAbove},
		{"y dominates a diagonal leaning down", -0.05, -0.7, scenes.RelBelow},
		{"an exact diagonal goes to the x axis", 0.1, -0.4, scenes.RelRightOf},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := scenes.NewBlock("red block 1", "red", tt.x, tt.y)
			if got := scenes.Direction(a, origin); got != tt.want {
				t.Errorf("Direction(block at (%g, %g), bowl at (0, -0.5)) = %s, want %s", tt.x, tt.y, got, tt.want)
			}
		})
	}
}

func TestDirectionIsAntisymmetric(t *testing.T) {
	opposite := map[string]string{
		scenes.RelLeftOf: scenes.RelRightOf, scenes.RelRightOf: scenes.RelLeftOf,
		scenes.RelAbove: scenes.RelBelow, scenes.RelBelow: scenes.RelAbove,
	}
	b := scenes.NewBowl("blue bowl 1", "blue", 0, -0.5)
	for _, p := range [][2]float64{{-0.2, -0.5}, {0.2, -0.45}, {0.01, -0.3}, {-0.03, -0.75}, {0.1, -0.4}, {-0.1, -0.6}} {
		a := scenes.NewBlock("red block 1", "red", p[0], p[1])
		ab, ba := scenes.Direction(a, b), scenes.Direction(b, a)
		if opposite[ab] != ba {
			t.Errorf("block at %v: Direction(a, b) = %s but Direction(b, a) = %s", p, ab, ba)
		}
	}
}

func TestInside(t *testing.T) {
	bowl := scenes.NewBowl("blue bowl 1", "blue", 0, -0.5)
	tests := []struct {
		name string
		a, b scenes.Object
		want bool
	}{
		{"block at the bowl's centre", scenes.NewBlock("red block 1", "red", 0, -0.5), bowl, true},
		{"block just within the rim", scenes.NewBlock("red block 1", "red", scenes.BowlInnerRadius-0.001, -0.5), bowl, true},
		{"block just past the rim", scenes.NewBlock("red block 1", "red", scenes.BowlInnerRadius+0.001, -0.5), bowl, false},
		{"block far away", scenes.NewBlock("red block 1", "red", 0.2, -0.3), bowl, false},
		{"a bowl is never inside a bowl", scenes.NewBowl("red bowl 1", "red", 0, -0.5), bowl, false},
		{"nothing is inside a block", scenes.NewBlock("red block 1", "red", 0, -0.5), scenes.NewBlock("green block 1", "green", 0, -0.5), false},
		{"the bowl does not hold a block the other way round", bowl, scenes.NewBlock("red block 1", "red", 0, -0.5), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := scenes.Inside(tt.a, tt.b); got != tt.want {
				t.Errorf("Inside(%s, %s) = %v, want %v", tt.a.ID, tt.b.ID, got, tt.want)
			}
		})
	}
}

func TestOnTop(t *testing.T) {
	base := scenes.NewBlock("green block 1", "green", 0.1, -0.4)
	shifted := func(dx, dy float64) scenes.Object {
		o := stacked("red block 1", "red", base)
		o.Pose[0] += dx
		o.Pose[1] += dy
		return o
	}
	tests := []struct {
		name string
		a, b scenes.Object
		want bool
	}{
		{"block resting squarely on another", stacked("red block 1", "red", base), base, true},
		{"off-centre but over the footprint", shifted(0.015, -0.015), base, true},
		{"overhanging past the footprint", shifted(0.025, 0), base, false},
		{"the lower block is not on top of the upper", base, stacked("red block 1", "red", base), false},
		{"side by side on the table", scenes.NewBlock("red block 1", "red", 0.1, -0.4), base, false},
		{"nothing is on top of a bowl", stacked("red block 1", "red", scenes.NewBowl("blue bowl 1", "blue", 0, -0.5)), scenes.NewBowl("blue bowl 1", "blue", 0, -0.5), false},
		{"an object is not on top of itself", base, base, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := scenes.OnTop(tt.a, tt.b); got != tt.want {
				t.Errorf("OnTop(%s at %v, %s at %v) = %v, want %v", tt.a.ID, tt.a.Pose, tt.b.ID, tt.b.Pose, got, tt.want)
			}
		})
	}
}

// relationsBetween returns the relations of the graph's edges from src to dst.
func relationsBetween(g *scenes.Graph, src, dst string) []string {
	var rels []string
	for _, e := range g.Edges() {
		if e.Source == src && e.Target == dst {
			rels = append(rels, e.Relation)
		}
	}
	return rels
}

func TestBuildGraphEdges(t *testing.T) {
	redBlock := scenes.NewBlock("red block 1", "red", -0.2, -0.5)
	blueBowl := scenes.NewBowl("blue bowl 1", "blue", 0.2, -0.5)
	nearBlock := scenes.NewBlock("green block 1", "green", 0.05, -0.5)
	tests := []struct {
		name     string
		objs     []scenes.Object
		src, dst string
		want     []string // nil: no edge
	}{
		{"block left of a far bowl", []scenes.Object{redBlock, blueBowl}, "red block 1", "blue bowl 1", []string{scenes.RelLeftOf}},
		{"and the bowl right of the block", []scenes.Object{redBlock, blueBowl}, "blue bowl 1", "red block 1", []string{scenes.RelRightOf}},
		{"block above a bowl", []scenes.Object{scenes.NewBlock("red block 1", "red", 0.2, -0.25), blueBowl}, "red block 1", "blue bowl 1", []string{scenes.RelAbove}},
		{"bowl below the block", []scenes.Object{scenes.NewBlock("red block 1", "red", 0.2, -0.25), blueBowl}, "blue bowl 1", "red block 1", []string{scenes.RelBelow}},
		{"15 cm apart is near", []scenes.Object{nearBlock, blueBowl}, "green block 1", "blue bowl 1", []string{scenes.RelLeftOf, scenes.RelNear}},
		{"near goes both ways", []scenes.Object{nearBlock, blueBowl}, "blue bowl 1", "green block 1", []string{scenes.RelRightOf, scenes.RelNear}},
		{"exactly 0.2 m apart is not near", []scenes.Object{scenes.NewBlock("red block 1", "red", 0, -0.5), blueBowl}, "red block 1", "blue bowl 1", []string{scenes.RelLeftOf}},
		{"just under 0.2 m apart is near", []scenes.Object{scenes.NewBlock("red block 1", "red", 0.0001, -0.5), blueBowl}, "red block 1", "blue bowl 1", []string{scenes.RelLeftOf, scenes.RelNear}},
		{"block inside a bowl is inside_of only", []scenes.Object{scenes.NewBlock("red block 1", "red", 0.21, -0.5), blueBowl}, "red block 1", "blue bowl 1", []string{scenes.RelInsideOf}},
		{"no edge from the bowl to the block it holds", []scenes.Object{scenes.NewBlock("red block 1", "red", 0.21, -0.5), blueBowl}, "blue bowl 1", "red block 1", nil},
		{"stacked block is on_top_of only", []scenes.Object{stacked("red block 1", "red", nearBlock), nearBlock}, "red block 1", "green block 1", []string{scenes.RelOnTopOf}},
		{"no edge from the lower block to the upper", []scenes.Object{stacked("red block 1", "red", nearBlock), nearBlock}, "green block 1", "red block 1", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := scenes.BuildGraph(tt.objs)
			if got := relationsBetween(g, tt.src, tt.dst); !slices.Equal(got, tt.want) {
				t.Errorf("edges %s -> %s = %v, want %v (all edges: %v)", tt.src, tt.dst, got, tt.want, g.EdgeList())
			}
		})
	}
}

func TestBuildGraphNodes(t *testing.T) {
	block := scenes.NewBlock("red block 1", "red", -0.2, -0.5)
	block.Region = scenes.RegionRobot1
	bowl := scenes.NewBowl("blue bowl 1", "blue", 0, -0.5)
	bowl.Region = scenes.RegionTable
	objs := []scenes.Object{block, bowl}
	g := scenes.BuildGraph(objs)

	if len(g.Nodes) != 2 || g.Nodes[0].ID != "red block 1" || g.Nodes[1].ID != "blue bowl 1" {
		t.Fatalf("nodes = %v, want red block 1 then blue bowl 1", g.Nodes)
	}
	tests := []struct {
		name      string
		node      int
		key, want string
	}{
		{"type is copied", 0, scenes.AttrType, scenes.ClassBlock},
		{"colour is copied", 0, scenes.AttrColor, "red"},
		{"size is copied", 1, scenes.AttrSize, "medium"},
		{"a two-robot region becomes the workspace attribute", 0, scenes.AttrWorkspace, scenes.RegionRobot1},
		{"the one-robot table region is not a workspace", 1, scenes.AttrWorkspace, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := g.Nodes[tt.node].Attributes[tt.key]
			if got != tt.want || ok != (tt.want != "") {
				t.Errorf("node %s attribute %q = %q (present %v), want %q", g.Nodes[tt.node].ID, tt.key, got, ok, tt.want)
			}
		})
	}

	// The graph owns its attribute maps: editing it leaves the objects alone.
	g.Nodes[0].Attributes[scenes.AttrColor] = "green"
	if block.Color() != "red" {
		t.Errorf("editing the graph changed the object's colour to %q", block.Color())
	}
	// Each ordered pair of objects is visited once: two far objects give
	// exactly one edge each way.
	if g.NumEdges() != 2 {
		t.Errorf("edges = %v, want one each way", g.EdgeList())
	}
}

func TestBuildGraphIsDeterministic(t *testing.T) {
	objs := sixObjects()
	a, b := scenes.BuildGraph(objs), scenes.BuildGraph(objs)
	if !slices.Equal(a.EdgeList(), b.EdgeList()) {
		t.Fatalf("two builds of the same objects differ:\n%v\n%v", a.EdgeList(), b.EdgeList())
	}
	for _, e := range a.Edges() {
		if !slices.Contains(scenes.Relations, e.Relation) {
			t.Errorf("edge %v has a relation not in Relations", e)
		}
		if e.Source == e.Target {
			t.Errorf("edge %v joins a node to itself", e)
		}
	}
}
