package scenes

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// MinSpacing is the default least distance between two objects' centres
// when a layout places them.
const MinSpacing = 0.15

// edgeMargin keeps sampled centres this far inside an area's border so that
// objects do not hang over the table's edge.
const edgeMargin = 0.04

// placementTries bounds rejection sampling for one object.
const placementTries = 400

// ErrNoRoom is returned when a layout cannot fit an object with the
// required spacing.
var ErrNoRoom = errors.New("no room for the object with the required spacing")

// Layout places objects on the table one at a time, keeping them apart, and
// numbers them by colour and class. It draws only from the random stream it
// is given, so a seed fixes the layout.
type Layout struct {
	rng       *rand.Rand
	minSep    float64
	twoRobots bool
	objs      []Object
	counts    map[string]int
	// cells holds the index in objs of each object by the cell of a grid
	// minSep wide that its centre falls in. An object closer than minSep
	// to a point lies in the point's cell or one of the eight around it,
	// so Free reads those nine cells rather than every object: on a
	// crowded table, rejection sampling calls it hundreds of times an
	// object. It is built on the first call of Free.
	cells map[[2]int][]int
}

// NewLayout starts an empty table. twoRobots splits it into the three
// regions of a two-robot table.
func NewLayout(rng *rand.Rand, minSep float64, twoRobots bool) *Layout {
	if minSep <= 0 {
		minSep = MinSpacing
	}
	return &Layout{rng: rng, minSep: minSep, twoRobots: twoRobots, counts: map[string]int{}}
}

// cell returns the grid cell of a point.
func (l *Layout) cell(x, y float64) [2]int {
	return [2]int{int(math.Floor(x / l.minSep)), int(math.Floor(y / l.minSep))}
}

// add puts o on the table, in objs and, once the grid is built, in its
// cell.
func (l *Layout) add(o Object) {
	if l.cells != nil {
		c := l.cell(o.Pose.X(), o.Pose.Y())
		l.cells[c] = append(l.cells[c], len(l.objs))
	}
	l.objs = append(l.objs, o)
}

// LayoutOf continues a layout from objects already on the table: new
// objects keep clear of them and are numbered after them.
func LayoutOf(rng *rand.Rand, minSep float64, twoRobots bool, objs []Object) *Layout {
	l := NewLayout(rng, minSep, twoRobots)
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
		if n > l.counts[base] {
			l.counts[base] = n
		}
	}
	return l
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

// spot draws a free point in area that satisfies ok.
func (l *Layout) spot(area Rect, ok func(x, y float64) bool) (float64, float64, error) {
	lo, hi := area.MinX+edgeMargin, area.MaxX-edgeMargin
	blo, bhi := area.MinY+edgeMargin, area.MaxY-edgeMargin
	for range placementTries {
		x := lo + l.rng.Float64()*(hi-lo)
		y := blo + l.rng.Float64()*(bhi-blo)
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

// Free reports whether (x, y) keeps the layout's spacing from every object.
func (l *Layout) Free(x, y float64) bool {
	if l.cells == nil {
		l.cells = make(map[[2]int][]int, len(l.objs))
		for i, o := range l.objs {
			c := l.cell(o.Pose.X(), o.Pose.Y())
			l.cells[c] = append(l.cells[c], i)
		}
	}
	c := l.cell(x, y)
	for i := c[0] - 1; i <= c[0]+1; i++ {
		for j := c[1] - 1; j <= c[1]+1; j++ {
			for _, k := range l.cells[[2]int{i, j}] {
				o := &l.objs[k]
				dx, dy := o.Pose.X()-x, o.Pose.Y()-y
				if dx*dx+dy*dy < l.minSep*l.minSep {
					return false
				}
			}
		}
	}
	return true
}

// AddAt places an object at (x, y) without checking the spacing.
func (l *Layout) AddAt(class, color string, x, y float64) Object {
	key := color + " " + class
	l.counts[key]++
	id := ObjectID(color, class, l.counts[key])
	var o Object
	if class == ClassBowl {
		o = NewBowl(id, color, x, y)
	} else {
		o = NewBlock(id, color, x, y)
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
