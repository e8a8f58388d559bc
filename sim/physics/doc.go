// Package physics simulates the table of blocks and bowls on which the
// tabletop track is played, with the 2-D rigid-body engine
// github.com/jakecoffman/cp/v2 seen from above.
//
// Blocks are square bodies; a bowl is a heavy body whose rim is a ring of
// segments, so a block dropped inside stays inside and a block dropped
// against it is pushed off. The table has no gravity in the plane; friction
// with the table top is the space's damping. Height is discrete: a block
// lies on the table (level 0), is stacked on another block (level 1, held to
// the one below by a pivot joint), or is carried (it collides with nothing).
//
// The gripper is a kinematic body. [World.PickAndPlace] moves it to the
// object, grasps by a pivot joint, carries the object along a straight path,
// lowers and releases it, and steps the space until every body has settled.
// Whether the block ends in the bowl, at the place, or pushed elsewhere is
// what the physics says, judged on the settled state.
// [World.PickAndPlaceAt] takes the place as a point of the table instead
// of a name, for a robot that acts where its camera saw something.
//
// A settled world sleeps: bodies at rest are not integrated or collided
// with each other, so a step costs only what moves, and a body touched by
// a moving one wakes with everything it touches or is stacked with. A
// step that would change nothing (no body awake moves or overlaps
// another) is not taken.
//
// cp is a fork of v2.4.0 in third_party/cp (its FORK.md says what it
// changes); this package alone uses it, behind the World type.
//
// Execution noise (placement error, grasp slips) is off by default and
// drawn from the world's own seeded stream when on.
//
// Distances in the public API are metres; inside the engine they are
// centimetres, which keeps cp's tolerances in their intended range.
package physics
