// Package scenes is the shared vocabulary of ambibench: the objects of a
// world, the scene graph an agent queries, and the generators that lay out
// random worlds.
//
// An [Object] has an id such as "red block 1", a class, attributes (colour,
// size), a pose and an extent in metres, and the region of the table it lies
// in. [BuildGraph] derives a [Graph] from a set of objects: one node per
// object, and edges whose relations (left_of, right_of, above, below,
// inside_of, on_top_of, near) follow from the poses alone, so the graph is
// always consistent with the world it describes.
//
// Agents look at a graph through two queries, after section 3.3 of the SG-CoT
// paper: [Graph.RetrieveNode] filters nodes by name or by one attribute, and
// [Graph.RetrieveEdge] filters edges by any of source, target and relation.
// The graph travels as JSON in the shape
//
//	{"nodes":[{"id":…,"attributes":{…}}],"edges":[{"source":…,"target":…,"relation":…}]}
//
// read back by [DecodeGraph], which names the field at fault in its errors.
//
// The table is the SayCan/KnowNo table: x in [-0.3, 0.3] m, y in
// [-0.8, -0.2] m, with nine named places and, for two robots, three strips:
// robot 1's private workspace on the left, the shared workspace in the
// middle, robot 2's on the right. [Layout] places objects on it with a
// minimum spacing, drawing from a caller's random stream so that a layout is
// fixed by its seed. A [Mask] marks the points a spacing test certainly
// refuses, and [Layout.AddSpacedOff] draws only among the points it leaves
// free: that is how a crowded table of distractors is filled.
//
// For the household track, a [House] is the state of a text world as plain
// data: receptacles ("cabinet 3"), items in or on them ("apple 1", with
// hot, cold, clean, on, colour and owner), where the agent stands and what
// it holds. One knowledge table ([Kinds]) says which receptacles each room
// type has, which objects lie where, and what can be done with each;
// [GenerateHouse] furnishes rooms from it, fixed by its seed.
//
// scenes imports no other package of the project.
package scenes
