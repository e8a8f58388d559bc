package models

import (
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/middleware"
	"github.com/ambibench/ambibench/scenes"
)

// table is the scene graph of a six-object table.
func table() *scenes.Graph {
	return scenes.BuildGraph([]scenes.Object{
		scenes.NewBlock("red block 1", "red", -0.2, -0.3),
		scenes.NewBlock("blue block 1", "blue", 0.0, -0.3),
		scenes.NewBlock("green block 1", "green", 0.2, -0.3),
		scenes.NewBowl("red bowl 1", "red", -0.2, -0.6),
		scenes.NewBowl("blue bowl 1", "blue", 0.0, -0.6),
		scenes.NewBowl("green bowl 1", "green", 0.2, -0.6),
	})
}

// firstPlanCall renders the first call of the direct workflow: prose with
// the graph, and its context.
func firstPlanCall(g *scenes.Graph) llm.Request {
	cc := &llm.CallContext{Role: llm.CallPlan, Track: "tabletop", Instruction: "Put the red block in the blue bowl.",
		Robot: "robot1", Graph: g, Format: llm.FormatToolCalls}
	graph, _ := json.MarshalIndent(g, "", " ") // a graph of strings always encodes
	return llm.Request{System: "You plan actions for a robot arm.", Context: cc,
		Messages: []llm.Message{{Role: llm.RoleUser, Text: "Instruction: " + cc.Instruction + "\n\nScene graph:\n" + string(graph)}},
		Tools: []llm.ToolDecl{
			{Name: "pick_and_place", Description: "Pick up a block and put it at place.", Schema: []byte(`{"type":"object","properties":{"pick":{"type":"string"},"place":{"type":"string"}},"required":["pick","place"],"additionalProperties":false}`)},
			{Name: "ask", Description: "Ask the user, with a tag.", Schema: []byte(`{"type":"object","properties":{"tag":{"type":"string","enum":["absence","multiplicity","underspecified"]},"question":{"type":"string"}},"required":["tag","question"],"additionalProperties":false}`)},
			{Name: "done", Description: "End the episode.", Schema: []byte(`{"type":"object","properties":{},"additionalProperties":false}`)},
		}}
}

// BenchmarkModelLayerOverhead is one call through the layer with the
// simulated model: encoding the graph, hashing the request, the simulated
// model's planning, accounting into a tally, and a transcript line. The
// scene graph, the environment's part, is built once.
func BenchmarkModelLayerOverhead(b *testing.B) {
	m, err := Open("sim:perfect", nil)
	if err != nil {
		b.Fatal(err)
	}
	m = middleware.Transcript(m, io.Discard)
	ctx := llm.WithTally(context.Background(), &llm.Tally{})
	g := table()
	for b.Loop() {
		req := firstPlanCall(g)
		if _, err := m.Generate(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}
