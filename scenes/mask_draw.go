package scenes

import (
	"math/bits"
	"math/rand/v2"
)

// uncovered draws points uniformly from the part of a rectangle that a
// mask leaves free. It picks a free pixel among those meeting the
// rectangle, each with the same chance, and a point uniformly within that
// pixel; a point that falls outside the rectangle (a pixel on its border)
// is refused, which keeps the draw uniform over the free part of the
// rectangle. On a crowded table nearly every pixel is covered, and a
// sampler drawing from the whole table spends hundreds of points an object
// on them; this one spends none.
//
// The mask must not change while an uncovered draws from it.
type uncovered struct {
	bits []uint64 // the mask's, or nil for a mask that covers nothing
	area Rect
	// The pixels meeting area: rows rlo to rhi, and in each row the
	// columns set in cols.
	rlo, rhi int
	cols     [maskWords]uint64
	// cum[k+1] is the free pixels of rows rlo to rlo+k among them, so
	// that a draw finds its row by bisection: on a crowded table most
	// draws are refused, and a draw costs what finding its row costs.
	cum   [maskSide + 1]int
	total int
}

// reset readies draws from m over area, which must lie within the table:
// points off the table are never covered, and an uncovered draws none.
func (u *uncovered) reset(m *Mask, area Rect) {
	u.bits, u.area, u.cols = m.bits, area, [maskWords]uint64{}
	clo := pixelIndex((area.MinX - TableMinX) / maskPixelX)
	chi := pixelIndex((area.MaxX - TableMinX) / maskPixelX)
	u.rlo = pixelIndex((area.MinY - TableMinY) / maskPixelY)
	u.rhi = pixelIndex((area.MaxY - TableMinY) / maskPixelY)
	for w := range u.cols {
		lo, hi := max(clo, w*64), min(chi, w*64+63)
		if lo <= hi {
			u.cols[w] = (^uint64(0) >> (63 - (hi - lo))) << (lo % 64)
		}
	}
	// The running count, the columns and the rows are kept in locals:
	// read back from u, each row waited on the store of the row before,
	// and counting the rows is most of what a call of AddSpacedOff costs.
	total, cum := 0, u.cum[1:u.rhi-u.rlo+2]
	c0, c1 := u.cols[0], u.cols[1]
	if u.bits == nil {
		for k := range cum {
			total += bits.OnesCount64(c0) + bits.OnesCount64(c1)
			cum[k] = total
		}
		u.total = total
		return
	}
	// Two words a row (maskWords), written out.
	rows := u.bits[u.rlo*maskWords : (u.rhi+1)*maskWords]
	for k := range cum {
		row := rows[k*maskWords : k*maskWords+2 : k*maskWords+2]
		total += bits.OnesCount64(c0&^row[0]) + bits.OnesCount64(c1&^row[1])
		cum[k] = total
	}
	u.total = total
}

// reset reads two words a row; a mask of another width fails to build.
var _ = [1]int{}[maskWords-2]

// pixelIndex is the pixel along an axis that holds a point at f pixels
// from the table's edge, clamped to the table.
func pixelIndex(f float64) int {
	return min(max(floorIndex(f), 0), maskSide-1)
}

// draw returns a point of a free pixel, and false when it falls outside
// the area (or no pixel is free), which the caller counts as a draw
// refused.
func (u *uncovered) draw(rng *rand.Rand) (x, y float64, ok bool) {
	if u.total == 0 {
		return 0, 0, false
	}
	k := rng.IntN(u.total)
	// The row holding the k-th free pixel: the last whose count before
	// it is at most k.
	lo, hi := 0, u.rhi-u.rlo
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if u.cum[mid] <= k {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	k -= u.cum[lo]
	j := u.rlo + lo
	i := 0
	for w := range maskWords {
		free := u.cols[w]
		if u.bits != nil {
			free &^= u.bits[j*maskWords+w]
		}
		if n := bits.OnesCount64(free); k >= n {
			k -= n
			continue
		}
		for ; k > 0; k-- {
			free &= free - 1
		}
		i = w*64 + bits.TrailingZeros64(free)
		break
	}
	x = pixelX(float64(i) + rng.Float64())
	y = pixelY(float64(j) + rng.Float64())
	return x, y, u.area.Contains(x, y)
}
