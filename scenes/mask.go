package scenes

import "math"

// Mask marks the points of the table that a spacing test certainly
// rejects: the pixels of a fine grid over the table that lie wholly within
// an object's zone (a disc, or a square standing square to the table).
// Rejection sampling on a crowded table draws thousands of points for a
// few dozen objects, nearly all of them in a zone; a mask answers those
// with one bit, and only a point it does not cover needs the test itself.
// A covered point is one the test would reject, so a sampler that asks
// the mask first draws and keeps the very points it kept without it.
//
// A pixel is marked only when it lies inside the zone by maskMargin, far
// more than the rounding of the tests' arithmetic, so a point the mask
// covers is inside the zone however the test rounds. The zero Mask covers
// nothing.
type Mask struct {
	bits []uint64 // maskSide rows of maskSide/64 words
}

const (
	maskSide   = 128 // pixels along each side of the table
	maskWords  = maskSide / 64
	maskMargin = 1e-9 // metres inside a zone's border that a marked pixel keeps
)

var (
	maskPixelX = (TableMaxX - TableMinX) / maskSide
	maskPixelY = (TableMaxY - TableMinY) / maskSide
)

// Covered reports whether (x, y) lies in a marked pixel. Points off the
// table are never covered.
func (m *Mask) Covered(x, y float64) bool {
	if m.bits == nil {
		return false
	}
	fx, fy := (x-TableMinX)/maskPixelX, (y-TableMinY)/maskPixelY
	if !(fx >= 0 && fy >= 0 && fx < maskSide && fy < maskSide) {
		return false
	}
	i, j := int(fx), int(fy)
	return m.bits[j*maskWords+i/64]&(1<<(i%64)) != 0
}

// AddDisc marks the pixels wholly closer to (cx, cy) than r.
func (m *Mask) AddDisc(cx, cy, r float64) {
	r -= maskMargin
	if r <= 0 {
		return
	}
	jlo, jhi := m.rowRange(cy-r, cy+r)
	// No row marks a pixel beyond the disc's box along x (a row's half
	// width is at most r, give or take rounding, far less than a pixel),
	// so a row whose pixels in the box are all marked already is left as
	// it is: on a crowded table, about a quarter of a disc's rows.
	box := span(cx-r-maskPixelX, cx+r+maskPixelX)
	for j := jlo; j <= jhi; j++ {
		// The pixels of row j span [y0, y1] along y; their farthest
		// points from the centre along y lie dy from it.
		y0, y1 := pixelY(float64(j)), pixelY(float64(j+1))
		dy := max(math.Abs(y0-cy), math.Abs(y1-cy))
		if dy >= r || m.holds(j, box) {
			continue
		}
		w := math.Sqrt(r*r - dy*dy)
		m.mark(j, span(cx-w, cx+w))
	}
}

// AddSquare marks the pixels wholly within h of (cx, cy) along both axes.
func (m *Mask) AddSquare(cx, cy, h float64) {
	h -= maskMargin
	if h <= 0 {
		return
	}
	jlo, jhi := m.rowRange(cy-h, cy+h)
	// Every row marks the same pixels along x, found once.
	s := span(cx-h, cx+h)
	for j := jlo; j <= jhi; j++ {
		y0, y1 := pixelY(float64(j)), pixelY(float64(j+1))
		if y0 > cy-h && y1 < cy+h {
			m.mark(j, s)
		}
	}
}

// rowRange returns the rows of pixels that meet [lo, hi] along y, and
// makes the bits of a mask that has none.
func (m *Mask) rowRange(lo, hi float64) (int, int) {
	if m.bits == nil {
		m.bits = make([]uint64, maskSide*maskWords)
	}
	return max(int(math.Floor((lo-TableMinY)/maskPixelY)), 0), min(int(math.Floor((hi-TableMinY)/maskPixelY)), maskSide-1)
}

// span is the pixels of a row that lie wholly between a and b along x
// (open bounds: a pixel touching one is not among them), as the words of
// a row.
func span(a, b float64) [maskWords]uint64 {
	var s [maskWords]uint64
	ilo, ihi := firstAfter(a), lastBefore(b)
	for i := ilo; i <= ihi; {
		w := i / 64
		last := min(ihi, w*64+63) // the last pixel of the run in word w
		s[w] |= (^uint64(0) >> (63 - (last - i))) << (i % 64)
		i = last + 1
	}
	return s
}

// mark marks the pixels s of row j.
func (m *Mask) mark(j int, s [maskWords]uint64) {
	row := m.bits[j*maskWords : j*maskWords+2 : j*maskWords+2]
	row[0] |= s[0]
	row[1] |= s[1]
}

// holds reports whether the pixels s of row j are all marked.
func (m *Mask) holds(j int, s [maskWords]uint64) bool {
	row := m.bits[j*maskWords : j*maskWords+2 : j*maskWords+2]
	return row[0]&s[0] == s[0] && row[1]&s[1] == s[1]
}

// mark and holds read two words a row; a mask of another width fails to
// build.
var _ = [1]int{}[maskWords-2]

// maskPixelsX is the pixels a metre along x. An index found with it may
// be one off the pixel's own bounds, which firstAfter and lastBefore then
// check: a division for each end of every row was a third of marking a
// mask.
var maskPixelsX = 1 / maskPixelX

// pixelX is where along x the pixels from column i on start (i need not
// be whole: a point drawn in a pixel is one), and pixelY the same along
// y. The product is rounded before the sum, as the conversion makes
// every build do: a compiler that fuses a multiply-add (arm64, amd64 at
// GOAMD64=v3) would otherwise move a bound by an ulp here and not there,
// and a table's masks and drawn spots would differ from amd64's.
func pixelX(i float64) float64 { return TableMinX + float64(i*maskPixelX) }
func pixelY(j float64) float64 { return TableMinY + float64(j*maskPixelY) }

// firstAfter is the first pixel whose low bound along x, computed as
// pixelX(i), lies beyond a (maskSide if none does). The
// bound grows with i, so it is the first index where the test holds,
// found from an estimate in either direction.
func firstAfter(a float64) int {
	i := min(max(floorIndex((a-TableMinX)*maskPixelsX), 0), maskSide)
	for i > 0 && pixelX(float64(i-1)) > a {
		i--
	}
	for i < maskSide && !(pixelX(float64(i)) > a) {
		i++
	}
	return i
}

// lastBefore is the last pixel whose high bound along x lies short of b
// (-1 if none does), as firstAfter.
func lastBefore(b float64) int {
	i := min(floorIndex((b-TableMinX)*maskPixelsX), maskSide-1)
	for i < maskSide-1 && pixelX(float64(i+2)) < b {
		i++
	}
	for i >= 0 && !(pixelX(float64(i+1)) < b) {
		i--
	}
	return i
}

// floorIndex is int(math.Floor(f)) for the pixel indexes fill starts
// from, which its loops then check against the pixels' own bounds: a
// conversion rounds toward zero, the floor of a number that is not
// negative, and a negative one (or NaN) only needs to be below every
// index. math.Floor was half of marking a crowded table's masks.
func floorIndex(f float64) int {
	if !(f >= 0) {
		return -1
	}
	if f >= maskSide {
		return maskSide
	}
	return int(f)
}
