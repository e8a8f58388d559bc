package simmodel

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
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

// The sample index picks a sampling model's guess among candidates. A
// negative one names no draw and is refused, with an error naming it; it
// used to index the candidates below zero (a panic at -1026 on this
// request). A very large one is answered, without wrapping to an index
// below zero.
func TestSampleIndexOutOfRange(t *testing.T) {
	m := New(Perfect, "sim:perfect")
	b := &llm.CallContext{Role: llm.CallPlan, Track: "tabletop", Instruction: "Put the red block in the blue bowl.", Robot: scenes.Robot1, Format: llm.FormatJSON,
		Graph: scenes.BuildGraph([]scenes.Object{scenes.NewBlock("red block 1", "red", -0.2, -0.3), scenes.NewBlock("red block 2", "red", 0.2, -0.3), scenes.NewBowl("blue bowl 1", "blue", 0, -0.6)})}
	for _, tc := range []struct {
		why    string
		sample int
		temp   float64
		ok     bool
	}{
		{"the first draw", 0, 0.8, true},
		{"one below zero", -1, 0.8, false},
		{"the one that panicked", -1026, 0.8, false},
		{"its neighbour, which panics on other hashes", -1025, 0.8, false},
		{"the most negative", math.MinInt, 0.8, false},
		{"negative at temperature 0, where the sample is otherwise unused, is still no draw", -1, 0, false},
		{"the largest, which wrapped in signed arithmetic", math.MaxInt, 0.8, true},
	} {
		reply, err := m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "Prompt."}}, Context: b, Temperature: tc.temp, Sample: tc.sample})
		switch {
		case tc.ok && (err != nil || !strings.Contains(reply.Text, "red block")):
			t.Errorf("%s (sample %d): %q, %v; want a plan", tc.why, tc.sample, reply.Text, err)
		case !tc.ok && (err == nil || !strings.Contains(err.Error(), fmt.Sprintf("sample %d", tc.sample))):
			t.Errorf("%s (sample %d): error %v, want one naming the sample", tc.why, tc.sample, err)
		}
	}
}

// CLARA draws 3 samples of each of 5 prompts, numbered 0 to 14 across the
// prompts (whose text differs). On an ambiguous instruction the 15 draws
// spread evenly over the candidates, so their pick phrases are diverse;
// on a clear one they all pick the same block.
func TestClaraDrawsSpreadOverCandidates(t *testing.T) {
	m := New(Perfect, "sim:perfect")
	threeGreen := scenes.BuildGraph([]scenes.Object{
		scenes.NewBlock("green block 1", "green", -0.2, -0.3),
		scenes.NewBlock("green block 2", "green", 0, -0.3),
		scenes.NewBlock("green block 3", "green", 0.2, -0.3),
		scenes.NewBowl("blue bowl 1", "blue", 0, -0.6),
	})
	for _, tc := range []struct {
		why, instruction string
		table            *scenes.Graph
		want             map[string]int // picks and how many of the 15 draws take each
	}{
		{"clear: all 15 agree", "Put the red block in the blue bowl.", sampleTable(), map[string]int{"red block 1": 15}},
		{"two green blocks: 8 and 7", "Put the green block in the blue bowl.", sampleTable(), nil},
		{"three green blocks: 5 each", "Put the green block in the blue bowl.", threeGreen,
			map[string]int{"green block 1": 5, "green block 2": 5, "green block 3": 5}},
	} {
		b := &llm.CallContext{Role: llm.CallPlan, Track: "tabletop", Instruction: tc.instruction, Graph: tc.table, Format: llm.FormatJSON}
		picks := map[string]int{}
		for k := range 5 {
			for d := range 3 {
				r, err := m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: fmt.Sprintf("Prompt %d.", k)}}, Context: b,
					Temperature: 0.8, Sample: k*3 + d})
				if err != nil {
					t.Fatal(err)
				}
				var p SampledPlan
				if err := json.Unmarshal([]byte(r.Text), &p); err != nil || len(p.Steps) != 1 {
					t.Fatalf("%s: reply %q: %v", tc.why, r.Text, err)
				}
				picks[p.Steps[0].Pick]++
			}
		}
		if tc.want == nil {
			// Which block the first draw takes depends on a hash: either
			// way round, 8 and 7.
			if picks["green block 1"]+picks["green block 2"] != 15 || min(picks["green block 1"], picks["green block 2"]) != 7 {
				t.Errorf("%s: picks %v, want green block 1 and 2 taken 8 and 7 times", tc.why, picks)
			}
			continue
		}
		if fmt.Sprint(picks) != fmt.Sprint(tc.want) {
			t.Errorf("%s: picks %v, want %v", tc.why, picks, tc.want)
		}
	}
}
