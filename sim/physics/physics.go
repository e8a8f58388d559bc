package physics

import (
	"math"

	"github.com/jakecoffman/cp/v2"

	"github.com/ambibench/ambibench/scenes"
)

// Engine units: centimetres, seconds, kilograms.
const (
	cm = 100.0 // engine units per metre

	stepDT         = 1.0 / 60 // seconds per physics step
	carrySpeed     = 150.0    // cm/s of the gripper along its path
	tableDamping   = 0.02     // velocity kept per second: table friction
	settleSpeed    = 0.05     // cm/s under which a body is at rest
	maxSettleSteps = 240      // settling gives up after 4 s of simulated time
	catchUpSteps   = 30       // steps the carried body may take to close its lag
	catchUpLag     = 0.05     // cm of lag behind the gripper at which the release comes
	graspStiffness = 0.5      // share of its lag the grasp closes each step
	collisionSlop  = 0.05     // cm of overlap the solver tolerates
	restingOverlap = 0.1      // cm of overlap a settled world may keep
	blockMass      = 0.05     // kg
	bowlMass       = 0.4      // kg
	rimSegments    = 16       // segments in a bowl's rim
	rimRadius      = 0.3      // cm, thickness of the rim segments
)

// Collision categories: objects on the table collide with each other,
// stacked blocks with stacked blocks, and carried objects with nothing.
const (
	catTable   uint = 1 << 0
	catStacked uint = 1 << 1
)

var (
	filterTable   = cp.NewShapeFilter(cp.NO_GROUP, catTable, catTable)
	filterStacked = cp.NewShapeFilter(cp.NO_GROUP, catStacked, catStacked)
	filterCarried = cp.SHAPE_FILTER_NONE
)

// vec converts metres on the table plane into an engine vector.
func vec(x, y float64) cp.Vector { return cp.Vector{X: x * cm, Y: y * cm} }

// newSpace returns an empty space tuned for the table.
func newSpace() *cp.Space {
	s := cp.NewSpace()
	s.SetDamping(tableDamping)
	s.SetCollisionSlop(collisionSlop)
	s.Iterations = 10
	// Sleeping is on, but no body falls asleep by itself: the world puts
	// its bodies to sleep once it has judged them settled (see
	// World.sleep), by its own test of rest, which also looks at overlap
	// that cp's idle test cannot see.
	s.SleepTimeThreshold = math.MaxFloat64 / 2
	return s
}

// addShape adds the shapes of a body to a space: awake, or asleep from the
// start (see cp.Space.AddShapesAsleep), as the world builds its bodies.
// A body's shapes come in one call, so that asleep they enter the index
// as one subtree (a bowl's sixteen rim segments, which one by one each
// walked the whole index), as putting the body to sleep leaves them.
type addShape func(s *cp.Space, shapes ...*cp.Shape)

var (
	addAwake addShape = func(s *cp.Space, shapes ...*cp.Shape) {
		for _, sh := range shapes {
			s.AddShape(sh)
		}
	}
	addAsleep addShape = (*cp.Space).AddShapesAsleep
)

// newBlockBody builds a block of side size (metres) at (x, y).
func newBlockBody(s *cp.Space, add addShape, p *parts, x, y, size float64) (*cp.Body, []*cp.Shape) {
	side := size * cm
	b := p.body(blockMass, cp.MomentForBox(blockMass, side, side))
	b.SetPosition(vec(x, y))
	s.AddBody(b)
	shapes := p.copies(p.box(side), b)
	add(s, shapes...)
	return b, shapes
}

// newBowlBody builds a bowl of the given diameter (metres) at (x, y): a
// ring of segments around a hollow middle. Its segments share a collision
// group of their own, which no other bowl of the space may use: cp never
// collides shapes of one body, and with the group a shape query rejects
// them before it computes their contact, not after (neighbouring
// segments overlap where they join).
func newBowlBody(s *cp.Space, add addShape, p *parts, x, y, diameter float64, group uint) (*cp.Body, []*cp.Shape) {
	filter := cp.NewShapeFilter(group, catTable, catTable)
	r := diameter / 2 * cm
	b := p.body(bowlMass, cp.MomentForCircle(bowlMass, r-rimRadius, r, cp.Vector{}))
	b.SetPosition(vec(x, y))
	s.AddBody(b)
	shapes := p.copies(p.ring(r), b)
	for _, sh := range shapes {
		sh.Filter = filter // SetFilter would wake the body, which is new
	}
	add(s, shapes...)
	return b, shapes
}

// parts hands out the bodies and shapes of a world as it is built, each
// kind in one allocation for the table (a 48-object table's build made
// 343 allocations, now 124). The shapes are copies (cp.ShapeCopier) of
// one box for every block of a size and one ring for every bowl of a
// size: a shape's values depend on its size alone, and were computed
// anew for each body.
type parts struct {
	bodies []cp.Body
	shapes []*cp.Shape
	copier cp.ShapeCopier
	boxes  []prototype
	rings  []prototype
}

// prototype is the shapes of a block or a bowl of one size, in no space
// and on no body, with the friction and elasticity of the table.
type prototype struct {
	size   float64 // a block's side or a bowl's radius, engine units
	shapes []*cp.Shape
}

// newParts makes room for the parts of blocks blocks and bowls bowls.
func newParts(blocks, bowls int) *parts {
	p := &parts{
		bodies: make([]cp.Body, blocks+bowls),
		shapes: make([]*cp.Shape, blocks+bowls*rimSegments),
	}
	p.copier.Reserve(bowls*rimSegments, blocks)
	return p
}

// body returns a new body of the given mass and moment.
func (p *parts) body(mass, moment float64) *cp.Body {
	if len(p.bodies) == 0 {
		p.bodies = make([]cp.Body, 1)
	}
	b := cp.InitBody(&p.bodies[0], mass, moment)
	p.bodies = p.bodies[1:]
	return b
}

// copies returns copies of protos for body.
func (p *parts) copies(protos []*cp.Shape, body *cp.Body) []*cp.Shape {
	n := len(protos)
	if len(p.shapes) < n {
		p.shapes = make([]*cp.Shape, n)
	}
	out := p.shapes[:n:n]
	p.shapes = p.shapes[n:]
	for i, proto := range protos {
		out[i] = p.copier.Copy(proto, body)
	}
	return out
}

// box returns the prototype of a block of the given side (engine units).
func (p *parts) box(side float64) []*cp.Shape {
	if side == sceneBox.size {
		return sceneBox.shapes
	}
	return findPrototype(&p.boxes, side, newBox)
}

// ring returns the prototype of a bowl's rim of radius r (engine units),
// with no collision group yet.
func (p *parts) ring(r float64) []*cp.Shape {
	if r == sceneRing.size {
		return sceneRing.shapes
	}
	return findPrototype(&p.rings, r, newRing)
}

// sceneBox and sceneRing are the prototypes of the scenes' own block and
// bowl, made once and only read, by any number of worlds at once: a
// world's own prototypes were 7 KB of the 42 KB a 6-object world
// allocated. Their sizes are computed as newBlockBody and newBowlBody
// compute them from an object's extent.
var (
	sceneBox  = prototype{scenes.NewBlock("", "", 0, 0).Extent.X() * cm, nil}
	sceneRing = prototype{scenes.NewBowl("", "", 0, 0).Extent.X() / 2 * cm, nil}
)

func init() {
	sceneBox.shapes = newBox(sceneBox.size)
	sceneRing.shapes = newRing(sceneRing.size)
}

// findPrototype returns the prototype of the given size in protos, or
// makes one with newShapes and adds it to protos.
func findPrototype(protos *[]prototype, size float64, newShapes func(float64) []*cp.Shape) []*cp.Shape {
	for _, q := range *protos {
		if q.size == size {
			return q.shapes
		}
	}
	shapes := newShapes(size)
	*protos = append(*protos, prototype{size, shapes})
	return shapes
}

// newBox makes the prototype of a block of the given side (engine units).
func newBox(side float64) []*cp.Shape {
	sh := cp.NewBox(nil, side, side, 0)
	sh.SetFriction(0.6)
	sh.SetElasticity(0)
	sh.SetFilter(filterTable)
	return []*cp.Shape{sh}
}

// newRing makes the prototype of a bowl's rim of radius r (engine units).
func newRing(r float64) []*cp.Shape {
	var ends [2][rimSegments]cp.Vector
	for i := range rimSegments {
		ends[0][i], ends[1][i] = rimCorners[i].Mult(r), rimCorners[i+1].Mult(r)
	}
	shapes := cp.NewSegments(nil, ends[0][:], ends[1][:], rimRadius, make([]*cp.Shape, 0, rimSegments))
	for _, sh := range shapes {
		sh.SetFriction(0.6)
		sh.SetElasticity(0)
	}
	return shapes
}

// rimCorners are the ends of a bowl's rim segments on the unit circle,
// computed once rather than once a bowl: segment i runs from corner i to
// corner i+1, and the last corner is the first's angle plus a full turn.
var rimCorners = func() (c [rimSegments + 1]cp.Vector) {
	for i := range c {
		c[i] = cp.ForAngle(2 * 3.141592653589793 * float64(i) / rimSegments)
	}
	return c
}()

// newGripper builds the kinematic gripper at (x, y).
func newGripper(s *cp.Space, x, y float64) *cp.Body {
	g := cp.NewKinematicBody()
	g.SetPosition(vec(x, y))
	s.AddBody(g)
	return g
}

// grasp joins the gripper and a body at the body's centre. The joint is
// stiffer than cp's default (a tenth of the error a step), as a gripper's
// hold is, so the body follows the gripper closely and closes the last of
// its lag in a step or two once the gripper stops.
func grasp(s *cp.Space, gripper, body *cp.Body) *cp.Constraint {
	j := cp.NewPivotJoint(gripper, body, body.Position())
	j.SetErrorBias(math.Pow(1-graspStiffness, 1/stepDT))
	s.AddConstraint(j)
	return j
}

// setFilter puts every shape of a body in a collision category.
func setFilter(shapes []*cp.Shape, f cp.ShapeFilter) {
	for _, sh := range shapes {
		sh.SetFilter(f)
	}
}
