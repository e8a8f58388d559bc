package cp

import "testing"

// TestHashSetGrowThroughGrowsAsInsertion checks that growThrough leaves a
// set, empty or not, of the size and bin order that growing it on each
// count in turn leaves.
func TestHashSetGrowThroughGrowsAsInsertion(t *testing.T) {
	eq := func(a, b int) bool { return a == b }
	for _, entries := range []int{0, 1, 4, 12, 30} {
		for _, extra := range []int{0, 1, 3, 16, 200} {
			fill := func() *HashSet[int, int] {
				set := NewHashSet(eq)
				for i := range entries {
					set.Insert(HashValue(i*7919), i, func(v int) int { return v })
				}
				return set
			}
			want, got := fill(), fill()
			for n := want.entries + 1; n <= want.entries+uint(extra); n++ {
				if n >= want.size {
					want.resize()
				}
			}
			got.growThrough(got.entries+1, got.entries+uint(extra))
			if got.size != want.size {
				t.Fatalf("%d entries, %d more: size %d, want %d", entries, extra, got.size, want.size)
			}
			var gotOrder, wantOrder []int
			got.Each(func(v int) { gotOrder = append(gotOrder, v) })
			want.Each(func(v int) { wantOrder = append(wantOrder, v) })
			if len(gotOrder) != len(wantOrder) {
				t.Fatalf("%d entries, %d more: %d entries, want %d", entries, extra, len(gotOrder), len(wantOrder))
			}
			for i := range gotOrder {
				if gotOrder[i] != wantOrder[i] {
					t.Fatalf("%d entries, %d more: order %v, want %v", entries, extra, gotOrder, wantOrder)
				}
			}
		}
	}
}
