package camera

import "math"

// Splitting a piece along an edge in one pass.
//
// A cut of subtract kept both sides of the edge, each written by its own
// sideOf, then took the area of each and the bounds of the one it went
// on cutting: five passes over the same few points, most of a crowded
// table's visibility. split does all in one, with the same arithmetic in
// the same order, so that the points, areas and bounds are bit for bit
// those of sideOf, area and bounds: the area's terms are added up as
// each point follows the one before it, and the last closes the ring.
// The intersection with the edge is the same point on both sides:
// negating both cross products, as sideOf does for the right side,
// negates the numerator and the denominator of its parameter exactly,
// rounding being symmetric.

// split cuts convex p along a line given ar.ds, the cross products of its
// points with the line, as sideOf would, and returns each side as a
// piece, and the left one's bounds as bounds computes them. The right
// side, outside the subtracted silhouette's edge, is kept: it goes to the
// arena. The left one, inside it, is cut again by the next edge or
// dropped, unless a later edge finds it wholly outside (keep): it goes to
// the one of two scratch buffers p is not in.
func (ar *arena) split(p []pt) (right, left piece, lb box) {
	n := len(p)
	// Each side keeps at most all of p's points and two on the line.
	start := len(ar.pts)
	if cap(ar.pts)-start < n+2 {
		// A new array: the pieces in the old one stay valid.
		ar.pts = make([]pt, 0, max(2*cap(ar.pts), 64*n))
		start = 0
	}
	rp := ar.pts[start : start+n+2]
	ar.side ^= 1
	if cap(ar.lefts[ar.side]) < n+2 {
		ar.lefts[ar.side] = make([]pt, 2*(n+2))
	}
	lp := ar.lefts[ar.side][:n+2]
	ds := ar.ds[:n]
	var rn, ln int
	var rs, ls float64 // twice the areas so far
	inf := math.Inf(1)
	lb = box{inf, inf, -inf, -inf}
	for i, c := range p {
		j := i + 1
		if j == n {
			j = 0
		}
		dc, dd := ds[i], ds[j]
		if dc <= 0 { // -dc >= 0, sideOf's test for the right side
			if rn > 0 {
				rs += term(rp[rn-1], c)
			}
			rp[rn] = c
			rn++
		}
		if dc >= 0 {
			if ln > 0 {
				ls += term(lp[ln-1], c)
			}
			lp[ln] = c
			ln++
			lb = lb.add(c)
		}
		if (dc > 0 && dd < 0) || (dc < 0 && dd > 0) {
			d := p[j]
			t := dc / (dc - dd)
			x := pt{c.X + t*(d.X-c.X), c.Y + t*(d.Y-c.Y)}
			if rn > 0 {
				rs += term(rp[rn-1], x)
			}
			rp[rn] = x
			rn++
			if ln > 0 {
				ls += term(lp[ln-1], x)
			}
			lp[ln] = x
			ln++
			lb = lb.add(x)
		}
	}
	if rn > 0 {
		rs += term(rp[rn-1], rp[0])
	}
	if ln > 0 {
		ls += term(lp[ln-1], lp[0])
	}
	ar.pts = ar.pts[:start+rn]
	right = piece{ar.pts[start : start+rn : start+rn], rs / 2}
	left = piece{lp[:ln:ln], ls / 2}
	return right, left, lb
}

// keep returns p to be kept among the pieces: if scratch, p is in
// split's scratch, and a copy in the arena is returned.
func (ar *arena) keep(p piece, scratch bool) piece {
	if !scratch {
		return p
	}
	start := len(ar.pts)
	ar.pts = append(ar.pts, p.p...)
	p.p = ar.pts[start:len(ar.pts):len(ar.pts)]
	return p
}

// term is the term of area's sum for the edge from p to q.
func term(p, q pt) float64 { return p.X*q.Y - q.X*p.Y }

// add returns b grown to hold p, as bounds grows it.
func (b box) add(p pt) box {
	b.minX, b.maxX = min(b.minX, p.X), max(b.maxX, p.X)
	b.minY, b.maxY = min(b.minY, p.Y), max(b.maxY, p.Y)
	return b
}
