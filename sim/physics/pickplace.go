package physics

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/jakecoffman/cp/v2"

	"github.com/ambibench/ambibench/scenes"
)

// ActionError is an action the world refused, with the reason. The world
// is unchanged by a refused action.
type ActionError struct {
	Action string
	Reason string
}

func (e *ActionError) Error() string { return e.Action + ": " + e.Reason }

// Outcome is what a pick-and-place did.
type Outcome struct {
	// Slipped is true when the grasp slipped and the object was dropped
	// short of its destination. Only execution noise makes it true; the
	// robot does not know it, and must look to find out.
	Slipped bool
	// Steps is the number of physics steps the action took.
	Steps int
}

// target is where a placement goes: a point, and the block to stack on if
// the destination is a block.
type target struct {
	point mgl64.Vec2
	onto  *item
}

// PickAndPlace has a robot pick up a block and put it at place: a bowl, a
// block (to stack on it), a named place of the table, or the shared
// workspace. An invalid action returns an *ActionError and changes nothing.
func (w *World) PickAndPlace(robot, pick, place string) (Outcome, error) {
	refuse := func(format string, args ...any) (Outcome, error) {
		return Outcome{}, &ActionError{
			Action: fmt.Sprintf("pick_and_place(%q, %q)", pick, place),
			Reason: fmt.Sprintf(format, args...),
		}
	}
	it, reason := w.pickable(robot, pick)
	if reason != "" {
		return refuse("%s", reason)
	}
	tgt, reason := w.resolvePlace(robot, it, place)
	if reason != "" {
		return refuse("%s", reason)
	}
	if region := scenes.RegionAt(w.cfg.TwoRobots, tgt.point.X(), tgt.point.Y()); !scenes.Reaches(robot, region) {
		return refuse("%s is out of %s's reach (it is in the %s workspace)", place, robot, region)
	}
	return w.execute(it, tgt), nil
}

// PickAndPlaceAt is [World.PickAndPlace] with the place a point (x, y) of
// the table top, in metres: the block is carried there and lowered onto
// the table, where it collides with whatever stands there, as at a named
// place. A point off the table top ([scenes.Table]) or out of the robot's
// reach is refused.
func (w *World) PickAndPlaceAt(robot, pick string, x, y float64) (Outcome, error) {
	refuse := func(format string, args ...any) (Outcome, error) {
		return Outcome{}, &ActionError{
			Action: fmt.Sprintf("pick_and_place(%q, (%.3f, %.3f))", pick, x, y),
			Reason: fmt.Sprintf(format, args...),
		}
	}
	it, reason := w.pickable(robot, pick)
	if reason != "" {
		return refuse("%s", reason)
	}
	if !scenes.Table.Contains(x, y) { // false for NaN too
		return refuse("(%.3f, %.3f) is off the table (x from %g to %g, y from %g to %g)",
			x, y, scenes.TableMinX, scenes.TableMaxX, scenes.TableMinY, scenes.TableMaxY)
	}
	if region := scenes.RegionAt(w.cfg.TwoRobots, x, y); !scenes.Reaches(robot, region) {
		return refuse("(%.3f, %.3f) is out of %s's reach (it is in the %s workspace)", x, y, robot, region)
	}
	return w.execute(it, target{point: mgl64.Vec2{x, y}}), nil
}

// pickable returns the block robot would pick up by the id pick, or why
// it cannot.
func (w *World) pickable(robot, pick string) (*item, string) {
	if robot != scenes.Robot1 && !(w.cfg.TwoRobots && robot == scenes.Robot2) {
		return nil, fmt.Sprintf("no robot %q at this table", robot)
	}
	it := w.find(pick)
	if it == nil || !w.visible(robot, it) {
		return nil, fmt.Sprintf("no object %q in view", pick)
	}
	if it.obj.Class != scenes.ClassBlock {
		return nil, fmt.Sprintf("%s is a %s; only blocks can be picked up", pick, it.obj.Class)
	}
	if top := w.onTopOf(it); top != nil {
		return nil, fmt.Sprintf("%s is under %s", pick, top.obj.ID)
	}
	if region := w.regionOf(it); !scenes.Reaches(robot, region) {
		return nil, fmt.Sprintf("%s is out of %s's reach (it is in the %s workspace)", pick, robot, region)
	}
	return it, ""
}

func (w *World) visible(robot string, it *item) bool {
	return scenes.Sees(robot, w.regionOf(it), w.cfg.PartialView)
}

func (w *World) regionOf(it *item) string {
	p := it.body.Position()
	return scenes.RegionAt(w.cfg.TwoRobots, p.X/cm, p.Y/cm)
}

func (w *World) resolvePlace(robot string, it *item, place string) (target, string) {
	if p, ok := scenes.Places[place]; ok {
		return target{point: p}, ""
	}
	if place == scenes.SharedPlace {
		if !w.cfg.TwoRobots {
			return target{}, "there is no shared workspace at a one-robot table"
		}
		return target{point: scenes.SharedPoint}, ""
	}
	dst := w.find(place)
	if dst == nil || !w.visible(robot, dst) {
		return target{}, fmt.Sprintf("no object or place %q in view", place)
	}
	if dst == it {
		return target{}, fmt.Sprintf("cannot place %s on itself", place)
	}
	p := dst.body.Position()
	pt := mgl64.Vec2{p.X / cm, p.Y / cm}
	if dst.obj.Class == scenes.ClassBlock {
		if top := w.onTopOf(dst); top != nil {
			return target{}, fmt.Sprintf("%s already has %s on it", place, top.obj.ID)
		}
		if dst.level > 0 {
			return target{}, fmt.Sprintf("%s is itself stacked; stacks are at most two blocks high", place)
		}
		return target{point: pt, onto: dst}, ""
	}
	return target{point: pt}, ""
}

// execute runs an accepted pick-and-place through the physics.
func (w *World) execute(it *item, tgt target) Outcome {
	start := w.steps
	// The empty gripper has no shape and touches nothing, so its approach
	// leaves the world as it is: it is set at the object rather than stepped
	// there.
	w.gripper.SetPosition(it.body.Position())
	w.gripper.SetVelocity(0, 0)
	w.unstack(it)
	setFilter(it.shapes, filterCarried)
	joint := grasp(w.space, w.gripper, it.body)

	dest := tgt.point
	if w.cfg.PlaceNoise > 0 {
		dest = dest.Add(mgl64.Vec2{w.rng.NormFloat64() * w.cfg.PlaceNoise, w.rng.NormFloat64() * w.cfg.PlaceNoise})
	}
	slipAt := 2.0 // fraction of the path at which the grasp slips; >1 never
	if w.cfg.SlipRate > 0 && w.rng.Float64() < w.cfg.SlipRate {
		slipAt = 0.2 + 0.6*w.rng.Float64()
	}
	from := w.gripper.Position()
	to := vec(dest.X(), dest.Y())
	slipped := w.carry(from, to, slipAt)
	if !slipped {
		w.catchUp(it.body)
	}
	w.space.RemoveConstraint(joint)
	w.gripper.SetVelocity(0, 0)
	it.body.SetVelocity(0, 0)
	it.body.SetAngularVelocity(0)
	w.lower(it, tgt, slipped)
	w.settle()
	return Outcome{Slipped: slipped, Steps: w.steps - start}
}

// carry moves the gripper from a to b at carrySpeed, stepping the space.
// It stops early, reporting true, when the path fraction reaches slipAt.
func (w *World) carry(a, b cp.Vector, slipAt float64) bool {
	d := b.Sub(a)
	dist := d.Length()
	n := int(math.Ceil(dist / (carrySpeed * stepDT)))
	if n == 0 {
		return false
	}
	v := d.Mult(1 / (float64(n) * stepDT))
	w.gripper.SetVelocityVector(v)
	for i := range n {
		if float64(i)/float64(n) >= slipAt {
			w.gripper.SetVelocity(0, 0)
			return true
		}
		w.step()
	}
	w.gripper.SetVelocity(0, 0)
	w.gripper.SetPosition(b)
	return false
}

// catchUp lets the carried body close the last of its lag behind the
// stopped gripper before the release, and ends as soon as it has.
//
// The body stops with the gripper first. The grasp holds the body's
// velocity to the gripper's only within a step, so a body left with the
// carrying velocity would travel one more step at full speed (2.5 cm)
// and come back from the far side; that overshoot is what kept the lag
// above catchUpLag for all catchUpSteps steps before.
func (w *World) catchUp(body *cp.Body) {
	body.SetVelocity(0, 0)
	body.SetAngularVelocity(0)
	for range catchUpSteps {
		if w.gripper.Position().Distance(body.Position()) < catchUpLag {
			return
		}
		w.step()
	}
}

// lower puts a released block down: on the block it was aimed at if it
// lands over that block's top face, otherwise on the table, where it
// collides with what is there.
func (w *World) lower(it *item, tgt target, slipped bool) {
	if tgt.onto != nil && !slipped {
		p := it.body.Position()
		q := tgt.onto.body.Position()
		half := tgt.onto.obj.Extent.X() / 2 * cm
		if math.Abs(p.X-q.X) <= half && math.Abs(p.Y-q.Y) <= half {
			w.stack(it, tgt.onto)
			return
		}
	}
	setFilter(it.shapes, filterTable)
}
