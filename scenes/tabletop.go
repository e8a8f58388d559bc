package scenes

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// MinSpacing is the default least distance between two objects' centres
// when a layout places them.
const MinSpacing = 0.15

// edgeMargin keeps sampled centres this far inside an area's border so that
// objects do not hang over the table's edge.
const edgeMargin = 0.04

// placementTries bounds rejection sampling for one object.
const placementTries = 400

// freeTries bounds the draws of Layout.AddSpacedOff, which are drawn from
// the free part of the table only. On the crowded tables of the scene
// sizes, two draws in three that find room find it at the first, 99.5%
// within 64; the calls that find none are what the draws cost, and a
// distractor refused is drawn again by its caller (at 400, 1,280 draws a
// 48-object table and 90.5% of tables filled at the first attempt; at
// 64, 356 draws and 89.3%).
const freeTries = 64

// ErrNoRoom is returned when a layout cannot fit an object with the
// required spacing.
var ErrNoRoom = errors.New("no room for the object with the required spacing")

// ErrCovered is the ErrNoRoom of Layout.AddSpacedOff when its mask leaves
// no point of the area free: a mask only gains cover, so no later call
// with it finds room either, and a caller may stop marking it.
var ErrCovered = fmt.Errorf("%w: the mask covers the whole area", ErrNoRoom)

// Layout places objects on the table one at a time, keeping them apart, and
// numbers them by colour and class. It draws only from the random stream it
// is given, so a seed fixes the layout.
type Layout struct {
	rng       *rand.Rand
	minSep    float64
	twoRobots bool
	objs      []Object
	// counts numbers the objects of each colour and class: a pair of the
	// tabletop's (tabletopPair) in pairs, which costs no string, any
	// other by its id base, color + " " + class.
	counts map[string]int
	pairs  [2 * tabletopColors]int
	// attrs holds the attribute map that the objects AddSpacedOff places
	// of each tabletop pair share, made at the first.
	attrs [2 * tabletopColors]map[string]string
	// grid holds the index in objs of each object by the cell of a grid
	// minSep wide that its centre falls in. An object closer than minSep
	// to a point lies in the point's cell or one of the eight around it,
	// so Free reads those nine cells rather than every object: on a
	// crowded table, rejection sampling calls it hundreds of times an
	// object. It is built on the first call of Free.
	grid *grid
	// draws is the sampler of AddSpacedOff, kept for its next call.
	draws uncovered
}

// NewLayout starts an empty table. twoRobots splits it into the three
// regions of a two-robot table.
func NewLayout(rng *rand.Rand, minSep float64, twoRobots bool) *Layout {
	if minSep <= 0 {
		minSep = MinSpacing
	}
	return &Layout{rng: rng, minSep: minSep, twoRobots: twoRobots, counts: map[string]int{}}
}

// LayoutOf continues a layout from objects already on the table: new
// objects keep clear of them and are numbered after them.
func LayoutOf(rng *rand.Rand, minSep float64, twoRobots bool, objs []Object) *Layout {
	l := NewLayout(rng, minSep, twoRobots)
	l.objs = make([]Object, 0, len(objs))
	for _, o := range objs {
		l.add(o)
		base, num, ok := cutNumber(o.ID)
		if !ok {
			continue
		}
		n := 0
		for _, r := range num {
			n = n*10 + int(r-'0')
		}
		// A base of a tabletop pair is its colour and class split at
		// the one space it holds.
		color, class, _ := strings.Cut(base, " ")
		if i, ok := tabletopPair(color, class); ok {
			l.pairs[i] = max(l.pairs[i], n)
		} else if n > l.counts[base] {
			l.counts[base] = n
		}
	}
	return l
}

// Grow makes room for n more objects, as slices.Grow does: a caller
// that knows how many it will place spares the layout's copies of its
// growing list.
func (l *Layout) Grow(n int) { l.objs = slices.Grow(l.objs, n) }

// add puts o on the table, in objs and, once the grid is built, in its
// cell; an object off the grid's area drops the grid, to be built anew.
func (l *Layout) add(o Object) {
	if l.grid != nil && !l.grid.insert(o.Pose.X(), o.Pose.Y(), len(l.objs)) {
		l.grid = nil
	}
	l.objs = append(l.objs, o)
}

// grid buckets points by square cells of side size over the rectangle
// from (x0, y0) of nx by ny cells.
type grid struct {
	size, x0, y0 float64
	nx, ny       int
	cells        [][]int
}

// newGrid returns a grid of cells of side size that covers the centres of
// objs and a margin of a cell, with each object in its cell.
func newGrid(size float64, objs []Object) *grid {
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, o := range objs {
		minX, maxX = min(minX, o.Pose.X()), max(maxX, o.Pose.X())
		minY, maxY = min(minY, o.Pose.Y()), max(maxY, o.Pose.Y())
	}
	// The table at least, so that objects added later fall inside.
	minX, maxX = min(minX, TableMinX), max(maxX, TableMaxX)
	minY, maxY = min(minY, TableMinY), max(maxY, TableMaxY)
	g := &grid{size: size, x0: minX - size, y0: minY - size}
	g.nx = int((maxX-g.x0)/size) + 2
	g.ny = int((maxY-g.y0)/size) + 2
	g.cells = make([][]int, g.nx*g.ny)
	for i, o := range objs {
		g.insert(o.Pose.X(), o.Pose.Y(), i)
	}
	return g
}

// cell returns the cell of a point.
func (g *grid) cell(x, y float64) (int, int) {
	return int(math.Floor((x - g.x0) / g.size)), int(math.Floor((y - g.y0) / g.size))
}

// insert puts index i in the cell of (x, y), and reports false, putting
// it nowhere, when the point is off the grid.
func (g *grid) insert(x, y float64, i int) bool {
	cx, cy := g.cell(x, y)
	if cx < 0 || cy < 0 || cx >= g.nx || cy >= g.ny {
		return false
	}
	g.cells[cy*g.nx+cx] = append(g.cells[cy*g.nx+cx], i)
	return true
}

// clear reports whether no point of objs that the grid holds lies closer
// to (x, y) than the grid's cell size, reading the cell of (x, y) and the
// eight around it.
func (g *grid) clear(objs []Object, x, y float64) bool {
	cx, cy := g.cell(x, y)
	d2 := g.size * g.size
	for j := max(cy-1, 0); j <= min(cy+1, g.ny-1); j++ {
		for i := max(cx-1, 0); i <= min(cx+1, g.nx-1); i++ {
			for _, k := range g.cells[j*g.nx+i] {
				dx, dy := objs[k].Pose[0]-x, objs[k].Pose[1]-y
				if dx*dx+dy*dy < d2 {
					return false
				}
			}
		}
	}
	return true
}

// Place puts an existing object, id and attributes kept, at a random free
// spot in area that also satisfies ok (if not nil).
func (l *Layout) Place(o Object, area Rect, ok func(x, y float64) bool) (Object, error) {
	x, y, err := l.spot(area, ok)
	if err != nil {
		return Object{}, fmt.Errorf("placing %s: %w", o.ID, err)
	}
	o = o.Clone()
	o.Pose[0], o.Pose[1] = x, y
	o.Region = RegionAt(l.twoRobots, x, y)
	l.add(o)
	return o, nil
}

// inset is the part of area where a centre may stand: edgeMargin inside
// its border.
func inset(area Rect) Rect {
	return Rect{area.MinX + edgeMargin, area.MinY + edgeMargin, area.MaxX - edgeMargin, area.MaxY - edgeMargin}
}

// spot draws a free point in area that satisfies ok.
func (l *Layout) spot(area Rect, ok func(x, y float64) bool) (float64, float64, error) {
	in := inset(area)
	for range placementTries {
		x := in.MinX + l.rng.Float64()*(in.MaxX-in.MinX)
		y := in.MinY + l.rng.Float64()*(in.MaxY-in.MinY)
		if l.Free(x, y) && (ok == nil || ok(x, y)) {
			return x, y, nil
		}
	}
	return 0, 0, ErrNoRoom
}

// Add places an object of a class and colour at a random free spot in area.
func (l *Layout) Add(class, color string, area Rect) (Object, error) {
	return l.AddWhere(class, color, area, nil)
}

// AddWhere is Add with an extra condition on the spot.
func (l *Layout) AddWhere(class, color string, area Rect, ok func(x, y float64) bool) (Object, error) {
	x, y, err := l.spot(area, ok)
	if err != nil {
		return Object{}, fmt.Errorf("placing a %s %s: %w", color, class, err)
	}
	return l.AddAt(class, color, x, y), nil
}

// AddSpacedOff is AddWhere for a condition that keeps the layout's
// spacing itself, which it then does not test again (ok must refuse every
// spot that Free refuses), drawing its spots only from the points of area
// that covered leaves free, each as likely as any other (ok must refuse
// every spot covered covers); area must lie within the table. So the
// spots it may keep are AddWhere's, each as likely, and a covered point
// costs no draw: the last gaps of a crowded table are found in a few
// draws rather than hundreds. The draws themselves differ from AddWhere's,
// and so does which spot a seed keeps.
//
// Finding no room is what a crowded table's caller meets at nearly every
// object, so it returns ErrNoRoom itself, or ErrCovered when no point was
// free to draw, without naming the object.
//
// The objects it places of one of the tabletop's colours and classes
// share one attribute map, as the objects of a table may: nobody changes
// an object's attributes once it is placed (see sim/physics.New). A map
// an object was over a third of what a 48-object table's draw allocated.
func (l *Layout) AddSpacedOff(class, color string, area Rect, covered *Mask, ok func(x, y float64) bool) (Object, error) {
	if area.MinX < TableMinX || area.MaxX > TableMaxX || area.MinY < TableMinY || area.MaxY > TableMaxY {
		return Object{}, fmt.Errorf("placing a %s %s: area %v is not within the table", color, class, area)
	}
	l.draws.reset(covered, inset(area))
	if l.draws.total == 0 {
		return Object{}, ErrCovered
	}
	for range freeTries {
		x, y, in := l.draws.draw(l.rng)
		if in && ok(x, y) {
			return l.addAt(class, color, x, y, true), nil
		}
	}
	return Object{}, ErrNoRoom
}

// Free reports whether (x, y) keeps the layout's spacing from every object.
func (l *Layout) Free(x, y float64) bool {
	if l.grid == nil {
		l.grid = newGrid(l.minSep, l.objs)
	}
	return l.grid.clear(l.objs, x, y)
}

// NextID returns the id the next object of a colour and class would get,
// and places nothing.
func (l *Layout) NextID(class, color string) string {
	if i, ok := tabletopPair(color, class); ok {
		return pairID(i, color, class, l.pairs[i]+1)
	}
	return ObjectID(color, class, l.counts[color+" "+class]+1)
}

// AddAt places an object at (x, y) without checking the spacing.
func (l *Layout) AddAt(class, color string, x, y float64) Object {
	return l.addAt(class, color, x, y, false)
}

// addAt is AddAt, giving the object its pair's shared attribute map
// (attrs) if shared is set and the pair is the tabletop's.
func (l *Layout) addAt(class, color string, x, y float64, shared bool) Object {
	i, pair := tabletopPair(color, class)
	var id string
	if pair {
		l.pairs[i]++
		id = pairID(i, color, class, l.pairs[i])
	} else {
		key := color + " " + class
		l.counts[key]++
		id = ObjectID(color, class, l.counts[key])
	}
	newAttrs := blockAttributes
	if class == ClassBowl {
		newAttrs = bowlAttributes
	}
	var attrs map[string]string
	switch {
	case !shared || !pair:
		attrs = newAttrs(color)
	case l.attrs[i] == nil:
		l.attrs[i] = newAttrs(color)
		fallthrough
	default:
		attrs = l.attrs[i]
	}
	var o Object
	if class == ClassBowl {
		o = newBowl(id, x, y, attrs)
	} else {
		o = newBlock(id, x, y, attrs)
	}
	o.Region = RegionAt(l.twoRobots, x, y)
	l.add(o)
	return o
}

// Objects returns the objects placed so far, in placement order.
func (l *Layout) Objects() []Object { return l.objs }

// TabletopConfig sizes a random table.
type TabletopConfig struct {
	Blocks, Bowls int     // default 3 and 3
	MinSpacing    float64 // default MinSpacing
	TwoRobots     bool
}

// GenerateTabletop lays out a random table: blocks and bowls of distinct
// colours within each class, at least MinSpacing apart.
func GenerateTabletop(rng *rand.Rand, cfg TabletopConfig) ([]Object, error) {
	if cfg.Blocks == 0 && cfg.Bowls == 0 {
		cfg.Blocks, cfg.Bowls = 3, 3
	}
	if cfg.Blocks < 0 || cfg.Bowls < 0 || cfg.Blocks > len(Colors) || cfg.Bowls > len(Colors) {
		return nil, fmt.Errorf("tabletop: blocks and bowls must each be between 0 and %d, got %d and %d", len(Colors), cfg.Blocks, cfg.Bowls)
	}
	l := NewLayout(rng, cfg.MinSpacing, cfg.TwoRobots)
	for _, spec := range []struct {
		class string
		n     int
	}{{ClassBlock, cfg.Blocks}, {ClassBowl, cfg.Bowls}} {
		for _, c := range PickColors(rng, spec.n, nil) {
			if _, err := l.Add(spec.class, c, Table); err != nil {
				return nil, fmt.Errorf("tabletop: %w", err)
			}
		}
	}
	return l.Objects(), nil
}

// PickColors draws n distinct colours, none of them in exclude.
func PickColors(rng *rand.Rand, n int, exclude []string) []string {
	var pool []string
	for _, c := range Colors {
		skip := false
		for _, e := range exclude {
			if c == e {
				skip = true
			}
		}
		if !skip {
			pool = append(pool, c)
		}
	}
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	if n > len(pool) {
		n = len(pool)
	}
	return pool[:n]
}
