package camera

import (
	"cmp"
	"slices"
)

// depthKey is what puts an item in painter's order: its depth, and its
// place among the items as laid out.
type depthKey struct {
	depth float64
	i     int
}

// paintersOrder sorts the items far to near; a stacked or nested object,
// higher, is nearer. Items laid out as far as one another stay in input
// order, as a stable sort by depth keeps them. The keys are sorted, not
// the items: moving the items, large and holding pointers, about a sort
// with write barriers, was a tenth of a crowded table's visibility, and
// more while the collector ran.
func (sc *scene) paintersOrder() {
	keys := sc.keys[:0]
	for i := range sc.items {
		keys = append(keys, depthKey{sc.items[i].depth, i})
	}
	// Distinct keys: a sort by them is the stable sort by depth.
	slices.SortFunc(keys, func(a, b depthKey) int {
		if c := cmp.Compare(b.depth, a.depth); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	sorted := slices.Grow(sc.spare[:0], len(sc.items))
	for _, k := range keys {
		sorted = append(sorted, sc.items[k.i])
	}
	sc.items, sc.spare, sc.keys = sorted, sc.items[:0], keys
}
