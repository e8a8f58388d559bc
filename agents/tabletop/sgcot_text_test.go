package tabletop

import (
	"encoding/json"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/sgcottext"
)

// agents/sgcottext names the tabletop's tools without importing agents
// (the simulated model shares it): every request must carry out as a
// tool the table declares, with arguments its decoder reads whole.
func TestTextRequestsAreTheTablesTools(t *testing.T) {
	declared := map[string]bool{}
	for _, tool := range agents.Tools(true) {
		declared[tool.Name] = true
	}
	for _, r := range []*sgcottext.Request{
		{Name: sgcottext.RetrieveNode, Node: "red block", Attrs: []sgcottext.Attr{{Key: "color", Val: "red"}}},
		{Name: sgcottext.RetrieveEdge, Source: "a", Target: "b", Relation: "near"},
		{Name: sgcottext.AskMultiplicity, Text: "Which?"},
		{Name: sgcottext.AskAbsence, Text: "Where?"},
		{Name: sgcottext.AskUnderspecified, Text: "What?"},
		{Name: sgcottext.AskRobot, Text: "Do you see it?"},
		{Name: sgcottext.PickAndPlace, Object: "a", Destination: "b"},
	} {
		tool, args := r.Call()
		if !declared[tool] {
			t.Errorf("%s carries out as %q, which the table does not declare", r.Name, tool)
			continue
		}
		data, err := json.Marshal(args)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := agents.DecodeArgs(agents.ToolCall{Name: tool, Args: data}); err != nil {
			t.Errorf("%s: the table refuses its arguments %s: %v", r.Name, data, err)
		}
	}
}
