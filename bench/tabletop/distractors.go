package tabletop

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/ambibench/ambibench/agents/grounding"
	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks"
)

// MaxSceneSize is the largest table a scene size may ask for. At the
// clearances below, 9 draws in 10 fill 48 objects at once (905 of the
// 1,014 first draws of 40 episodes of every tabletop cell; 877 when the
// distractors' spots were drawn from the whole table rather than from
// the free pixels of their class's mask); a draw that misses is drawn
// again. At scenes.MinSpacing a
// table takes only 8 to 13 objects before the layout finds no room.
const MaxSceneSize = 48

// Least distances between centres when distractors are packed. The
// families space their own objects by scenes.MinSpacing; a crowded table
// keeps only what the physics and the relations need.
const (
	blockClearance     = 0.045 // two 4 cm blocks, half a centimetre apart along x or y
	bowlBlockClearance = 0.092 // a block, corner on, wholly outside a bowl's rim
	bowlClearance      = 0.13  // two bowls' rims apart
	placeClearance     = 0.1   // room for a block put down at a place a move uses
)

// bowlShare is the chance that a distractor is a bowl rather than a block;
// a bowl that finds no room becomes a block, so crowded tables fill with
// blocks.
const bowlShare = 0.25

// distractorTries bounds the draws for one distractor: a draw is refused
// when no spot is free or the new object would change what a phrase means.
const distractorTries = 20

// addDistractors adds blocks and bowls to ep until it holds size objects,
// without changing what any phrase of the episode refers to: the
// instruction's, and the one in the user's answer. A distractor never has
// the colour and class of an object a phrase names, nor of one the
// perturbation removed (before is the table before it), and one that
// would change what grounding.Resolve finds for any phrase (say, a block
// in the direction a spatial phrase names) is drawn again. Distractors keep
// clear of the places the moves use. It returns an error wrapping
// scenes.ErrNoRoom when the table cannot take them.
func addDistractors(rng *rand.Rand, ep *tasks.Episode, before []scenes.Object, size int) error {
	if len(ep.Objects) >= size {
		return nil
	}
	refs, err := episodeRefs(ep)
	if err != nil {
		return err
	}
	banned := map[string]bool{} // "colour class"
	var keepClear []mgl64.Vec2
	for _, r := range refs {
		for a := &r; a != nil; a = a.Anchor {
			if a.Color != "" {
				banned[a.Color+" "+a.Class] = true
			}
			if p, ok := placePoint(a.Place); ok {
				keepClear = append(keepClear, p)
			}
		}
	}
	for _, o := range before {
		if _, still := ep.Object(o.ID); !still {
			banned[o.Color()+" "+o.Class] = true
		}
	}
	if ep.TwoRobots {
		keepClear = append(keepClear, scenes.SharedPoint) // hand-overs land there
	}
	// One layout for every draw, and its list of objects is the table's:
	// it grows to size at once, a draw that fails adds nothing to it, and
	// one that succeeds adds its distractor (a list of the table's own
	// beside the layout's was a tenth of what the draw allocated).
	l := scenes.LayoutOf(rng, blockClearance, ep.TwoRobots, ep.Objects)
	l.Grow(size - len(ep.Objects))
	objs := l.Objects()
	want, err := resolveAll(objs, refs)
	if err != nil {
		return err
	}
	d := newSpotCheck(refs, want, keepClear)
	d.at, d.nodes = make(map[string]int, size), make([]scenes.Node, 0, size)
	colors := [2][]string{
		classBlock: allowedColors(scenes.ClassBlock, banned),
		classBowl:  allowedColors(scenes.ClassBowl, banned),
	}
	for len(objs) < size {
		k := classBlock
		if rng.Float64() < bowlShare {
			k = classBowl
		}
		placed := false
		for range distractorTries {
			class := classNames[k]
			color := colors[k][rng.IntN(len(colors[k]))]
			// The clearances keep the layout's spacing, blockClearance
			// between centres, and more.
			ok := d.roomFor(l, class, color, objs)
			_, err := l.AddSpacedOff(class, color, scenes.Table, &d.masks[k], ok)
			if d.err != nil {
				return d.err
			}
			if err == nil {
				objs, placed = l.Objects(), true
				break
			}
			if errors.Is(err, scenes.ErrCovered) {
				d.covered[k] = true
			}
			// A try draws a few dozen spots at most (scenes' freeTries);
			// on a crowded table the last gaps take several tries to
			// find, and only blocks fit them.
			k = classBlock
		}
		if !placed {
			return fmt.Errorf("%d of %d objects placed: %w", len(objs), size, scenes.ErrNoRoom)
		}
	}
	ep.Objects = objs
	return nil
}

// episodeRefs reads every phrase of an episode that names something: the
// moves' picks and places, and the user's answer.
func episodeRefs(ep *tasks.Episode) ([]grounding.Ref, error) {
	var refs []grounding.Ref
	for i, m := range ep.Moves {
		for _, phrase := range []string{m.Pick.Phrase, m.Place.Phrase} {
			r, err := grounding.ParseRef(phrase)
			if err != nil {
				return nil, fmt.Errorf("distractors: move %d: %w", i, err)
			}
			refs = append(refs, r)
		}
	}
	if ep.Answer != "" {
		r, err := grounding.ParseAnswer(ep.Answer)
		if err != nil {
			return nil, fmt.Errorf("distractors: %w", err)
		}
		refs = append(refs, r)
	}
	return refs, nil
}

// resolveAll resolves each reference over the scene graph of objs.
func resolveAll(objs []scenes.Object, refs []grounding.Ref) ([][]string, error) {
	return resolveOver(&pairView{objs: objs}, refs)
}

// resolveOver resolves each reference over a view of a table.
func resolveOver(v *pairView, refs []grounding.Ref) ([][]string, error) {
	out := make([][]string, len(refs))
	for i, r := range refs {
		ids, err := grounding.Resolve(v, r)
		if err != nil {
			return nil, fmt.Errorf("distractors: resolving %q: %w", r.Phrase, err)
		}
		out[i] = ids
	}
	return out, nil
}

// pairView is the scene graph of objs as a grounding.View that derives
// only the edges a query names an end of, pair by pair, so that checking a
// spot costs a pass over the table rather than the whole graph. Relations
// hold between pairs, so its answers are those of scenes.BuildGraph(objs).
type pairView struct {
	objs  []scenes.Object
	nodes *scenes.Graph
	// found, if set, keeps the answers of Nodes to queries by a name and
	// at most one attribute (as grounding.Resolve asks), for views whose
	// nodes are these whatever the spot (see roomFor).
	found map[nodeQueryKey][]string
}

// nodeQueryKey is a scenes.NodeQuery of at most one attribute, as a key.
type nodeQueryKey struct {
	name, attr, value string
	attrs             int
}

// queryKeyOf is the key of q, if it has one.
func queryKeyOf(q scenes.NodeQuery) (nodeQueryKey, bool) {
	k := nodeQueryKey{name: q.Name, attrs: len(q.Attrs)}
	for a, v := range q.Attrs {
		k.attr, k.value = a, v
	}
	return k, k.attrs <= 1
}

func (v *pairView) Nodes(q scenes.NodeQuery) ([]string, error) {
	if v.nodes == nil {
		v.nodes = &scenes.Graph{}
		for _, o := range v.objs {
			v.nodes.Nodes = append(v.nodes.Nodes, readNode(&o))
		}
	}
	key, ok := queryKeyOf(q)
	if v.found == nil || !ok {
		return v.nodes.RetrieveNode(q), nil
	}
	ids, ok := v.found[key]
	if !ok {
		ids = v.nodes.RetrieveNode(q)
		v.found[key] = ids
	}
	return ids, nil
}

func (v *pairView) Edges(q scenes.EdgeQuery) ([]scenes.Edge, error) {
	end := q.Target
	if end == "" {
		end = q.Source
	}
	if end == "" {
		return scenes.BuildGraph(v.objs).RetrieveEdge(q), nil
	}
	var out, pair []scenes.Edge
	for i := range v.objs {
		a := &v.objs[i]
		if a.ID != end {
			continue
		}
		for j := range v.objs {
			if o := &v.objs[j]; o.ID != a.ID {
				pair = scenes.AppendPairEdges(pair[:0], o, a)
				out = scenes.AppendMatchingEdges(out, pair, q)
			}
		}
	}
	return out, nil
}

// allowedColors lists the colours a distractor of class may take.
func allowedColors(class string, banned map[string]bool) []string {
	var out []string
	for _, c := range scenes.Colors {
		if !banned[c+" "+class] {
			out = append(out, c)
		}
	}
	return out
}

// The classes of a distractor, as indexes of the arrays a spot check keeps
// by class (a map by the class's name was a lookup at every use).
const (
	classBlock = iota
	classBowl
)

// classNames names the classes by index.
var classNames = [2]string{classBlock: scenes.ClassBlock, classBowl: scenes.ClassBowl}

// spotCheck tells whether a distractor may stand at a spot. The first
// failure to resolve a phrase is kept in err.
type spotCheck struct {
	keepClear []mgl64.Vec2
	err       error
	// nodes holds the scene-graph node of each object of the table so far,
	// which the table only appends to, and at the index of each id.
	nodes []scenes.Node
	at    map[string]int
	// cells buckets the table so far, as nodes does, for the clearance
	// test.
	cells clearanceGrid
	// masks cover, for a distractor of each class, the spots that the
	// places kept clear or the table so far certainly bar (see
	// scenes.Mask): on a crowded table nearly every spot drawn, which
	// then costs one bit.
	masks [2]scenes.Mask // by class index
	// covered says a class's mask covers the whole table: no draw of the
	// class finds room again, and the mask is no longer marked.
	covered [2]bool
	// refs are the episode's phrases, each with what it resolves to
	// without distractors (want) and its chain of anchors (chains[i][0]
	// is refs[i], each next the anchor of the one before).
	refs   []grounding.Ref
	want   [][]string
	chains [][]*grounding.Ref
	// queries holds the node query of each link of each chain, laid out
	// as chains (nodeQueryOf), made once a table rather than at every
	// draw.
	queries [][]linkQuery
	// bases holds what each anchor of a chain resolves to on the table so
	// far; stale says it must be made again (see roomFor).
	bases map[*grounding.Ref][]string
	stale bool
	// For the draw under way: the probe, its node, and for each link of
	// each chain whether the probe is among the nodes its query finds
	// (hits, laid out as chains); the table and the class the spots are
	// judged on (see room).
	probe     scenes.Object
	probeNode scenes.Node
	hits      [][]bool
	drawObjs  []scenes.Object
	drawClass string
	// ok is room as a func, made once rather than a closure each draw.
	ok func(x, y float64) bool
	// resolved says that the last spot allowed was judged by resolving a
	// phrase whole (see keeps): its distractor may have changed what an
	// anchor resolves to.
	resolved bool
	// probed and probeNodes are the table with the probe and their nodes,
	// made for the draw under way only when a phrase is resolved whole;
	// found keeps, for that draw, the nodes each query finds
	// (pairView.found).
	probed     []scenes.Object
	probeNodes []scenes.Node
	probedDone bool
	found      map[nodeQueryKey][]string
	pair       []scenes.Edge
	matched    []scenes.Edge
}

// linkQuery is the node query of a link of a chain, if it asks one.
type linkQuery struct {
	q  scenes.NodeQuery
	ok bool
}

// newSpotCheck starts the check of an empty table.
func newSpotCheck(refs []grounding.Ref, want [][]string, keepClear []mgl64.Vec2) *spotCheck {
	d := &spotCheck{keepClear: keepClear, refs: refs, want: want, at: map[string]int{}, stale: true}
	d.ok = d.room
	for i := range d.refs {
		var chain []*grounding.Ref
		var queries []linkQuery
		for r := &d.refs[i]; r != nil; r = r.Anchor {
			chain = append(chain, r)
			q, ok := nodeQueryOf(r)
			queries = append(queries, linkQuery{q, ok})
		}
		d.chains = append(d.chains, chain)
		d.queries = append(d.queries, queries)
		d.hits = append(d.hits, make([]bool, len(chain)))
	}
	for _, p := range keepClear {
		for k := range d.masks {
			d.masks[k].AddDisc(p.X(), p.Y(), placeClearance)
		}
	}
	return d
}

// add puts an object of the table in the clearance grid and the masks: a
// bowl bars a disc to either class, a block a disc to bowls and a square
// to blocks, as clearanceGrid.clear tests.
func (d *spotCheck) add(o scenes.Object, i int) {
	x, y := o.Pose.X(), o.Pose.Y()
	d.cells.insert(x, y, i)
	bowls, blocks := !d.covered[classBowl], !d.covered[classBlock]
	switch {
	case o.Class == scenes.ClassBowl:
		if bowls {
			d.masks[classBowl].AddDisc(x, y, bowlClearance)
		}
		if blocks {
			d.masks[classBlock].AddDisc(x, y, bowlBlockClearance)
		}
	default:
		if bowls {
			d.masks[classBowl].AddDisc(x, y, bowlBlockClearance)
		}
		if blocks {
			d.masks[classBlock].AddSquare(x, y, blockClearance)
		}
	}
}

// clearanceGrid buckets the objects of a table by the square cell of side
// bowlClearance, the largest clearance, that holds their centre, so that
// an object closer to a point than any clearance lies in the point's
// cell or one of the eight around it: the clearance test of a spot reads
// those nine cells rather than every object of the table, which rejection
// sampling on a crowded table asks of thousands of spots an episode.
// Cells off the table are kept too, in the border cells of the grid.
//
// The cells start as parts of one array, clearanceCellObjects long each,
// and only a cell that outgrows its part is moved: a slice grown for each
// cell was a fifth of the allocations of a 48-object table's draw.
type clearanceGrid struct {
	cells [][]int32 // by row, then column; indexes into the table's objects
}

// clearanceCellObjects is the objects a cell holds before it is moved:
// 500 tables of 48 objects put at most seven in one.
const clearanceCellObjects = 8

var (
	clearanceCols = int(math.Floor((scenes.TableMaxX-scenes.TableMinX)/bowlClearance)) + 1
	clearanceRows = int(math.Floor((scenes.TableMaxY-scenes.TableMinY)/bowlClearance)) + 1
)

// cell returns the cell of a point, clamped to the grid: a point off the
// table shares the border cell, which only makes that cell longer.
func (g *clearanceGrid) cell(x, y float64) (int, int) {
	cx := int(math.Floor((x - scenes.TableMinX) / bowlClearance))
	cy := int(math.Floor((y - scenes.TableMinY) / bowlClearance))
	return min(max(cx, 0), clearanceCols-1), min(max(cy, 0), clearanceRows-1)
}

func (g *clearanceGrid) insert(x, y float64, i int) {
	if g.cells == nil {
		g.cells = make([][]int32, clearanceCols*clearanceRows)
		parts := make([]int32, len(g.cells)*clearanceCellObjects)
		for c := range g.cells {
			g.cells[c] = parts[c*clearanceCellObjects : c*clearanceCellObjects : (c+1)*clearanceCellObjects]
		}
	}
	cx, cy := g.cell(x, y)
	g.cells[cy*clearanceCols+cx] = append(g.cells[cy*clearanceCols+cx], int32(i))
}

// clear reports whether a distractor of class at (x, y) keeps its
// clearance from every object of objs that the grid holds: blockClearance
// along the x or the y axis between blocks, and between centres
// bowlBlockClearance between a block and a bowl and bowlClearance between
// bowls. It is the same test over every object,
// since no clearance reaches past the eight cells around a point's.
func (g *clearanceGrid) clear(objs []scenes.Object, class string, x, y float64) bool {
	if g.cells == nil {
		return true // an empty table
	}
	cx, cy := g.cell(x, y)
	for j := max(cy-1, 0); j <= min(cy+1, clearanceRows-1); j++ {
		for i := max(cx-1, 0); i <= min(cx+1, clearanceCols-1); i++ {
			for _, k := range g.cells[j*clearanceCols+i] {
				o := &objs[k]
				dx, dy := o.Pose.X()-x, o.Pose.Y()-y
				switch {
				case class == scenes.ClassBowl && o.Class == scenes.ClassBowl:
					if closer(dx, dy, bowlClearance) {
						return false
					}
				case class == scenes.ClassBowl || o.Class == scenes.ClassBowl:
					if closer(dx, dy, bowlBlockClearance) {
						return false
					}
				case math.Abs(dx) < blockClearance && math.Abs(dy) < blockClearance:
					// Two blocks stand square to the table: they keep
					// their gap along one axis at least, so that no
					// corner reaches into the other block, which the
					// physics would push apart before the episode
					// starts.
					return false
				}
			}
		}
	}
	return true
}

// roomFor readies the check for a draw of a distractor of class and colour
// on the table objs and returns the spot condition (room, the same func
// at every draw): clear of every object by the clearance of the two
// classes and of the places kept clear, and leaving every phrase resolved
// as before. The resolution is checked last, on the few spots that pass
// the cheap tests.
//
// Every distractor placed left each phrase resolved as without
// distractors, so a phrase resolves on the table with the probe as it
// did (its want) unless the probe is among what it finds; keeps asks
// that of the probe alone, at a cost that does not grow with the table,
// and resolves a phrase over the whole table only where an anchor's own
// resolution might change (see keeps).
func (d *spotCheck) roomFor(l *scenes.Layout, class, color string, objs []scenes.Object) func(x, y float64) bool {
	if d.resolved {
		// The distractor placed last was allowed by a whole resolution,
		// which tells nothing of the anchors.
		d.stale, d.resolved = true, false
	}
	for _, o := range objs[len(d.nodes):] {
		d.at[o.ID] = len(d.nodes)
		d.nodes = append(d.nodes, readNode(&o))
		d.add(o, len(d.nodes)-1)
	}
	if d.stale {
		d.rebase(objs)
	}
	// What the check reads of the probe but its pose is the same at every
	// spot of the draw: its id, its node, and which queries find it. It
	// lies in no workspace, as a probe always has.
	d.probe = probeOf(class, color)
	d.probe.ID = l.NextID(class, color)
	d.probeNode = readNode(&d.probe)
	for i, queries := range d.queries {
		for k, q := range queries {
			d.hits[i][k] = q.ok && q.q.Matches(&d.probeNode)
		}
	}
	d.probedDone = false
	d.drawObjs, d.drawClass = objs, class
	return d.ok
}

// room is the spot condition of the draw roomFor readied. The spots come
// from the pixels of the class's mask that nothing covers
// (scenes.Layout.AddSpacedOff), so the mask is not asked again here: a
// covered spot is one the tests below refuse.
func (d *spotCheck) room(x, y float64) bool {
	for _, p := range d.keepClear {
		if closer(p.X()-x, p.Y()-y, placeClearance) {
			return false
		}
	}
	if !d.cells.clear(d.drawObjs, d.drawClass, x, y) {
		return false
	}
	if d.err != nil {
		return false
	}
	d.probe.Pose[0], d.probe.Pose[1] = x, y
	return d.keeps(d.drawObjs)
}

// nodeQueryOf is the node query grounding.Resolve asks of r's own nodes:
// those it names (an id, or a colour and class), or for a phrase with an
// anchor the nodes of its colour and class (or class) among which it
// picks those related to the anchor. A vague phrase or a place asks none
// (false): it finds nothing.
func nodeQueryOf(r *grounding.Ref) (scenes.NodeQuery, bool) {
	switch {
	case r.Vague || r.Place != "":
		return scenes.NodeQuery{}, false
	case r.ID != "":
		return scenes.NodeQuery{Name: r.ID}, true
	case r.Anchor == nil || r.Color != "":
		return scenes.NodeQuery{Name: r.Color + " " + r.Class}, true
	}
	return scenes.NodeQuery{Attrs: map[string]string{scenes.AttrType: r.Class}}, true
}

// keeps reports whether every phrase resolves on the table objs with the
// probe, where it stands now, as it does without distractors.
func (d *spotCheck) keeps(objs []scenes.Object) bool {
	for i, chain := range d.chains {
		changed, known := d.gains(objs, chain, d.hits[i], 0)
		if known {
			if changed {
				return false
			}
			continue
		}
		ok, err := d.resolvesAsBefore(objs, i)
		if err != nil {
			d.err = err
			return false
		}
		if !ok {
			return false
		}
		d.resolved = true
	}
	return true
}

// gains tells whether the probe joins what link k of a chain resolves to
// (changed), when that is known without resolving it over the table:
// when every anchor below it resolves as without the probe. What a link
// resolves to with the probe is then what it resolved to before, and the
// probe if it is of the link's own nodes and, for a link with an anchor,
// stands in the link's relation to one of the anchors (relations hold
// between pairs, so the probe adds only its own edges). A link whose
// anchor gains or may gain the probe is not known (known false).
func (d *spotCheck) gains(objs []scenes.Object, chain []*grounding.Ref, hits []bool, k int) (changed, known bool) {
	r := chain[k]
	if r.Anchor == nil || r.Vague || r.Place != "" || r.ID != "" {
		return hits[k], true
	}
	if ch, kn := d.gains(objs, chain, hits, k+1); ch || !kn {
		return false, false
	}
	anchors := d.bases[r.Anchor]
	if r.Anchor.Other && len(anchors) < 2 || !r.Anchor.Other && len(anchors) != 1 {
		return false, true // grounding.Resolve finds nothing, probe or not
	}
	if !hits[k] {
		return false, true
	}
	for _, a := range anchors {
		if d.bears(objs, a, r.Relation) {
			return true, true
		}
	}
	return false, true
}

// bears reports whether the probe stands in relation rel to the object of
// id a, as grounding.Resolve reads the view's edges: an edge the view
// gives for the query (target a, relation rel) whose source is the probe.
func (d *spotCheck) bears(objs []scenes.Object, a, rel string) bool {
	i, ok := d.at[a]
	if !ok {
		return false // an anchor the table does not hold: no edge ends there
	}
	d.pair = scenes.AppendPairEdges(d.pair[:0], &d.probe, &objs[i])
	d.matched = scenes.AppendMatchingEdges(d.matched[:0], d.pair, scenes.EdgeQuery{Target: a, Relation: rel})
	for _, e := range d.matched {
		if e.Source == d.probe.ID && e.Source != a {
			return true
		}
	}
	return false
}

// rebase makes what each anchor of a chain resolves to on the table objs
// (without a probe).
func (d *spotCheck) rebase(objs []scenes.Object) {
	d.bases = map[*grounding.Ref][]string{}
	d.stale = false
	v := &pairView{objs: objs, nodes: &scenes.Graph{Nodes: d.nodes}}
	for _, chain := range d.chains {
		for _, r := range chain[1:] {
			ids, err := grounding.Resolve(v, *r)
			if err != nil && d.err == nil {
				d.err = fmt.Errorf("distractors: resolving %q: %w", r.Phrase, err)
			}
			d.bases[r] = ids
		}
	}
}

// resolvesAsBefore resolves phrase i over the whole table objs with the
// probe where it stands, and reports whether it finds what it found
// without distractors. The table with the probe, and its nodes, are made
// once a draw, the probe last; which nodes a query finds depends on the
// nodes alone, so each is asked once a draw (found).
func (d *spotCheck) resolvesAsBefore(objs []scenes.Object, i int) (bool, error) {
	if !d.probedDone {
		d.probed = append(append(d.probed[:0], objs...), d.probe)
		d.probeNodes = append(append(d.probeNodes[:0], d.nodes...), d.probeNode)
		clear(d.found)
		if d.found == nil {
			d.found = map[nodeQueryKey][]string{}
		}
		d.probedDone = true
	}
	d.probed[len(d.probed)-1].Pose = d.probe.Pose
	v := &pairView{objs: d.probed, nodes: &scenes.Graph{Nodes: d.probeNodes}, found: d.found}
	got, err := resolveOver(v, d.refs[i:i+1])
	if err != nil {
		return false, err
	}
	return slices.Equal(got[0], d.want[i]), nil
}

// probes holds a probe of each class and colour (probeOf).
var probes = func() map[[2]string]scenes.Object {
	m := map[[2]string]scenes.Object{}
	for _, c := range scenes.Colors {
		for _, class := range []string{scenes.ClassBlock, scenes.ClassBowl} {
			p := scenes.NewBlock("", c, 0, 0)
			if class == scenes.ClassBowl {
				p = scenes.NewBowl("", c, 0, 0)
			}
			p.Region = scenes.RegionTable
			m[[2]string{class, c}] = p
		}
	}
	return m
}()

// probeOf returns a probe of class and colour, with no id, in no
// workspace, as a probe always is. Its attributes are made once a class
// and colour for every episode: the views read them and never change
// them.
func probeOf(class, color string) scenes.Object {
	if p, ok := probes[[2]string{class, color}]; ok {
		return p
	}
	p := scenes.NewBlock("", color, 0, 0)
	if class == scenes.ClassBowl {
		p = scenes.NewBowl("", color, 0, 0)
	}
	p.Region = scenes.RegionTable
	return p
}

// readNode is scenes.NodeOf(o), but sharing o's attribute map where NodeOf
// would only copy it (an object in no workspace). The views and checks of
// this file read their nodes and never change them, and drop them when
// the distractors are placed; the copies were about a quarter of what
// placing a crowded table's distractors allocated.
func readNode(o *scenes.Object) scenes.Node {
	if o.Region == "" || o.Region == scenes.RegionTable {
		return scenes.Node{ID: o.ID, Attributes: o.Attributes}
	}
	return scenes.NodeOf(o)
}

// closer reports whether the offset (dx, dy) is shorter than d, as
// math.Hypot(dx, dy) < d does, which it calls only when neither side alone
// reaches d: a hypotenuse is never shorter than a side, so the answer is
// the same and most objects of a crowded table cost no square root.
func closer(dx, dy, d float64) bool {
	if math.Abs(dx) >= d || math.Abs(dy) >= d {
		return false
	}
	return math.Hypot(dx, dy) < d
}

// placePoint returns the point of a named place or the shared workspace.
func placePoint(name string) (mgl64.Vec2, bool) {
	if name == scenes.SharedPlace {
		return scenes.SharedPoint, true
	}
	p, ok := scenes.Places[name]
	return p, ok
}
