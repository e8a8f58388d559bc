// Package tasks defines the task families of the tabletop track: how an
// episode's table is laid out, what the instruction says, which objects it
// refers to, and the goal predicate its final state must satisfy.
//
// The families follow Table 1 of the SG-CoT paper, plus a two-robot one:
//
//   - pick_place: one block to a bowl or onto another block;
//   - long_horizon: two or three blocks, each to its own bowl, in one
//     instruction;
//   - spatial: the block is named by its relation to a reference object
//     ("the block to the left of the blue bowl");
//   - handover: two robots; the block starts in robot 2's workspace and must
//     reach a bowl in robot 1's, through the shared workspace.
//
// An [Episode] keeps the instruction as a template with one slot per
// referring phrase ("Pick up {pick0} and place it {place0}."), so that a
// perturbation can rewrite a phrase, drop a destination or move an object
// and the instruction follows. The objects the user means are recorded by
// id in the episode's [Move]s; the goal is built from them, so it states the
// user's intent whatever the instruction says.
//
// A family is one file and one [Register] call.
//
// The household track's tasks are in
// [github.com/ambibench/ambibench/tasks/alfworld].
package tasks
