package scenes

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// relationsOf is the plain statement of the relations from a to b, in the
// terms of the exported predicates, which appendRelations computes on
// objects read once.
func relationsOf(a, b Object) []string {
	switch {
	case Inside(a, b):
		return []string{RelInsideOf}
	case Inside(b, a):
		return nil
	case OnTop(a, b):
		return []string{RelOnTopOf}
	case OnTop(b, a):
		return nil
	}
	rels := []string{Direction(a, b)}
	if PlanarDistance(a, b) < NearDistance {
		rels = append(rels, RelNear)
	}
	return rels
}

// BuildGraph's edges are relationsOf over every ordered pair, on tables
// dense enough for every relation: blocks in bowls, stacks, near pairs,
// ties of direction.
func TestBuildGraphEdgesAreRelationsOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		var objs []Object
		for i := range 2 + rng.IntN(20) {
			x, y := -0.3+0.6*rng.Float64(), -0.8+0.6*rng.Float64()
			if rng.IntN(4) == 0 && len(objs) > 0 { // on or at another
				o := objs[rng.IntN(len(objs))]
				x, y = o.Pose.X()+0.01*rng.NormFloat64(), o.Pose.Y()
			}
			var o Object
			if rng.IntN(3) == 0 {
				o = NewBowl(ObjectID("red", ClassBowl, i), "red", x, y)
			} else {
				o = NewBlock(ObjectID("red", ClassBlock, i), "red", x, y)
				o.Pose[2] += BlockSize * float64(rng.IntN(2))
			}
			objs = append(objs, o)
		}
		var want []Edge
		for _, a := range objs {
			for _, b := range objs {
				if a.ID == b.ID {
					continue
				}
				for _, r := range relationsOf(a, b) {
					want = append(want, Edge{Source: a.ID, Target: b.ID, Relation: r})
				}
			}
		}
		if got := BuildGraph(objs).Edges; !slices.Equal(got, want) {
			t.Fatalf("trial %d: edges differ from relationsOf:\ngot  %v\nwant %v", trial, got, want)
		}
	}
}
