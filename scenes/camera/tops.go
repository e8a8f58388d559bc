package camera

import "math"

// Which later silhouettes may cover an item.
//
// visiblePieces tested the bounding box of every item drawn after an item
// against it, every pair of a crowded table's objects, though seen from
// the front of the table the items drawn later, nearer the eye, are
// mostly lower in the image: once no silhouette from some item on reaches
// above an item's bottom edge, none can overlap it, and the search stops.

// findTops fills sc.tops, the suffix minima of the silhouettes' top edges
// in painter's order; a silhouette of fewer than three points, which
// covers nothing, counts as none.
func (sc *scene) findTops() {
	n := len(sc.items)
	sc.tops = append(sc.tops[:0], make([]float64, n)...)
	top := math.Inf(1)
	for j := n - 1; j >= 0; j-- {
		if it := &sc.items[j]; len(it.sil) >= 3 {
			top = min(top, it.sb.minY)
		}
		sc.tops[j] = top
	}
}
