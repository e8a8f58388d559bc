// Package household is the household track of the harness: the
// ALFWorld-like text world (sim/textworld), whose task families are
// ALFWorld's six task types and whose episodes are the games of the
// 134-game evaluation split (tasks/alfworld), under the perturbations of
// package perturb that implement perturb.Household.
//
// An episode is one game played over up to Track.Trials trials from the
// same start, so that an agent that reflects between trials can try
// again; SR is the goal reached at the end of some trial, and the record
// counts the reflections, their tokens and tools, and the redundant ones.
// The package also builds the solved cases dyref's key_rules tool reads
// ([SolvedCases], which agents/household embeds) and trains dyref's router
// on the training split ([TrainRouter]).
package household
