package household

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/ambibench/ambibench/agents/household"
)

var updateCases = flag.Bool("update-cases", false, "rewrite agents/household/dyref_cases.json from the training split")

// The solved cases the household workflows embed (agents/household) are
// the training split's, as SolvedCases makes them: two per task type, each
// reaching its goal. Rewrite them with go test ./bench/household -run
// SolvedCases -update-cases.
func TestSolvedCasesAreTheTrainingSplits(t *testing.T) {
	t.Parallel()
	want, err := SolvedCases("")
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.MarshalIndent(want, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, '\n')
	file := filepath.Join("..", "..", "agents", "household", "dyref_cases.json")
	if *updateCases {
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	have, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, data) {
		t.Fatalf("%s is not what SolvedCases makes; rewrite it with -update-cases", file)
	}
	got, err := household.SolvedCases()
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]int{}
	tasks := map[string]bool{}
	for _, c := range got {
		types[c.Type]++
		if len(c.Steps) < 2 {
			t.Errorf("%s: %d steps", c.Type, len(c.Steps))
		}
		if tasks[c.Task+c.Steps[0].Observation] {
			t.Errorf("%s: the case %q is there twice", c.Type, c.Task)
		}
		tasks[c.Task+c.Steps[0].Observation] = true
	}
	if len(types) != 6 {
		t.Errorf("cases cover %d task types, want 6", len(types))
	}
	for ty, n := range types {
		if n != CasesPerType {
			t.Errorf("%s: %d cases, want %d", ty, n, CasesPerType)
		}
	}
}
