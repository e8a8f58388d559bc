package scenes_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

// bigTable is a table of n objects at grid points, half blocks and half
// bowls, colours cycling, so that rates can be measured over many draws.
func bigTable(n int) []scenes.Object {
	l := scenes.NewLayout(rand.New(rand.NewPCG(1, 2)), 0.01, false)
	for i := range n {
		x := scenes.TableMinX + 0.03 + 0.07*float64(i%8)
		y := scenes.TableMinY + 0.03 + 0.07*float64(i/8)
		class := scenes.ClassBlock
		if i%2 == 1 {
			class = scenes.ClassBowl
		}
		l.AddAt(class, scenes.Colors[i%len(scenes.Colors)], x, y)
	}
	return l.Objects()
}

var testNoise = scenes.GraphNoise{Drop: 0.1, Spurious: 0.05, Flip: 0.05, Seed: 42}

func TestGraphNoiseZeroChangesNothing(t *testing.T) {
	g := scenes.BuildGraph(bigTable(12))
	got, aliases := g.WithNoise(scenes.GraphNoise{Seed: 9})
	if !reflect.DeepEqual(got, g) || len(aliases) != 0 {
		t.Errorf("zero noise changed the graph or renamed %v", aliases)
	}
	got.Nodes[0].Attributes[scenes.AttrColor] = "mauve"
	if g.Nodes[0].Attributes[scenes.AttrColor] == "mauve" {
		t.Error("the noisy graph shares attribute maps with the true one")
	}
}

// The same graph and noise read the same way every time; another seed
// reads differently.
func TestGraphNoiseIsDeterministic(t *testing.T) {
	g := scenes.BuildGraph(bigTable(24))
	a, aa := g.WithNoise(testNoise)
	b, ba := g.WithNoise(testNoise)
	if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(aa, ba) {
		t.Fatal("two readings of the same graph differ")
	}
	other := testNoise
	other.Seed++
	if c, _ := g.WithNoise(other); reflect.DeepEqual(a, c) {
		t.Error("another seed reads the same")
	}
}

// A draw depends on what it concerns, not on when it is made: a node's
// misreading survives other nodes leaving the view, and an edge between
// two nodes is kept or dropped whatever else is on the table.
func TestGraphNoiseIsHashedByIdentity(t *testing.T) {
	objs := bigTable(24)
	full, fullAliases := scenes.BuildGraph(objs).WithNoise(testNoise)
	part, partAliases := scenes.BuildGraph(objs[:12]).WithNoise(testNoise)
	trueOf := func(aliases map[string]string, id string) string {
		if t, ok := aliases[id]; ok {
			return t
		}
		return id
	}
	attrs := map[string]map[string]string{}
	for _, n := range full.Nodes {
		attrs[trueOf(fullAliases, n.ID)] = n.Attributes
	}
	for _, n := range part.Nodes {
		if want := attrs[trueOf(partAliases, n.ID)]; !reflect.DeepEqual(n.Attributes, want) {
			t.Errorf("%s reads %v among 12 objects, %v among 24", trueOf(partAliases, n.ID), n.Attributes, want)
		}
	}
	key := func(aliases map[string]string, e scenes.Edge) string {
		return trueOf(aliases, e.Source) + "|" + trueOf(aliases, e.Target) + "|" + e.Relation
	}
	inFull := map[string]bool{}
	for _, e := range full.Edges() {
		inFull[key(fullAliases, e)] = true
	}
	for _, e := range part.Edges() {
		if !inFull[key(partAliases, e)] {
			t.Errorf("edge %v is read among 12 objects but not among 24", e)
		}
	}
}

// The rates show up as given, within what 24 objects' draws allow; the
// noisy graph is well formed, and each renamed node names what it seems.
func TestGraphNoiseRates(t *testing.T) {
	g := scenes.BuildGraph(bigTable(24))
	trueEdges := map[scenes.Edge]bool{}
	for _, e := range g.Edges() {
		trueEdges[e] = true
	}
	var dropped, spurious, flips, attrs, pairs float64
	for seed := range uint64(20) {
		n := testNoise
		n.Seed = seed
		ng, aliases := g.WithNoise(n)
		if err := ng.Validate(); err != nil {
			t.Fatalf("seed %d: noisy graph invalid: %v", seed, err)
		}
		back := func(id string) string {
			if t, ok := aliases[id]; ok {
				return t
			}
			return id
		}
		kept := 0
		for _, e := range ng.Edges() {
			if trueEdges[scenes.Edge{Source: back(e.Source), Target: back(e.Target), Relation: e.Relation}] {
				kept++
			} else {
				spurious++
			}
		}
		dropped += float64(g.NumEdges() - kept)
		for i, nd := range ng.Nodes {
			orig := g.Nodes[i]
			if back(nd.ID) != orig.ID {
				t.Fatalf("seed %d: node %d is %s, an alias of %s, want %s", seed, i, nd.ID, back(nd.ID), orig.ID)
			}
			for k, v := range orig.Attributes {
				attrs++
				if nd.Attributes[k] != v {
					flips++
				}
			}
			if nd.ID != orig.ID {
				if _, taken := g.Node(nd.ID); taken {
					t.Errorf("seed %d: %s renamed to %s, which another object is", seed, orig.ID, nd.ID)
				}
				if want := nd.Attributes[scenes.AttrColor] + " " + nd.Attributes[scenes.AttrType] + " "; !strings.HasPrefix(nd.ID, want) {
					t.Errorf("seed %d: %s reads as %v but is named %s", seed, orig.ID, nd.Attributes, nd.ID)
				}
			} else if nd.Attributes[scenes.AttrColor] != orig.Attributes[scenes.AttrColor] {
				t.Errorf("seed %d: %s reads as %s but keeps its name", seed, orig.ID, nd.Attributes[scenes.AttrColor])
			}
		}
		pairs += float64(len(g.Nodes) * (len(g.Nodes) - 1))
	}
	total := float64(g.NumEdges()) * 20
	for _, r := range []struct {
		name      string
		got, want float64
	}{
		{"drop", dropped / total, testNoise.Drop},
		{"spurious per pair", spurious / pairs, testNoise.Spurious},
		{"flip", flips / attrs, testNoise.Flip},
	} {
		if math.Abs(r.got-r.want) > 0.3*r.want {
			t.Errorf("%s rate %.3f, want %.3f ± 30%%", r.name, r.got, r.want)
		}
	}
}

// Only plausible relations are imagined: nothing inside a block, no bowl
// on top of anything.
func TestGraphNoiseSpuriousRelationsArePlausible(t *testing.T) {
	g := scenes.BuildGraph(bigTable(24))
	types := map[string]string{}
	for _, n := range g.Nodes {
		types[n.ID] = n.Attributes[scenes.AttrType]
	}
	n := scenes.GraphNoise{Spurious: 0.5, Seed: 3}
	ng, _ := g.WithNoise(n)
	if ng.NumEdges() <= g.NumEdges() {
		t.Fatalf("%d edges, true %d: nothing imagined", ng.NumEdges(), g.NumEdges())
	}
	for _, e := range ng.Edges() {
		switch e.Relation {
		case scenes.RelInsideOf:
			if types[e.Target] != scenes.ClassBowl || types[e.Source] == scenes.ClassBowl {
				t.Errorf("imagined %v", e)
			}
		case scenes.RelOnTopOf:
			if types[e.Target] != scenes.ClassBlock || types[e.Source] != scenes.ClassBlock {
				t.Errorf("imagined %v", e)
			}
		}
		if !slices.Contains(scenes.Relations, e.Relation) {
			t.Errorf("unknown relation in %v", e)
		}
	}
}
