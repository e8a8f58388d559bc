package simmodel

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// FuzzGenerateFormats feeds the planning formats that FuzzGenerate does not
// reach (sampled JSON plans, programs, classifications) blocks whose
// instruction, episode so far and object list are arbitrary: the sampling
// model splits a question's text into candidates, and the program and list
// views read ids and replies it did not write. It must never panic, and
// it refuses a negative sample with an error.
func FuzzGenerateFormats(f *testing.F) {
	f.Add("Put the red block in the blue bowl.", "multiplicity", "Which do you mean: red block 1 or red block 2?", "I mean red block 2.", "red block 1", 0.8, 3, true)
	f.Add("Put the pink block in the blue bowl.", "absence", "", "", "", 0.0, 0, false)
	f.Add("Move it somewhere.", "underspecified", "Where?", "", "a b c d", 1.0, -1, true)
	f.Add("", "", " or ", "I mean .", "   ", 0.5, 1<<30, false)
	// A sample below -1023 once indexed the two candidates of the
	// multiplicity guess below zero (a panic, for one of -1025 and -1026
	// whatever the hash), and one near MaxInt could wrap there: a
	// negative sample is refused, and a large one answered.
	f.Add("Put the red block in the blue bowl.", "", "", "", "red block 1", 0.8, -1025, true)
	f.Add("Put the red block in the blue bowl.", "", "", "", "red block 1", 0.8, -1026, true)
	f.Add("Put the red block in the blue bowl.", "", "", "", "red block 1", 0.8, math.MinInt, true)
	f.Add("Put the red block in the blue bowl.", "", "", "", "red block 1", 0.8, math.MaxInt, true)
	m := New(Weak, "sim:weak")
	f.Fuzz(func(t *testing.T, instruction, tag, question, reply, object string, temp float64, sample int, withGraph bool) {
		for _, format := range []struct{ role, format string }{
			{llm.CallPlan, llm.FormatJSON},
			{llm.CallPlan, llm.FormatProgram},
			{llm.CallClassify, llm.FormatJSON},
		} {
			b := &llm.CallContext{Role: format.role, Track: "tabletop", Instruction: instruction, Robot: scenes.Robot1,
				Exchanges: []llm.Exchange{{Kind: "ask", Tag: tag, Text: question, Reply: reply}},
				Done:      []llm.Move{{Pick: object, Place: "blue bowl 1"}},
				Format:    format.format}
			if withGraph {
				b.Graph = scenes.BuildGraph([]scenes.Object{
					scenes.NewBlock("red block 1", "red", -0.2, -0.3),
					scenes.NewBlock("red block 2", "red", 0.2, -0.3),
					scenes.NewBowl("blue bowl 1", "blue", 0, -0.6),
				})
			} else {
				b.Objects = []string{"red block 1", object, "blue bowl 1"}
			}
			req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "Prompt."}}, Context: b, Temperature: temp, Sample: sample}
			_, err := m.Generate(context.Background(), req)
			switch {
			case sample < 0 && (err == nil || !strings.Contains(err.Error(), "sample")):
				t.Fatalf("%s/%s: sample %d: error %v, want one naming the sample", format.role, format.format, sample, err)
			case sample >= 0 && err != nil:
				t.Fatalf("%s/%s: %v", format.role, format.format, err)
			}
		}
	})
}
