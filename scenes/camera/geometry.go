package camera

import (
	"math"
	"slices"
)

// pt is a point in pixels.
type pt struct{ X, Y float64 }

// poly is a convex polygon, counter-clockwise in (x, y) (positive signed
// area).
type poly []pt

// area returns the signed area of p (shoelace formula).
func area(p []pt) float64 {
	var s float64
	for i := range p {
		j := i + 1
		if j == len(p) {
			j = 0
		}
		s += p[i].X*p[j].Y - p[j].X*p[i].Y
	}
	return s / 2
}

func cross(o, a, b pt) float64 { return (a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X) }

// hull returns the convex hull of pts, counter-clockwise, by Andrew's
// monotone chain. It sorts pts in place.
func hull(pts []pt) poly { return hullTo(pts, nil) }

// before orders points by x, then y. Plain comparisons: cmp.Compare's care
// for NaN was a tenth of the visibility's time, and a NaN coordinate has no
// meaningful hull.
func before(a, b pt) bool { return a.X < b.X || a.X == b.X && a.Y < b.Y }

// hullTo is hull appending to dst; the result is capped at its length so
// that later appends to dst leave it alone.
func hullTo(pts, dst []pt) poly {
	if len(pts) <= 12 {
		// A box's eight corners: slices.SortFunc sorts as few points
		// by this same insertion sort, through a call a comparison.
		for i := 1; i < len(pts); i++ {
			for j := i; j > 0 && before(pts[j], pts[j-1]); j-- {
				pts[j], pts[j-1] = pts[j-1], pts[j]
			}
		}
		return chainHull(pts, dst)
	}
	slices.SortFunc(pts, func(a, b pt) int {
		switch {
		case before(a, b):
			return -1
		case before(b, a):
			return 1
		}
		return 0
	})
	return chainHull(pts, dst)
}

// ringsHullTo is hullTo for points that form convex rings in cyclic
// order, as a bowl's two projected circles do: each ring is read in x
// order by walking both ways from its leftmost point, the rings are
// merged, and an insertion pass mends what rounding left out of order,
// so that the points come out exactly as sorting them would put them, in
// linear time. The sorted points are written to scratch.
func ringsHullTo(a, b, scratch, dst []pt) poly {
	scratch = ringOrder(a, scratch[:0])
	scratch = ringOrder(b, scratch)
	n := len(a)
	merged := scratch[len(scratch):len(scratch)]
	x, y := scratch[:n], scratch[n:]
	for len(x) > 0 || len(y) > 0 {
		if len(y) == 0 || len(x) > 0 && !before(y[0], x[0]) {
			merged, x = append(merged, x[0]), x[1:]
		} else {
			merged, y = append(merged, y[0]), y[1:]
		}
	}
	for i := 1; i < len(merged); i++ {
		for j := i; j > 0 && before(merged[j], merged[j-1]); j-- {
			merged[j], merged[j-1] = merged[j-1], merged[j]
		}
	}
	return chainHull(merged, dst)
}

// ringOrder appends the points of ring, a convex polygon in cyclic order,
// nearly sorted by before: from its first point in that order, the two
// chains walking away from it both ways are merged.
func ringOrder(ring, dst []pt) []pt {
	n := len(ring)
	if n == 0 {
		return dst
	}
	lo := 0
	for i := 1; i < n; i++ {
		if before(ring[i], ring[lo]) {
			lo = i
		}
	}
	dst = append(dst, ring[lo])
	// Walking on and back, wrapping around without a division.
	next := func(i int) int {
		if i++; i == n {
			return 0
		}
		return i
	}
	prev := func(i int) int {
		if i == 0 {
			return n - 1
		}
		return i - 1
	}
	f, b := next(lo), prev(lo)
	for k := 1; k < n; k++ {
		if before(ring[b], ring[f]) {
			dst = append(dst, ring[b])
			b = prev(b)
		} else {
			dst = append(dst, ring[f])
			f = next(f)
		}
	}
	return dst
}

// chainHull is the monotone chain over points sorted by before.
func chainHull(pts, dst []pt) poly {
	start := len(dst)
	if len(pts) < 3 {
		dst = append(dst, pts...)
		return dst[start:len(dst):len(dst)]
	}
	h := dst
	for _, p := range pts { // lower chain
		for len(h)-start >= 2 && cross(h[len(h)-2], h[len(h)-1], p) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, p)
	}
	lo := len(h) - start + 1
	for i := len(pts) - 2; i >= 0; i-- { // upper chain
		p := pts[i]
		for len(h)-start >= lo && cross(h[len(h)-2], h[len(h)-1], p) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, p)
	}
	h = h[:len(h)-1]
	return h[start:len(h):len(h)]
}

// box is an axis-aligned bounding box in pixels.
type box struct{ minX, minY, maxX, maxY float64 }

func bounds(p []pt) box {
	b := box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, q := range p {
		b.minX, b.maxX = min(b.minX, q.X), max(b.maxX, q.X)
		b.minY, b.maxY = min(b.minY, q.Y), max(b.maxY, q.Y)
	}
	return b
}

func (a box) overlaps(b box) bool {
	return a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY
}

// sideOf appends to dst the part of convex p on one side of a line, given
// ds[i], the cross product of the line's direction with p[i] (positive to
// the left): the left side (inside a counter-clockwise polygon whose edge
// the line is) if left is true, else the right. Points on the line belong
// to both sides. The caller computes ds once for both sides.
func sideOf(p []pt, ds []float64, left bool, dst []pt) []pt {
	n := len(p)
	for i := 0; i < n; i++ {
		j := i + 1
		if j == n {
			j = 0
		}
		c, d := p[i], p[j]
		dc, dd := ds[i], ds[j]
		if !left {
			dc, dd = -dc, -dd
		}
		if dc >= 0 {
			dst = append(dst, c)
		}
		if (dc > 0 && dd < 0) || (dc < 0 && dd > 0) {
			t := dc / (dc - dd)
			dst = append(dst, pt{c.X + t*(d.X-c.X), c.Y + t*(d.Y-c.Y)})
		}
	}
	return dst
}

// minPieceArea drops slivers left by floating point along shared edges.
const minPieceArea = 1e-9

// arena holds the points of the pieces of one subtraction, so that
// splitting allocates only when it outgrows its buffer. A piece is a
// sub-slice capped at its length; growing the buffer leaves earlier
// pieces in the old array, still valid.
type arena struct {
	pts    []pt
	pa, pb []piece
	ds     []float64 // a piece's points' cross products with one edge
	// split's scratch for what is left of a piece after a cut, the
	// one of the two the last cut wrote.
	lefts [2][]pt
	side  int
}

// cut appends the part of p on one side of a→b as a new piece.
func (ar *arena) cut(p []pt, a, b pt, left bool) poly {
	ar.ds = ar.ds[:0]
	for _, c := range p {
		ar.ds = append(ar.ds, cross(a, b, c))
	}
	return ar.cutBy(p, left)
}

// cutBy is cut given the points' cross products with the line (ar.ds).
func (ar *arena) cutBy(p []pt, left bool) poly {
	start := len(ar.pts)
	ar.pts = sideOf(p, ar.ds, left, ar.pts)
	return ar.pts[start:len(ar.pts):len(ar.pts)]
}

// clip returns the part of convex p, of bounds pb, inside convex q, of
// bounds qb. An edge of q with p wholly inside it (crossLow) would cut
// off nothing and copy p as it is: it is passed over, as are all four
// sides of the frame for an object wholly in the image.
func (ar *arena) clip(p poly, pb box, q poly, qb box) poly {
	cur := p
	sane := pb.sane() && qb.sane()
	for i := range q {
		a, b := q[i], q[(i+1)%len(q)]
		if sane {
			if crossLow(a, b, pb) >= 0 {
				continue
			}
		}
		cur = ar.cut(cur, a, b, true)
		if len(cur) < 3 {
			return nil
		}
		pb = bounds(cur)
		sane = pb.sane()
	}
	return cur
}

// piece is a convex piece of a silhouette with its area, as area gives
// it: split finds the area as it writes the piece, so that the visible
// area's sum does not go over its points again.
type piece struct {
	p poly
	a float64
}

// subtract returns pieces minus convex q, as convex pieces: each piece that
// meets q is split along q's edges, keeping the parts outside each edge and
// dropping what is left, the part inside q. An edge that leaves the piece
// whole on its inside is passed over; one with the piece whole on its
// outside ends the work on that piece, which misses q. Where the piece's
// bounds settle which of the two an edge is (crossLow, crossHigh), its
// points are not looked at. The result is appended to out, which must not
// share storage with pieces.
func (ar *arena) subtract(pieces []piece, q poly, qb box, out []piece) []piece {
	qSane := qb.sane()
	for _, p := range pieces {
		pb := bounds(p.p)
		if !pb.overlaps(qb) {
			out = append(out, p)
			continue
		}
		sane := qSane && pb.sane()
		scratch := false // p is what a split left, in split's scratch
		for i := range q {
			a, b := q[i], q[0]
			if i+1 < len(q) {
				b = q[i+1]
			}
			if sane {
				if crossLow(a, b, pb) >= 0 { // inside
					continue
				}
				if crossHigh(a, b, pb) < 0 { // strictly outside, so not inside either
					out = append(out, ar.keep(p, scratch))
					break
				}
			}
			cur := p.p
			if cap(ar.ds) < len(cur) {
				ar.ds = make([]float64, 2*len(cur))
			}
			ds := ar.ds[:len(cur)]
			inside, outside := true, true
			dx, dy := b.X-a.X, b.Y-a.Y // cross's, once an edge
			for k, c := range cur {
				d := dx*(c.Y-a.Y) - dy*(c.X-a.X)
				ds[k] = d
				inside = inside && d >= 0
				outside = outside && d <= 0
			}
			if inside {
				continue
			}
			if outside {
				out = append(out, ar.keep(p, scratch))
				break
			}
			o, in, ib := ar.split(cur)
			if len(o.p) >= 3 && o.a > minPieceArea {
				out = append(out, o)
			}
			if len(in.p) < 3 || in.a <= minPieceArea {
				break
			}
			// What is left of the piece, p as it goes on.
			p, pb, scratch = in, ib, true
			sane = qSane && pb.sane()
		}
	}
	return out
}
