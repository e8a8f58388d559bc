package cp

import "slices"

// SleepWithGroup puts a dynamic body to sleep now, whatever its idle time:
// Chipmunk's cpBodySleepWithGroup, which the Go port left out. A sleeping
// body is not integrated, its shapes move to the static index, and it
// wakes, with every body of its group, when an awake body touches it, a
// constraint is added to or removed from it, or it is moved or pushed
// through the API. With group nil the body starts a group of its own;
// otherwise it joins group's, which must be asleep. Bodies joined by a
// constraint must sleep in one group, so that they wake together.
//
// The space must allow sleeping (a SleepTimeThreshold other than
// INFINITY); a large finite threshold lets a program decide alone when
// bodies sleep.
func (body *Body) SleepWithGroup(group *Body) {
	space := body.space
	assert(body.GetType() == BODY_DYNAMIC, "Non-dynamic bodies cannot be put to sleep.")
	assert(space != nil, "Cannot put a body to sleep that has not been added to a space.")
	assert(space.SleepTimeThreshold != INFINITY, "Sleeping is not enabled on the space.")
	assert(space.locked == 0, "Cannot put a body to sleep during a step or query.")
	assert(group == nil || group.IsSleeping(), "Cannot use a non-sleeping body as a group identifier.")

	if body.IsSleeping() {
		assert(body.ComponentRoot() == group.ComponentRoot(), "The body is already sleeping in another group.")
		return
	}

	if body.builtAsleep {
		// Its shapes are where Deactivate would move them, with the bounds
		// CacheBB would give them: the body has not moved since.
		body.builtAsleep = false
		space.builtAsleep -= uint(len(body.shapeList))
		space.deactivateIndexed(body)
	} else {
		for _, shape := range body.shapeList {
			shape.CacheBB()
		}
		space.Deactivate(body)
	}
	body.joinSleepingGroup(group)
}

func (body *Body) joinSleepingGroup(group *Body) {
	space := body.space
	if group != nil {
		root := group.ComponentRoot()
		body.sleepingRoot = root
		body.sleepingNext = root.sleepingNext
		body.sleepingIdleTime = 0
		root.sleepingNext = body
	} else {
		body.sleepingRoot = body
		body.sleepingNext = nil
		body.sleepingIdleTime = 0
		space.sleepingComponents = append(space.sleepingComponents, body)
	}
}

// AddShapeAsleep adds a shape of a dynamic body that is to sleep from the
// start, as AddShape and then SleepWithGroup would leave it, without
// the round trip through the dynamic index: the shape goes straight into
// the static index, where SleepWithGroup would move it, and is numbered as
// AddShape numbers it. The body must then be put to sleep with
// SleepWithGroup before the space steps, and before any other body moves
// or is added a constraint; until then it stands in the static index, which
// queries read alike. The dynamic index grows as though the shape had
// passed through it, since the order in which it later walks its leaves
// depends on its size: a space built with AddShapeAsleep steps to the same
// bits as one built with AddShape and put to sleep body by body.
//
// Every shape of the body must be added by AddShapeAsleep or
// AddShapesAsleep, and no shape of it by AddShape. A body of several
// shapes takes them all in one AddShapesAsleep: added one at a time they
// would not stand in the static index as SleepWithGroup puts them.
func (space *Space) AddShapeAsleep(shape *Shape) *Shape {
	space.AddShapesAsleep(shape)
	return shape
}

// AddShapesAsleep is AddShapeAsleep for every shape of a body at once:
// they go into the static index as one subtree, as SleepWithGroup (through
// Deactivate) puts a body's shapes there, so that a body built asleep
// and one built awake and put to sleep leave the same tree. A body built
// asleep takes all its shapes in one call.
func (space *Space) AddShapesAsleep(shapes ...*Shape) {
	if len(shapes) > 0 {
		// A bowl's sixteen shapes grew its list five times.
		body := shapes[0].Body()
		body.shapeList = slices.Grow(body.shapeList, len(shapes))
	}
	before := space.builtAsleep
	for _, shape := range shapes {
		space.addShapeAsleep(shape)
	}
	leaves := space.dynamicShapes.class.(*BBTree).leaves
	leaves.growThrough(leaves.entries+before+1, leaves.entries+space.builtAsleep)
	space.insertStatic(shapes)
	for _, shape := range shapes {
		shape.SetSpace(space)
	}
}

// addShapeAsleep is AddShapeAsleep but for the static index and the
// shape's space, which AddShapesAsleep sets for all its shapes at once.
func (space *Space) addShapeAsleep(shape *Shape) {
	body := shape.Body()
	assert(body.GetType() == BODY_DYNAMIC, "Only a dynamic body can be built asleep.")
	assert(shape.space == nil, "You have already added this shape to a space.")
	assert(space.locked == 0, "This operation cannot be done safely during a call to cpSpaceStep() or during a query. Put these calls into a post-step callback.")
	assert(body.space == space, "Add the body to the space before its shapes.")
	assert(!body.IsSleeping(), "The body is asleep already.")
	assert(len(body.shapeList) == 0 || body.builtAsleep, "Every shape of a body built asleep is added by AddShapeAsleep.")

	body.builtAsleep = true
	body.AddShape(shape)
	shape.SetHashId(HashValue(space.shapeIDCounter))
	space.shapeIDCounter += 1
	shape.Update(body.transform)

	// The dynamic index's leaf set grows as an insertion would have grown
	// it (AddShapesAsleep, through HashSet.growThrough): every shape built
	// asleep sits in it at once on the way of AddShape, which adds them
	// all before any sleeps.
	space.builtAsleep++
}
