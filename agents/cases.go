package agents

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

// The solved cases are DyRef's toolkit examples. They live here, not
// with the workflow, because the harness makes them: bench builds them
// from the household's training split (agents may not import tasks) and
// a test of bench holds the embedded file equal to what it builds.

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
// training split, solved by the expert; bench's
// TestSolvedCasesAreTheTrainingSplits rewrites it with -update-cases.
//
//go:embed dyref_cases.json
var solvedCasesJSON []byte

// SolvedCases returns the embedded solved cases, two per task type.
func SolvedCases() ([]SolvedCase, error) {
	var out []SolvedCase
	if err := json.Unmarshal(solvedCasesJSON, &out); err != nil {
		return nil, fmt.Errorf("agents/dyref_cases.json: %w", err)
	}
	return out, nil
}
