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
// points with the line, as sideOf would: it appends to the arena the part
// right of the line, then the part left of it, and returns each as a
// piece, and the left one's bounds as bounds computes them.
func (ar *arena) split(p []pt) (right, left piece, lb box) {
	n := len(p)
	// Each side keeps at most all of p's points and two on the line.
	start := len(ar.pts)
	if cap(ar.pts)-start < 2*n+4 {
		// A new array: the pieces in the old one stay valid.
		ar.pts = make([]pt, 0, max(2*cap(ar.pts), 64*n))
		start = 0
	}
	rp := ar.pts[start : start+n+2]
	lp := ar.pts[start+n+2 : start+2*n+4]
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
	// The left side goes right after the right one.
	ar.pts = ar.pts[:start+rn+ln]
	copy(ar.pts[start+rn:], lp[:ln])
	right = piece{ar.pts[start : start+rn : start+rn], rs / 2}
	left = piece{ar.pts[start+rn : start+rn+ln : start+rn+ln], ls / 2}
	return right, left, lb
}

// term is the term of area's sum for the edge from p to q.
func term(p, q pt) float64 { return p.X*q.Y - q.X*p.Y }

// add returns b grown to hold p, as bounds grows it.
func (b box) add(p pt) box {
	b.minX, b.maxX = min(b.minX, p.X), max(b.maxX, p.X)
	b.minY, b.maxY = min(b.minY, p.Y), max(b.maxY, p.Y)
	return b
}
