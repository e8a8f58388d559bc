package physics

import (
	"math"

	"github.com/jakecoffman/cp/v2"
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
func newBlockBody(s *cp.Space, add addShape, x, y, size float64) (*cp.Body, []*cp.Shape) {
	side := size * cm
	b := cp.NewBody(blockMass, cp.MomentForBox(blockMass, side, side))
	b.SetPosition(vec(x, y))
	s.AddBody(b)
	sh := cp.NewBox(b, side, side, 0)
	sh.SetFriction(0.6)
	sh.SetElasticity(0)
	sh.SetFilter(filterTable)
	add(s, sh)
	return b, []*cp.Shape{sh}
}

// newBowlBody builds a bowl of the given diameter (metres) at (x, y): a
// ring of segments around a hollow middle. Its segments share a collision
// group of their own, which no other bowl of the space may use: cp never
// collides shapes of one body, and with the group a shape query rejects
// them before it computes their contact, not after (neighbouring
// segments overlap where they join).
func newBowlBody(s *cp.Space, add addShape, x, y, diameter float64, group uint) (*cp.Body, []*cp.Shape) {
	filter := cp.NewShapeFilter(group, catTable, catTable)
	r := diameter / 2 * cm
	b := cp.NewBody(bowlMass, cp.MomentForCircle(bowlMass, r-rimRadius, r, cp.Vector{}))
	b.SetPosition(vec(x, y))
	s.AddBody(b)
	var ends [2][rimSegments]cp.Vector
	for i := range rimSegments {
		ends[0][i], ends[1][i] = rimCorners[i].Mult(r), rimCorners[i+1].Mult(r)
	}
	// The sixteen segments in one allocation (cp.NewSegments).
	shapes := cp.NewSegments(b, ends[0][:], ends[1][:], rimRadius, make([]*cp.Shape, 0, rimSegments))
	for _, sh := range shapes {
		sh.SetFriction(0.6)
		sh.SetElasticity(0)
		sh.SetFilter(filter)
	}
	add(s, shapes...)
	return b, shapes
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
