package physics

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/jakecoffman/cp/v2"

	"github.com/ambibench/ambibench/scenes"
)

// Config sets up a world.
type Config struct {
	// TwoRobots splits the table into robot 1's, the shared and robot 2's
	// workspaces; otherwise robot 1 reaches the whole table.
	TwoRobots bool
	// PartialView lets each robot observe only the workspaces it reaches.
	PartialView bool
	// PlaceNoise is the standard deviation, in metres, of the error of each
	// placement along each axis. Zero turns it off.
	PlaceNoise float64
	// SlipRate is the chance that a grasp slips and drops the object part
	// way along its path. Zero turns it off.
	SlipRate float64
	// NoiseSeed seeds the world's own stream of execution noise.
	NoiseSeed uint64
}

// World is a simulated table. It is not safe for concurrent use; distinct
// worlds may run on distinct goroutines.
type World struct {
	cfg     Config
	space   *cp.Space
	items   []*item
	gripper *cp.Body
	rng     *rand.Rand
	steps   int
}

// item is one object of the world and its body.
type item struct {
	obj    scenes.Object // id, class, attributes and extent; the pose lives in body
	body   *cp.Body
	shapes []*cp.Shape
	level  int   // 0 on the table, 1 stacked on below
	below  *item // the block this one rests on
	joint  *cp.Constraint
	index  int // in World.items
}

// New builds a world from objects. A block whose pose is above another
// block starts stacked on it. The world keeps each object's attribute map,
// and the objects it returns ([World.Objects], [World.Observe]) share it:
// neither the world nor its callers change an object's attributes once
// it is built. The world is stepped until it settles, so
// objects that start overlapping are pushed apart before anything acts.
func New(objs []scenes.Object, cfg Config) (*World, error) {
	// Most tables start at rest, each object clear of the others, and are
	// built asleep: the shapes go straight where sleeping puts them.
	// Overlap is found only once they stand in the space, so a table that
	// has some is built again, awake, and stepped apart. Both ways leave
	// the same space (see cp.Space.AddShapeAsleep).
	w, err := build(objs, cfg, addAsleep)
	if err != nil {
		return nil, err
	}
	overlap := make([]bool, len(w.items))
	anyOverlap := false
	near := w.reachable()
	for i, it := range w.items {
		overlap[i] = near[i] && w.overlapping(it)
		anyOverlap = anyOverlap || overlap[i]
	}
	if anyOverlap {
		w, _ = build(objs, cfg, addAwake) // the same objects: no error
	}
	// Objects may start overlapping (distractors on a crowded table keep
	// their centres apart, and square blocks can still meet at the
	// corners); only those, and what they are stacked on, need stepping
	// apart. The rest sleep from the start and wake if pushed.
	w.sleepBut(overlap)
	w.settle()
	return w, nil
}

// build adds the objects to a new world's space, their shapes added by
// add, with their stacks and the gripper.
func build(objs []scenes.Object, cfg Config, add addShape) (*World, error) {
	w := &World{
		cfg:   cfg,
		space: newSpace(),
		rng:   rand.New(rand.NewPCG(cfg.NoiseSeed, 0x7ab1e70b)),
	}
	seen := make(map[string]bool, len(objs))
	blocks, bowls := 0, 0
	for i, o := range objs {
		if o.ID == "" {
			return nil, fmt.Errorf("tabletop: object %d has no id", i)
		}
		if seen[o.ID] {
			return nil, fmt.Errorf("tabletop: duplicate object id %q", o.ID)
		}
		seen[o.ID] = true
		switch o.Class {
		case scenes.ClassBlock:
			blocks++
		case scenes.ClassBowl:
			bowls++
		default:
			return nil, fmt.Errorf("tabletop: object %q has class %q; the table holds only blocks and bowls", o.ID, o.Class)
		}
	}
	p := newParts(blocks, bowls)
	// The items in one allocation rather than one an object.
	items := make([]item, len(objs))
	w.items = make([]*item, 0, len(objs))
	for i, o := range objs {
		// The world keeps the objects' attribute maps as they are and
		// hands them out with every snapshot: nothing changes them (see
		// New), and copying each object's map at every build and look
		// was a sixth of what a crowded episode allocated.
		it := &items[i]
		it.obj, it.index = o, i
		if it.obj.Attributes == nil {
			it.obj.Attributes = map[string]string{} // as a copy's would be
		}
		if o.Class == scenes.ClassBlock {
			it.body, it.shapes = newBlockBody(w.space, add, p, o.Pose.X(), o.Pose.Y(), o.Extent.X())
		} else {
			it.body, it.shapes = newBowlBody(w.space, add, p, o.Pose.X(), o.Pose.Y(), o.Extent.X(), uint(i+1))
		}
		it.body.UserData = it
		w.items = append(w.items, it)
	}
	// A block rests on another only if it stands higher than some block's
	// top (scenes.OnTop): on a table with nothing stacked, which is most
	// of them, no object does, and the pairs are never tried; at 48
	// objects they were 2,304 calls an episode.
	lowestTop := math.Inf(1)
	for _, it := range w.items {
		if it.obj.Class == scenes.ClassBlock {
			lowestTop = min(lowestTop, it.obj.Pose.Z()+it.obj.Extent.Z()/2)
		}
	}
	for _, it := range w.items {
		if it.obj.Class != scenes.ClassBlock || it.obj.Pose.Z() <= lowestTop {
			continue
		}
		for _, other := range w.items {
			if scenes.OnTop(it.obj, other.obj) && other.level == 0 {
				w.stack(it, other)
				break
			}
		}
	}
	w.gripper = newGripper(w.space, 0, scenes.TableMaxY+0.1)
	return w, nil
}

// stack rests it on below: it collides only with other stacked blocks and
// follows below wherever it is pushed.
func (w *World) stack(it, below *item) {
	it.level = 1
	it.below = below
	setFilter(it.shapes, filterStacked)
	it.joint = cp.NewPivotJoint(below.body, it.body, it.body.Position())
	w.space.AddConstraint(it.joint)
}

// unstack lifts it off the block below.
func (w *World) unstack(it *item) {
	if it.joint != nil {
		w.space.RemoveConstraint(it.joint)
		it.joint = nil
	}
	it.level, it.below = 0, nil
}

// Objects returns the state of the table, in the order the world was
// built: a new slice each call, whose objects share their attribute maps
// with the world (see New).
func (w *World) Objects() []scenes.Object {
	out := make([]scenes.Object, 0, len(w.items))
	for _, it := range w.items {
		out = append(out, w.snapshot(it))
	}
	return out
}

func (w *World) snapshot(it *item) scenes.Object {
	o := it.obj
	p := it.body.Position()
	x, y := p.X/cm, p.Y/cm
	z := o.Extent.Z() / 2
	if it.level > 0 {
		z += w.snapshotZ(it.below)
	}
	o.Pose = mgl64.Vec3{x, y, z}
	o.Region = scenes.RegionAt(w.cfg.TwoRobots, x, y)
	return o
}

func (w *World) snapshotZ(it *item) float64 {
	z := it.obj.Extent.Z()
	if it.below != nil {
		z += w.snapshotZ(it.below)
	}
	return z
}

// Observe returns what a robot sees: the whole table, or under PartialView
// only the workspaces it reaches.
func (w *World) Observe(robot string) []scenes.Object {
	var out []scenes.Object
	for _, o := range w.Objects() {
		if scenes.Sees(robot, o.Region, w.cfg.PartialView) {
			out = append(out, o)
		}
	}
	return out
}

// Steps is the number of physics steps taken so far.
func (w *World) Steps() int { return w.steps }

func (w *World) find(id string) *item {
	for _, it := range w.items {
		if it.obj.ID == id {
			return it
		}
	}
	return nil
}

// onTopOf returns the block resting on it, if any.
func (w *World) onTopOf(it *item) *item {
	for _, other := range w.items {
		if other.below == it {
			return other
		}
	}
	return nil
}

func (w *World) step() {
	w.space.Step(stepDT)
	w.steps++
}

// settle steps the space until every body is at rest, or gives up after
// maxSettleSteps, and then puts the bodies to sleep, so that a world at
// rest costs nothing to step until something touches it. It takes no
// step when none would change anything: every awake body is still and
// overlaps nothing by more than the solver tolerates.
func (w *World) settle() {
	if !w.still() {
		for i := 0; !w.atRestAfter(i); i++ {
			if i == maxSettleSteps {
				return // still moving: left awake, as it is
			}
			w.step()
		}
	}
	w.sleep()
}

// atRestAfter reports whether the world is at rest after step steps of
// settling: never before the first, which resolves the contacts still
// found.
func (w *World) atRestAfter(steps int) bool { return steps > 0 && w.atRest() }

// still reports whether a step would leave the world as it is: no awake
// body moves, and none overlaps another by more than the collision slop,
// past which the solver pushes shapes apart.
func (w *World) still() bool {
	for _, it := range w.items {
		if it.body.IsSleeping() {
			continue
		}
		if it.body.Velocity() != (cp.Vector{}) || it.body.AngularVelocity() != 0 || w.overlapping(it) {
			return false
		}
	}
	return true
}

// reachable reports, by item, whether the item's bounding circle meets
// another's: only such an item can overlap one, and overlapping, which
// asks cp of every shape of it, need be asked of no other. Two blocks
// whose circles meet are told apart by their squares, which stand square
// to the table when the world is built: a crowded table's blocks keep
// their gap along one axis (half a centimetre), and their circles met
// for nearly every neighbour.
func (w *World) reachable() []bool {
	out := make([]bool, len(w.items))
	type circle struct {
		x, y, r float64
		half    float64 // a block's half side; 0 for a bowl
	}
	cs := make([]circle, len(w.items))
	for i, it := range w.items {
		p := it.body.Position()
		cs[i] = circle{x: p.X, y: p.Y, r: boundingRadius(it.obj)}
		if it.obj.Class == scenes.ClassBlock {
			cs[i].half = it.obj.Extent.X() / 2 * cm
		}
	}
	for i := range cs {
		for j := i + 1; j < len(cs); j++ {
			// The margins outweigh any rounding: a circle or a square
			// that misses another by less still counts as meeting it.
			a, b := &cs[i], &cs[j]
			dx, dy, r := a.x-b.x, a.y-b.y, a.r+b.r+collisionSlop
			if dx*dx+dy*dy >= r*r {
				continue
			}
			if h := a.half + b.half + collisionSlop; a.half > 0 && b.half > 0 && (math.Abs(dx) >= h || math.Abs(dy) >= h) {
				continue
			}
			out[i], out[j] = true, true
		}
	}
	return out
}

// boundingRadius is the radius, in engine units, of a circle about an
// object's centre that holds all of its shapes: a block's half diagonal,
// a bowl's rim with its thickness.
func boundingRadius(o scenes.Object) float64 {
	if o.Class == scenes.ClassBowl {
		return o.Extent.X()/2*cm + rimRadius
	}
	return o.Extent.X() / 2 * cm * math.Sqrt2
}

// overlapping reports whether a body overlaps another by more than the
// collision slop, past which the solver pushes shapes apart.
func (w *World) overlapping(it *item) bool {
	overlap := false
	for _, sh := range it.shapes {
		w.space.ShapeQuery(sh, func(other *cp.Shape, set *cp.ContactPointSet) {
			if other.Body() == it.body {
				return // a bowl's rim segments overlap where they join; cp never collides them
			}
			for i := 0; i < set.Count; i++ {
				if set.Points[i].Distance < -collisionSlop {
					overlap = true
				}
			}
		})
		if overlap {
			return true
		}
	}
	return false
}

// atRest reports whether every awake body has settled: it moves slower
// than settleSpeed and overlaps nothing by more than restingOverlap.
// Sleeping bodies were at rest when they fell asleep and are woken when
// anything touches them.
func (w *World) atRest() bool {
	for _, it := range w.items {
		if !it.body.IsSleeping() && it.body.Velocity().Length() > settleSpeed {
			return false
		}
	}
	// The solver pushes overlapping shapes apart with bias velocities that
	// a body's velocity does not show, so overlap is checked on its own.
	overlapping := false
	for _, it := range w.items {
		if it.body.IsSleeping() {
			continue
		}
		it.body.EachArbiter(func(arb *cp.Arbiter) {
			set := arb.ContactPointSet()
			for i := 0; i < set.Count; i++ {
				if set.Points[i].Distance < -restingOverlap {
					overlapping = true
				}
			}
		})
		if overlapping {
			return false
		}
	}
	return true
}

// sleep puts every awake body to sleep, in groups: bodies that touch, or
// that a stack joins, sleep in one group and so wake together, which cp
// needs (a body woken alone would keep a contact with a sleeping one) and
// which is what the physics says: a push on one of them reaches the
// others.
func (w *World) sleep() { w.sleepBut(nil) }

// sleepBut is sleep for every group with no body whose index is in keep.
func (w *World) sleepBut(keep []bool) {
	root := make([]int, len(w.items))
	for i := range root {
		root[i] = i
	}
	find := func(i int) int {
		for root[i] != i {
			root[i] = root[root[i]]
			i = root[i]
		}
		return i
	}
	join := func(i, j int) { root[find(i)] = find(j) }
	for i, it := range w.items {
		if it.body.IsSleeping() {
			continue // its group is asleep already, and all it touches with it
		}
		if it.below != nil {
			join(i, it.below.index)
		}
		it.body.EachArbiter(func(arb *cp.Arbiter) {
			a, b := arb.Bodies()
			for _, body := range [2]*cp.Body{a, b} {
				if other, ok := body.UserData.(*item); ok {
					join(i, other.index)
				}
			}
		})
	}
	awake := make([]bool, len(w.items)) // by group
	for i, k := range keep {
		if k {
			awake[find(i)] = true
		}
	}
	group := make([]*cp.Body, len(w.items))
	for i, it := range w.items {
		if it.body.IsSleeping() || awake[find(i)] {
			continue
		}
		r := find(i)
		it.body.SleepWithGroup(group[r])
		group[r] = it.body
	}
}
