// Package tabletop is the tabletop track of the harness: a physics table
// of blocks and bowls (sim/physics), one robot or two with private views
// and a shared workspace, the task families of package tasks under the
// perturbations of package perturb that implement perturb.Tabletop,
// scored by ADA and SR.
//
// [Track.NewEpisode] draws the episode ([MakeEpisodeSized]: the family's
// draw, the perturbation, then distractors up to the scene size, each
// redrawn when it does not fit) and builds the physics; bench.RunEpisode
// plays it, with each robot's agent given an agents.Env over its own
// (possibly noisy) view, the simulated user, ask_robot messages passed to
// the partner robot's agent and the step limit enforced, and the episode
// scores the settled table. The calibration
// split ([Calibration]), on which agents such as clara fit thresholds, is
// drawn from a seed of its own, apart from the test episodes.
package tabletop
