// Package dyref holds the model-free parts of DyRef (the DyRef paper), the
// reflection scheme that spends effort on a failed household trial in
// proportion to how hard the task is: a diagnostic graph of the trial,
// complexity factors measured on it, and a routing policy that maps them
// to the reflection tools worth running. The agent and its prompts live
// in package agents/household, its training runs in package bench;
// nothing here calls a model.
//
// # Graph
//
// [Build] reads a trial (a housework.State: the task sentence, the room's
// opening, the turns) into a [Graph]. The task gives a goal node, a chain
// of sub-goals (find, take, heat/cool/clean with the appliance, use the
// lamp, put in the destination; one chain per object for two-object
// tasks, the second taken only once the first is down), one node per
// target object, and place nodes for the kinds the task needs (appliance,
// destination, lamp). Receptacle nodes are the room's receptacles the task
// touches: where a target could be (the knowledge table's places for its
// kind, scenes.Kind.On, or every receptacle when the kind is unknown or
// not said, less the destination's kind, which the games keep clear of
// it), the instances of each place kind, and where the trial found a
// target or the lamp. Each distinct command or question of the trial is an
// action node pointing at what it names; a repeated command shows as
// "go to fridge 1 ×3" and one extra edge a repeat.
//
// Edges are dependency (from what needs to what is needed), interaction
// (a target to the place it is treated, lit or put at) and spatial (a
// thing to where it could be, or a receptacle to what was found in it).
//
// # Factors
//
// [Graph.Factors] measures four things: Dependency, the longest path of
// dependency edges (a plain put is 4: goal, put, take, find, object; a
// heat adds one; a second object adds two); Interaction, each interaction
// once plus once more when its place must be opened or switched on;
// Spatial, the receptacles a target could be in or was found in; and
// Structure, a Weisfeiler–Lehman subtree embedding in StructureDims
// buckets, the light stand-in for the paper's Graph2Vec. Its initial
// labels are a node's kind and class — the task type, the sub-goal's verb,
// the object's or receptacle's kind without instance numbers, the
// action's verb with a mark when repeated — refined twice over both
// directions of every edge, each neighbour marked with the edge's kind and
// direction; each of the 3·n labels is hashed with 64-bit FNV-1a to a
// bucket, and a bucket holds the share of labels that fell in it, so the
// embedding is in [0, 1], sums to 1, and does not grow with the graph
// (size is what the other three factors say). [Factors.Vector] lays them
// out in that order, 3+StructureDims numbers.
//
// # Router
//
// A [Router] is a one-hidden-layer perceptron (gonum's mat) from the
// factor vector, standardised, to a softmax over the subsets of its tools:
// the paper's three ([KeyRules], [Experience], [Lesson]; [PaperTools]),
// eight classes, or those and this project's [Ambiguity], sixteen.
// [Router.Label] takes the most probable; [Router.Route], once the router
// knows each subset's mean cost ([Router.WithCosts]), takes the subset
// with the best expected pseudo-label objective (see [Router]). Plan
// construction is not
// routed: the agent runs it after any non-empty subset, and an empty one
// means no reflection at all.
//
// Training labels are pseudo-labels. For each failure of the training
// split the caller reflects with every subset a, runs the next attempt,
// and records its success S(a) and the reflection's tokens cost(a);
// [PseudoLabel] picks a* = argmax_a [S(a) − α·cost(a)/1000], so α prices
// 1,000 tokens in success, ties going to fewer tools. The factor vector of
// the failure and a* make one [Example]; [Train] fits the router by
// full-batch Adam from a seed, deterministically, and [Router.WriteTo] /
// [ReadRouter] keep it in a small JSON file whose bytes are the same for
// the same training.
package dyref
