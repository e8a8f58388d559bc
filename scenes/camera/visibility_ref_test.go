package camera

import (
	"cmp"
	"image"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ambibench/ambibench/internal/fma"
	"github.com/ambibench/ambibench/scenes"
	"github.com/go-gl/mathgl/mgl64"
)

// TestVisibilityIsTheReference checks that Visibility returns bit for bit
// (fma.Same: within a tolerance where the build fuses multiply-adds, as
// on arm64) what the plain computation it was sped up from returns (refVisibility),
// on many seeded random tables from sparse to crowded, in both views,
// some narrowed so that the frame cuts objects, and under partial
// observability: the suite's recorded episodes depend on every figure.
func TestVisibilityIsTheReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 48))
	n := 600
	if testing.Short() {
		n = 100
	}
	for k := range n {
		var objs []scenes.Object
		if k%4 == 0 {
			objs = many(1+rng.IntN(48), rng.Uint64())
		} else {
			objs = randomScene(rng, 1+rng.IntN(60))
		}
		opt := DefaultOptions()
		if rng.IntN(3) == 0 {
			opt.View = TopDown
		}
		if rng.IntN(2) == 0 {
			opt.Eye = randomEye(rng, opt.View)
		}
		if rng.IntN(3) == 0 { // objects cut by the frame's edges
			opt.FovY, opt.OrthoHeight = 15+25*rng.Float64(), 0.3+0.4*rng.Float64()
		}
		if rng.IntN(2) == 0 {
			opt.TwoRobots, opt.Partial = true, rng.IntN(2) == 0
			opt.Robot = []string{scenes.Robot1, scenes.Robot2}[rng.IntN(2)]
		}
		got, err := Visibility(objs, opt)
		if err != nil {
			t.Fatal(err)
		}
		want := refVisibility(objs, opt.resolved())
		if len(got) != len(want) {
			t.Fatalf("table %d: %d figures, want %d", k, len(got), len(want))
		}
		for i := range want {
			g, w := got[i], want[i]
			if g.ID != w.ID || g.Box != w.Box || g.Hidden != w.Hidden ||
				!fma.Same(g.Fraction, w.Fraction) || !fma.Same(g.Area, w.Area) {
				t.Fatalf("table %d (%d objects, %+v), object %d: %+v, want %+v", k, len(objs), opt, i, g, w)
			}
		}
	}
}

// refVisibility is Visibility as it was before it skipped work: every
// silhouette clipped to the frame edge by edge, every overlapping later
// silhouette subtracted edge by edge, the drawn objects put in painter's
// order by a stable sort on depth. It takes from layout only which
// objects are drawn.
func refVisibility(objs []scenes.Object, o Options) []Visible {
	sc := newScene(objs, o)
	// The silhouettes as outline and hull drew them, and the order as the
	// stable sort of the objects laid out in input order put it.
	items := slices.Clone(sc.items)
	for i := range items {
		items[i].sil = refSilhouette(&sc.cam, items[i].obj)
		items[i].sb = bounds(items[i].sil)
	}
	slices.SortFunc(items, func(a, b item) int { return cmp.Compare(a.idx, b.idx) })
	refNestInBowls(&sc.cam, items)
	slices.SortStableFunc(items, func(a, b item) int { return cmp.Compare(b.depth, a.depth) })
	sc.items = items

	out := make([]Visible, len(sc.hidden))
	for i, h := range sc.hidden {
		if h {
			out[i] = Visible{ID: sc.objs[i].ID, Hidden: true}
		}
	}
	for _, i := range sc.behind {
		out[i] = Visible{ID: sc.objs[i].ID}
	}
	W, H := float64(sc.opt.Width), float64(sc.opt.Height)
	frame := poly{{0, 0}, {W, 0}, {W, H}, {0, H}}
	imgRect := image.Rect(0, 0, sc.opt.Width, sc.opt.Height)
	var ar refArena
	for i := range sc.items {
		it := &sc.items[i]
		v := Visible{Area: area(it.sil)}
		if len(it.sil) >= 3 {
			v.Box = image.Rect(int(math.Floor(it.sb.minX)), int(math.Floor(it.sb.minY)),
				int(math.Ceil(it.sb.maxX)), int(math.Ceil(it.sb.maxY))).Intersect(imgRect)
		} else {
			v.Area = 0
		}
		if v.Area > 0 {
			var a float64
			for _, p := range ar.visiblePieces(sc, i, frame) {
				a += area(p)
			}
			v.Fraction = a / v.Area
		}
		v.ID = it.obj.ID
		out[it.idx] = v
	}
	return out
}

// refNestInBowls sets the depths of items, in input order, as layout
// and nestInBowls did.
func refNestInBowls(c *camera, items []item) {
	for i := range items {
		items[i].depth = c.depth(items[i].obj.Pose)
	}
	for i := range items {
		b := &items[i]
		if b.obj.Class != scenes.ClassBowl {
			continue
		}
		r := b.obj.Extent.X() / 2
		bottom := b.obj.Pose.Z() - b.obj.Extent.Z()/2
		for j := range items {
			o := &items[j]
			if j == i || o.obj.Class == scenes.ClassBowl || o.obj.Pose.Z() <= bottom {
				continue
			}
			dx, dy := o.obj.Pose.X()-b.obj.Pose.X(), o.obj.Pose.Y()-b.obj.Pose.Y()
			if dx*dx+dy*dy >= r*r {
				continue
			}
			if d := b.depth - 1e-6*(1+o.obj.Pose.Z()); o.depth > d {
				o.depth = d
			}
		}
	}
}

// refSilhouette is an object's silhouette as layout drew it: a bowl's
// circles' hull, a box's corners, each projected alone, sorted and
// hulled.
func refSilhouette(c *camera, o *scenes.Object) poly {
	if o.Class == scenes.ClassBowl {
		var buf []pt
		top, bottom := o.Pose.Z()+o.Extent.Z()/2, o.Pose.Z()-o.Extent.Z()/2
		for _, r := range [...][2]float64{{1, top}, {bowlBase, bottom}} {
			rx, ry := r[0]*o.Extent.X()/2, r[0]*o.Extent.Y()/2
			for _, u := range unitCircle {
				buf = append(buf, c.project(mgl64.Vec3{o.Pose.X() + rx*u[1], o.Pose.Y() + ry*u[0], r[1]}))
			}
		}
		return ringsHullTo(buf[:bowlSegments], buf[bowlSegments:], make([]pt, 0, 4*bowlSegments), nil)
	}
	var pts []pt
	for _, p := range corners(o) {
		pts = append(pts, c.project(p))
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
	return chainHull(pts, nil)
}

// TestSilhouettesAreTheReference checks that layout's silhouettes are
// bit for bit refSilhouette's (fma.Same), on the tables of
// TestVisibilityIsTheReference.
func TestSilhouettesAreTheReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 6))
	for k := range 300 {
		objs := randomScene(rng, 1+rng.IntN(60))
		opt := DefaultOptions()
		if k%3 == 0 {
			opt.View = TopDown
		}
		if k%2 == 0 {
			opt.Eye = randomEye(rng, opt.View)
		}
		sc := newScene(objs, opt.resolved())
		for _, it := range sc.items {
			want := refSilhouette(&sc.cam, it.obj)
			if !samePoints(it.sil, want) {
				t.Fatalf("table %d, %s: silhouette %v, want %v", k, it.obj.ID, it.sil, want)
			}
		}
	}
}

// randomEye moves the view's default eye a little, off the table's
// middle, where a matrix's entries are not zero.
func randomEye(rng *rand.Rand, v View) [3]float64 {
	e := defaultEye
	if v == TopDown {
		e = defaultTopEye
	}
	return [3]float64{e[0] + 0.6*(rng.Float64()-0.5), e[1] + 0.2*(rng.Float64()-0.5), e[2] + 0.2*(rng.Float64()-0.5)}
}

// samePoints reports whether p and q hold the same points, bit for bit
// where the build does not fuse (fma.Same).
func samePoints(p, q poly) bool {
	if len(p) != len(q) {
		return false
	}
	for i := range p {
		if !fma.Same(p[i].X, q[i].X) || !fma.Same(p[i].Y, q[i].Y) {
			return false
		}
	}
	return true
}

// refArena is the scratch of refVisibility.
type refArena struct {
	pts    []pt
	pa, pb []poly
	ds     []float64
}

func (ar *refArena) visiblePieces(sc *scene, i int, frame poly) []poly {
	ar.pts = ar.pts[:0]
	it := &sc.items[i]
	c := ar.clip(it.sil, frame)
	if len(c) < 3 {
		return nil
	}
	pieces := append(ar.pa[:0], c)
	take := func(q poly, qb box) {
		next := ar.subtract(pieces, q, qb, ar.pb[:0])
		ar.pa, ar.pb = next, pieces
		pieces = next
	}
	for j := i + 1; j < len(sc.items) && len(pieces) > 0; j++ {
		if q := &sc.items[j]; len(q.sil) >= 3 && q.sb.overlaps(it.sb) {
			take(q.sil, q.sb)
		}
	}
	if sc.occ != nil && len(pieces) > 0 && sc.occB.overlaps(it.sb) {
		take(sc.occ, sc.occB)
	}
	return pieces
}

func (ar *refArena) cut(p []pt, a, b pt, left bool) poly {
	ar.ds = ar.ds[:0]
	for _, c := range p {
		ar.ds = append(ar.ds, cross(a, b, c))
	}
	return ar.cutBy(p, left)
}

func (ar *refArena) cutBy(p []pt, left bool) poly {
	start := len(ar.pts)
	ar.pts = refSideOf(p, ar.ds, left, ar.pts)
	return ar.pts[start:len(ar.pts):len(ar.pts)]
}

func (ar *refArena) clip(p, q poly) poly {
	cur := p
	for i := range q {
		cur = ar.cut(cur, q[i], q[(i+1)%len(q)], true)
		if len(cur) < 3 {
			return nil
		}
	}
	return cur
}

func (ar *refArena) subtract(pieces []poly, q poly, qb box, out []poly) []poly {
	for _, p := range pieces {
		if !bounds(p).overlaps(qb) {
			out = append(out, p)
			continue
		}
		cur := p
		for i := range q {
			a, b := q[i], q[(i+1)%len(q)]
			inside, outside := true, true
			ar.ds = ar.ds[:0]
			for _, c := range cur {
				d := cross(a, b, c)
				ar.ds = append(ar.ds, d)
				inside = inside && d >= 0
				outside = outside && d <= 0
			}
			if inside {
				continue
			}
			if outside {
				out = append(out, cur)
				break
			}
			if o := ar.cutBy(cur, false); len(o) >= 3 && area(o) > minPieceArea {
				out = append(out, o)
			}
			cur = ar.cutBy(cur, true)
			if len(cur) < 3 || area(cur) <= minPieceArea {
				break
			}
		}
	}
	return out
}

// refSideOf is sideOf as it was: it appends to dst the part of convex p on one side of a line, given
// ds[i], the cross product of the line's direction with p[i] (positive to
// the left): the left side (inside a counter-clockwise polygon whose edge
// the line is) if left is true, else the right. Points on the line belong
// to both sides. The caller computes ds once for both sides.
func refSideOf(p []pt, ds []float64, left bool, dst []pt) []pt {
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
