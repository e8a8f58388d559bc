package dyref

import (
	"hash/fnv"
	"math"
	"testing"
)

func TestStructureIsADistribution(t *testing.T) {
	t.Parallel()
	for _, tr := range trials {
		f := factorsOf(t, tr)
		sum := 0.0
		for i, v := range f.Structure {
			if v < 0 || v > 1 {
				t.Errorf("%s: bucket %d is %v, outside [0, 1]", tr.name, i, v)
			}
			sum += v
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("%s: structure sums to %v, want 1", tr.name, sum)
		}
	}
	if (&Graph{}).Factors() != (Factors{}) {
		t.Error("an empty graph has factors")
	}
}

func TestStructureIgnoresInstanceNumbers(t *testing.T) {
	t.Parallel()
	graph := func(obj, rec string) *Graph {
		return &Graph{
			Nodes: []Node{{NodeGoal, "pick_and_place: egg → fridge"}, {NodeSubGoal, "find egg"}, {NodeObject, obj}, {NodeReceptacle, rec}, {NodeAction, "go to " + rec + " ×2"}},
			Edges: []Edge{{0, 1, EdgeDependency}, {1, 2, EdgeDependency}, {2, 3, EdgeSpatial}, {4, 3, EdgeDependency}, {4, 3, EdgeDependency}},
		}
	}
	a, b := graph("egg", "cabinet 1").Factors(), graph("egg", "cabinet 7").Factors()
	if a != b {
		t.Errorf("cabinet 1 and cabinet 7 give different factors:\n%v\n%v", a, b)
	}
	if c := graph("egg", "drawer 1").Factors(); c.Structure == a.Structure {
		t.Error("a drawer and a cabinet give the same structure; the kind should count")
	}
}

func TestLongestDependency(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		why   string
		edges []Edge
		want  float64
	}{
		{"a chain of three", []Edge{{0, 1, EdgeDependency}, {1, 2, EdgeDependency}, {2, 3, EdgeDependency}}, 3},
		{"other kinds of edge do not count", []Edge{{0, 1, EdgeDependency}, {1, 2, EdgeSpatial}, {2, 3, EdgeInteraction}}, 1},
		{"the longer of two branches", []Edge{{0, 1, EdgeDependency}, {0, 2, EdgeDependency}, {2, 3, EdgeDependency}}, 2},
		{"a cycle ends the search instead of looping", []Edge{{0, 1, EdgeDependency}, {1, 2, EdgeDependency}, {2, 0, EdgeDependency}}, 2},
		{"edges to nodes that do not exist are skipped", []Edge{{0, 9, EdgeDependency}, {-1, 0, EdgeDependency}}, 0},
	} {
		g := &Graph{Nodes: make([]Node, 4), Edges: c.edges}
		if got := g.Factors().Dependency; got != c.want {
			t.Errorf("%s: %v, want %v", c.why, got, c.want)
		}
	}
}

func TestInteractionAffordances(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		place string
		want  float64
		why   string
	}{
		{"countertop", 1, "nothing to open"},
		{"fridge", 2, "must be opened"},
		{"desklamp", 2, "must be switched on"},
		{"nosuchkind", 1, "unknown to the table: no affordance"},
	} {
		g := &Graph{Nodes: []Node{{NodeObject, "egg"}, {NodePlace, c.place}},
			Edges: []Edge{{0, 1, EdgeInteraction}, {0, 1, EdgeInteraction}}}
		if got := g.Factors().Interaction; got != c.want {
			t.Errorf("%s (%s): %v, want %v (a repeated edge counts once)", c.place, c.why, got, c.want)
		}
	}
}

func TestVector(t *testing.T) {
	t.Parallel()
	f := factorsOf(t, byName("pick_heat_then_place"))
	v := f.Vector()
	if len(v) != 3+StructureDims || len(VectorNames()) != len(v) {
		t.Fatalf("vector of %d, names %d, want %d", len(v), len(VectorNames()), 3+StructureDims)
	}
	if v[0] != f.Dependency || v[1] != f.Interaction || v[2] != f.Spatial || v[3] != f.Structure[0] || v[len(v)-1] != f.Structure[StructureDims-1] {
		t.Errorf("vector %v is not dependency, interaction, spatial, structure of %+v", v, f)
	}
	if VectorNames()[3] != "structure_00" {
		t.Errorf("names %v", VectorNames())
	}
}

func TestFNVIsHashFNV(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "a", "object\x00egg", "go to fridge 1 ×2"} {
		h := fnv.New64a()
		h.Write([]byte(s))
		if got, want := fnvString(fnvOffset, s), h.Sum64(); got != want {
			t.Errorf("%q: %x, hash/fnv says %x", s, got, want)
		}
	}
	h := fnv.New64a()
	h.Write([]byte{0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01})
	if got, want := fnvUint64(fnvOffset, 0x0123456789abcdef), h.Sum64(); got != want {
		t.Errorf("uint64: %x, hash/fnv says %x", got, want)
	}
}
