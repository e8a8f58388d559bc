// Package perturb turns a clear episode into an ambiguous or harder one and
// records the ground truth: the ambiguity label and what the simulated user
// answers to a question that carries the right tag.
//
// The built-in perturbations are none, absence (the referred object or the
// destination is removed), multiplicity (a second object matching the
// phrase is added), underspecified (the phrase becomes vague, or the
// destination is dropped) and partial_observability (two robots; the block
// sits in the other robot's private workspace). Two more keep the
// instruction clear and add noise instead ([Noisy]): scene_graph_noise (the
// robot's scene graph drops, invents and misreads) and execution_noise
// (grasps slip, placements stray).
//
// Adding one is one file and one [Register] call in its init function; the
// benchmark grid, the runner and the command line pick it up with no other
// change.
package perturb
