package sim

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// sampleTable has two green blocks: "the green block" is ambiguous, "the
// red block" is not.
func sampleTable() *scenes.Graph {
	return scenes.BuildGraph([]scenes.Object{
		scenes.NewBlock("red block 1", "red", -0.2, -0.3),
		scenes.NewBlock("green block 1", "green", 0, -0.3),
		scenes.NewBlock("green block 2", "green", 0.2, -0.3),
		scenes.NewBowl("blue bowl 1", "blue", 0, -0.6),
	})
}

// Sampled at temperature > 0, a clear instruction gives the same plan
// every time and an ambiguous one gives plans that disagree: the signal
// CLARA measures. At temperature 0 every sample is the same.
func TestSampledPlansDisagreeOnlyWhenAmbiguous(t *testing.T) {
	m := New(Perfect, "sim:perfect")
	for _, tc := range []struct {
		why, instruction string
		temperature      float64
		wantDistinct     int
	}{
		{"clear: every sample agrees", "Put the red block in the blue bowl.", 0.8, 1},
		{"two green blocks: the samples split between them", "Put the green block in the blue bowl.", 0.8, 2},
		{"temperature 0: one most likely reply", "Put the green block in the blue bowl.", 0, 1},
	} {
		b := &llm.CallContext{Role: llm.CallPlan, Track: "tabletop", Instruction: tc.instruction, Graph: sampleTable(), Format: llm.FormatJSON}
		plans := map[string]bool{}
		for i := range 5 {
			r, err := m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "Prompt."}}, Context: b,
				Temperature: tc.temperature, Sample: i})
			if err != nil {
				t.Fatal(err)
			}
			var p SampledPlan
			if err := json.Unmarshal([]byte(r.Text), &p); err != nil || len(p.Steps) != 1 {
				t.Fatalf("%s: reply %q: %v", tc.why, r.Text, err)
			}
			plans[p.Steps[0].Pick] = true
		}
		if len(plans) != tc.wantDistinct {
			t.Errorf("%s: %d distinct picks %v, want %d", tc.why, len(plans), plans, tc.wantDistinct)
		}
	}
}

// The classifier tells a missing object (infeasible, absence) from an
// ambiguous one and from a clear instruction.
func TestClassify(t *testing.T) {
	m := New(Perfect, "sim:perfect")
	for _, tc := range []struct {
		why, instruction, action, tag string
		feasible                      bool
	}{
		{"clear", "Put the red block in the blue bowl.", "act", "", true},
		{"two green blocks", "Put the green block in the blue bowl.", "ask", "multiplicity", true},
		{"no yellow block", "Put the yellow block in the blue bowl.", "ask", "absence", false},
	} {
		b := &llm.CallContext{Role: llm.CallClassify, Track: "tabletop", Instruction: tc.instruction, Graph: sampleTable(), Format: llm.FormatJSON}
		r, err := m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "Prompt."}}, Context: b})
		if err != nil {
			t.Fatal(err)
		}
		var c Classification
		if err := json.Unmarshal([]byte(r.Text), &c); err != nil {
			t.Fatalf("%s: %q: %v", tc.why, r.Text, err)
		}
		if c.Action != tc.action || c.Tag != tc.tag || c.Feasible != tc.feasible {
			t.Errorf("%s: got %+v, want action %s tag %q feasible %v", tc.why, c, tc.action, tc.tag, tc.feasible)
		}
	}
}
