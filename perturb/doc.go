// Package perturb turns a clear episode into an ambiguous or harder one and
// records the ground truth: the ambiguity label and what the simulated user
// answers to a question that carries the right tag. It is the one registry
// of perturbations for every track.
//
// The built-in perturbations are none, absence (the referred object or the
// destination is removed), multiplicity (a second object matching the
// phrase is added), underspecified (the phrase becomes vague, or the
// destination is dropped) and partial_observability (two robots; the block,
// or its destination, drawn per episode and recorded as the episode's
// OutOfView, sits in the other robot's private workspace). Two more keep the
// instruction clear and add noise instead ([Noisy]): scene_graph_noise (the
// robot's scene graph drops, invents and misreads) and execution_noise
// (grasps slip, placements stray). The first five also apply to the
// household track, under the same names and labels (see
// tasks/alfworld's Absence, Multiplicity, Underspecified and
// PartialObservability).
//
// # Tracks
//
// A [Perturbation] is a name and a description. It says which tracks it
// applies to, and what it does on each, by implementing their interfaces:
//
//   - [Tabletop]: Applies(tasks.Family) and Apply(rng, *tasks.Episode);
//   - [Household]: AppliesToGame(taskType) and ApplyGame(rng,
//     *household.Game), which household.Spec.BuildWith calls.
//
// One value may implement both, as the built-ins do: one file per name.
// [Register] refuses (panics on) a perturbation that implements no
// track's interface, as it does a name registered twice. Each grid takes
// its perturbations in registry order: [ForTabletop] ([Lookup], [Names])
// and [ForHousehold] ([LookupHousehold], [HouseholdNames]).
//
// A further track needs no change here: it defines its own interface in
// its own package (embedding [Perturbation]), calls [DeclareTrack] with it
// in an init function so that Register accepts perturbations of that
// track only, and finds them with [For] and [LookupFor] (or by a type
// assertion over [All]). Nothing in this package lists the tracks'
// perturbations by hand.
//
// Adding a perturbation is one file and one [Register] call in its init
// function, in this package or any other; the grids, the runner and the
// command line pick it up with no other change. The registry's tests hold
// every registered perturbation, on every track it implements, to the
// same properties: the reference solution solves its cells (at least at
// the rate it declares as an [OracleRater], if it is noise), its label is
// none or a known tag, the user answers exactly when the label is one of
// tasks.UserTags, and the same seed gives the same episode.
package perturb
