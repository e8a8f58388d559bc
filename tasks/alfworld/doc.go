// Package alfworld defines the tasks of the household track: ALFWorld's
// six task types over houses drawn by [scenes.GenerateHouse], played in
// the text world of sim/textworld.
//
// A [Game] is a house, an instruction in ALFWorld's style, the [Goal] the
// final state must meet, and the ground truth of its ambiguity (Label and
// the user's Answer). Success is the goal holding on the engine's state,
// never the agent saying it is done:
//
//	pick_and_place          put a mug in coffeemachine.       a mug in or on a coffeemachine
//	look_at_obj_in_light    look at a book under the desklamp. holding a book where a desklamp is on
//	pick_clean_then_place   put a clean mug in coffeemachine.  a clean mug there
//	pick_heat_then_place    heat some egg and put it in fridge. a hot egg there
//	pick_cool_then_place    put a cool tomato in countertop.   a cold tomato there
//	pick_two_obj_and_place  put two pen in drawer.             two pens in one drawer
//
// Each type has two phrasings, as ALFWorld's do; "a mug" means any mug.
// Games allow [StepLimit] commands.
//
// # Splits
//
// [EvalGames] is a fixed evaluation split of 134 games in the proportions
// of ALFWorld's valid_unseen (24 put, 31 clean, 23 heat, 21 cool, 18
// examine, 17 pick-two); [TrainGames] is a training split whose seeds are
// hashed from another name, so the two never meet. A [Spec] has a stable
// id ("eval/pick_cool_then_place/03") and seed; [Spec.Build] makes its
// game, perturbed or not.
//
// # Perturbations
//
// The tabletop's ambiguities apply to a game too, under the same names
// and labels, as building blocks of this package: [Absence] (the named
// kind is gone; the user offers another), [Multiplicity] ("the mug" among
// several; the user says which by colour, owner or name),
// [Underspecified] ("put something cool in countertop."; the user names
// the kind) and [PartialObservability] (every object of the kind is
// inside closed receptacles; exploring finds it). Package perturb
// registers them, with the tabletop's perturbations of the same names;
// this package does not import perturb. [Spec.BuildWith] applies any
// [Perturbation] (perturb.Household satisfies it), so a new one may live
// anywhere and use only what Game exports: its House, Instruction, Goal,
// Label and Answer, [Game.Refer] to say the instruction again, [Indefinite]
// and [Plural] to word an answer. [Spec.Build], [Perturbations] and
// [Applies] know the built-ins by name, for older callers.
//
// # Expert
//
// [Expert] gives a shortest command sequence from any state, reading the
// whole state; its comment says why it is shortest, and a test checks it
// against breadth-first search over the engine. It is for the oracle agent
// and for the optimal length that steps are compared against.
//
// This package imports scenes and tasks (for the labels) only; it writes
// commands as text and never runs the engine.
package alfworld
