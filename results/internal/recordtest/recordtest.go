// Package recordtest holds the records the tests of the results packages
// build on: one that passes Validate, and one for aggregation, so that
// every package's tests change one field of the same record. (Package
// results' own tests keep a copy: they cannot import a package that
// imports results.)
package recordtest

import "github.com/ambibench/ambibench/results"

// Valid returns a record that passes Validate; tests change one thing.
func Valid() results.Record {
	return results.Record{Suite: 1, Outcome: results.OutcomeScored,
		Schema:       results.SchemaVersion,
		Track:        "tabletop",
		Family:       "pick_place",
		Perturbation: "absence",
		Label:        "absence",
		Agent:        "sgcot",
		Model:        "sim",
		Seed:         42,
		Episode:      7,
		Instruction:  "put the red block in the blue bowl",
		Asked:        true,
		Tag:          "absence",
		Questions:    1,
		TagCorrect:   1,
		ADA:          true,
		Steps:        4,
		ToolCalls:    map[string]int{"ask": 1, "retrieve_node": 3},
		WallMS:       1.5,
	}
}

// Rec builds a record for aggregation tests: Valid's, with the agent, the
// cell and the outcome given, and no question.
func Rec(agent, family, perturbation string, ada, success bool) results.Record {
	r := Valid()
	r.Agent, r.Family, r.Perturbation = agent, family, perturbation
	r.ADA, r.Success = ada, success
	r.Questions, r.TagCorrect = 0, 0
	return r
}
