package camera

// Which side of a line a piece lies on, from its bounding box alone.
//
// Subtracting a silhouette from a piece, or clipping a piece to the
// frame, asks for every edge of the one whether the other lies wholly
// inside it, wholly outside it, or across it; the answer took the cross
// product of every point of the piece with every edge, though most edges
// of a bowl's many-sided silhouette lie far from a small piece. The
// cross product as computed, fl(fl(dx·fl(y−ay)) − fl(dy·fl(x−ax))), is
// monotone in x and in y separately, since rounding to nearest is
// monotone and each step is a difference or a product by a constant:
// over a box it is least and greatest at two of the box's corners, found
// by the signs of dx and dy. A box whose least cross product is not
// negative therefore holds only points on the inside, as computed point
// by point, and one whose greatest is negative only points strictly on
// the outside: the shortcut decides exactly as the points would, and
// anything it cannot decide is left to them, so that no figure moves.

// saneCoord bounds the coordinates for which the shortcut is taken: within
// it differences and products of coordinates cannot overflow, so that no
// infinity or NaN, which are not monotone, can arise; a NaN or infinite
// coordinate fails it too.
const saneCoord = 1e150

// sane reports whether b lies within ±saneCoord.
func (b box) sane() bool {
	return -saneCoord <= b.minX && b.maxX <= saneCoord && -saneCoord <= b.minY && b.maxY <= saneCoord
}

// crossLow returns the least of cross(a, b, c) as computed over the
// points c of bx, which must be sane, for a and b within ±saneCoord.
func crossLow(a, b pt, bx box) float64 {
	// cross(a, b, c) grows with c.Y if b.X ≥ a.X, and with -c.X if
	// b.Y ≥ a.Y.
	c := pt{bx.maxX, bx.minY}
	if b.X < a.X {
		c.Y = bx.maxY
	}
	if b.Y < a.Y {
		c.X = bx.minX
	}
	return cross(a, b, c)
}

// crossHigh is crossLow's greatest.
func crossHigh(a, b pt, bx box) float64 {
	c := pt{bx.minX, bx.maxY}
	if b.X < a.X {
		c.Y = bx.minY
	}
	if b.Y < a.Y {
		c.X = bx.maxX
	}
	return cross(a, b, c)
}
