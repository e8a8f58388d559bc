package semmap

import (
	"context"
	"fmt"
	"github.com/ambibench/ambibench/agents/internal/agenttest"
	"slices"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
)

// namedModel records which samples it wrote and whether it chose.
type namedModel struct {
	name    string
	samples []int
	chose   int
	temps   []float64
}

func (m *namedModel) Name() string { return m.name }
func (m *namedModel) Generate(_ context.Context, req llm.Request) (llm.Reply, error) {
	b, err := agenttest.ContextOf(req)
	if err != nil {
		return llm.Reply{}, err
	}
	if b.Role == llm.CallChoose {
		m.chose++
		return llm.Reply{Text: "Response B", FinishReason: llm.FinishStop}, nil
	}
	m.samples = append(m.samples, req.Sample)
	m.temps = append(m.temps, req.Temperature)
	return llm.Reply{Text: fmt.Sprintf(`{"relevant_objects": ["obj%d"], "query_achievable": true}`, req.Sample), FinishReason: llm.FinishStop}, nil
}

// With members, answer k comes from member k mod n at the ensemble's
// temperature, and only the ensemble's own model chooses; the answer is
// the chosen member's, unchanged.
func TestSemmapEnsembleMembersTakeTurns(t *testing.T) {
	chooser := &namedModel{name: "chooser"}
	a1, a2 := &namedModel{name: "a1"}, &namedModel{name: "a2"}
	env := agenttest.NewSemmapEnv("Where can I sit?", agenttest.SemmapMap(), "")
	a := NewEnsemble(chooser, EnsembleOptions{N: 5, Temperature: 0.7, Members: []llm.Model{a1, a2}})
	if err := a.Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a1.samples, []int{1, 3, 5}) || !slices.Equal(a2.samples, []int{2, 4}) {
		t.Errorf("member samples %v and %v, want [1 3 5] and [2 4]", a1.samples, a2.samples)
	}
	if len(chooser.samples) != 0 || chooser.chose != 1 || a1.chose+a2.chose != 0 {
		t.Errorf("chooser sampled %v and chose %d times; members chose %d times: want the chooser to choose once and sample nothing",
			chooser.samples, chooser.chose, a1.chose+a2.chose)
	}
	for _, temp := range append(a1.temps, a2.temps...) {
		if temp != 0.7 {
			t.Errorf("a member sampled at temperature %v, want 0.7", temp)
		}
	}
	if got := env.Answer(t); !slices.Equal(got, []string{"obj2"}) {
		t.Errorf("answered %v, want response B, the second sample's [obj2]", got)
	}
}

func TestMembersModelName(t *testing.T) {
	got := agents.MembersModelName(&namedModel{name: "sim"}, []llm.Model{&namedModel{name: "sim:perfect"}, &namedModel{name: "sim:weak"}})
	if want := "members sim:perfect,sim:weak; chooser sim"; got != want {
		t.Errorf("MembersModelName = %q, want %q", got, want)
	}
	if info, ok := agents.Lookup("ensemble"); !ok || !info.UsesMembers {
		t.Errorf("ensemble is not registered as taking members")
	}
	if info, _ := agents.Lookup("baseline"); info.UsesMembers {
		t.Errorf("baseline is registered as taking members; only the ensemble samples from them")
	}
}
