package reports

import "github.com/ambibench/ambibench/results"

// rec builds a record for aggregation tests.
func rec(agent, family, perturbation string, ada, success bool) results.Record {
	r := validRecord()
	r.Agent, r.Family, r.Perturbation = agent, family, perturbation
	r.ADA, r.Success = ada, success
	r.Questions, r.TagCorrect = 0, 0
	return r
}

// validRecord returns a record that passes Validate; tests change one thing.
func validRecord() results.Record {
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
