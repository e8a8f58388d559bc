package cp

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

	for _, shape := range body.shapeList {
		shape.CacheBB()
	}
	space.Deactivate(body)

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
