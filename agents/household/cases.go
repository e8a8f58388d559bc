package household

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

// The solved cases are DyRef's toolkit examples (key_rules shows them).
// bench/household makes them from the household's training split, which
// no agent may import (tasks/alfworld), and a test of bench/household
// holds the embedded file equal to what it makes.

// SolvedCase is a solved game of one task type, shown to the toolkit.
type SolvedCase struct {
	Type  string     `json:"type"`
	Task  string     `json:"task"`
	Steps []CaseStep `json:"steps"`
}

// CaseStep is one command of a solved case and what it gave.
type CaseStep struct {
	Command     string `json:"command"`
	Observation string `json:"observation"`
}

// solvedCasesJSON holds the first two games of each task type of the
// training split, solved by the expert; bench/household's
// TestSolvedCasesAreTheTrainingSplits rewrites it with -update-cases.
//
//go:embed dyref_cases.json
var solvedCasesJSON []byte

// SolvedCases returns the embedded solved cases, two per task type.
func SolvedCases() ([]SolvedCase, error) {
	var out []SolvedCase
	if err := json.Unmarshal(solvedCasesJSON, &out); err != nil {
		return nil, fmt.Errorf("agents/household/dyref_cases.json: %w", err)
	}
	return out, nil
}
