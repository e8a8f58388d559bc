package cp

import (
	"testing"
)

func TestBBTree_GetMasterTree(t *testing.T) {
	bbTree := &BBTree{}
	node := bbTree.NodeFromPool()

	if node.parent == nil {
		t.Fatal()
	}

	count := 1

	for {
		if node.parent != nil {
			node = node.parent
			count++
		} else {
			break
		}
	}

	for i := 1; i < count*2; i++ {
		// this value of node is never used (SA4006)go-staticcheck
		node = bbTree.NodeFromPool()
	}

}

// A batch of shapes inserted as one subtree is found by every query that
// finds them inserted one by one, and no other: only the tree's shape, and
// so the order of what a query visits, may differ.
func TestBBTreeInsertBatchFindsWhatInsertFinds(t *testing.T) {
	space := NewSpace()
	body := space.AddBody(NewBody(1, 1))
	var shapes []*Shape
	for i := range 40 {
		x := float64(i%8) * 7
		y := float64(i/8) * 5
		sh := NewSegment(body, Vector{x, y}, Vector{x + 6, y + 3}, 0.5)
		sh.SetHashId(HashValue(i))
		sh.Update(body.transform)
		shapes = append(shapes, sh)
	}
	one := NewBBTree(ShapeGetBB, nil).class.(*BBTree)
	batched := NewBBTree(ShapeGetBB, nil).class.(*BBTree)
	for _, sh := range shapes[:3] {
		one.Insert(sh, sh.hashid)
		batched.Insert(sh, sh.hashid)
	}
	for _, sh := range shapes[3:] {
		one.Insert(sh, sh.hashid)
	}
	batched.InsertBatch(shapes[3:19])
	batched.InsertBatch(shapes[19:20])
	batched.InsertBatch(shapes[20:])
	if one.Count() != batched.Count() {
		t.Fatalf("%d leaves inserted one by one, %d in batches", one.Count(), batched.Count())
	}
	found := func(tree *BBTree, bb BB) map[*Shape]bool {
		out := map[*Shape]bool{}
		tree.Query(nil, bb, func(_ any, sh *Shape, id uint32, _ any) uint32 {
			out[sh] = true
			return id
		}, nil)
		return out
	}
	total := 0
	for i := range 60 {
		x, y := float64(i%10)*6-3, float64(i/10)*5-2
		bb := BB{L: x, B: y, R: x + float64(i%4)*3, T: y + float64(i%3)*2}
		a, b := found(one, bb), found(batched, bb)
		total += len(a)
		if len(a) != len(b) {
			t.Fatalf("query %v: %d shapes one by one, %d batched", bb, len(a), len(b))
		}
		for sh := range a {
			if !b[sh] {
				t.Fatalf("query %v: a shape found one by one is not found batched", bb)
			}
		}
	}
	if total < 60 {
		t.Fatalf("the queries found %d shapes in all: they test too little", total)
	}
}
