package tabletop

import (
	"context"
	"github.com/ambibench/ambibench/bench"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm/models"
	"github.com/ambibench/ambibench/perturb"
	"github.com/ambibench/ambibench/results/stats"
)

// runDirect runs the direct workflow on every cell with a model spec and
// returns its cells by (family, perturbation).
func runDirect(t *testing.T, spec string, episodes int) map[string]stats.Cell {
	return runWorkflow(t, "direct", spec, episodes)
}

// runWorkflow runs a workflow agent on every cell with a model spec, but
// those of the noise perturbations, where even a perfect planner fails.
func runWorkflow(t *testing.T, agent, spec string, episodes int) map[string]stats.Cell {
	t.Helper()
	return runWorkflowOn(t, agent, spec, episodes, perturb.Clear())
}

// runWorkflowOn runs a workflow agent on the cells of some perturbations
// (nil: all).
func runWorkflowOn(t *testing.T, agent, spec string, episodes int, perturbations []string) map[string]stats.Cell {
	t.Helper()
	m, err := models.Open(spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	opts := bench.Options{Track: New(), Seed: 1, Model: m, Agents: []string{agent}, Perturbations: perturbations, Episodes: episodes, Concurrency: 2}
	recs, err := bench.Run(context.Background(), opts, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]stats.Cell{}
	for _, c := range stats.Aggregate(recs, stats.AggregateOptions{ByFamily: true}) {
		// The simulated model reads an instruction with the task grammar,
		// as rules does: the cells it is held to are those the grammar is
		// written for.
		if grammarReads(c.Family, c.Perturbation) {
			out[c.Family+"/"+c.Perturbation] = c
		}
	}
	for _, r := range recs {
		if r.Model != spec || r.Calls == 0 || r.InputTokens == 0 || r.OutputTokens == 0 {
			t.Fatalf("%s episode %d: model %q, %d calls, %d+%d tokens; want the model named and its usage counted", r.Family, r.Episode, r.Model, r.Calls, r.InputTokens, r.OutputTokens)
		}
	}
	return out
}

// With the perfect simulated model, direct is perfect in every cell: the
// prompt rendering, the reply parsing, the ask protocol and the tool loop,
// one robot or two, all work.
func TestDirectWithPerfectModel(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip(singlePath)
	}
	for key, c := range runDirect(t, "sim:perfect", 30) {
		if c.ADA.Value() != 1 || c.SR.Value() != 1 || c.Errors != 0 {
			t.Errorf("%s: ADA %.2f SR %.2f errors %d, want 1, 1, 0", key, c.ADA.Value(), c.SR.Value(), c.Errors)
		}
	}
}

// The default simulated model errs, and less than the weak one: in every
// cell its ADA and SR fall strictly between sim:weak's and 1.
func TestDirectSimBetweenWeakAndPerfect(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip(singlePath)
	}
	def, weak := runDirect(t, "sim", 100), runDirect(t, "sim:weak", 100)
	if len(def) == 0 || len(def) != len(weak) {
		t.Fatalf("%d and %d cells", len(def), len(weak))
	}
	for key, d := range def {
		w := weak[key]
		for _, m := range []struct {
			name      string
			def, weak float64
		}{{"ADA", d.ADA.Value(), w.ADA.Value()}, {"SR", d.SR.Value(), w.SR.Value()}} {
			if !(m.weak < m.def && m.def < 1) {
				t.Errorf("%s %s: sim %.2f, sim:weak %.2f; want weak < sim < 1", key, m.name, m.def, m.weak)
			}
		}
	}
}

// SG-CoT with the perfect simulated model is perfect in every cell: the
// retrieval loop finds what the instruction needs through retrieve_node
// and retrieve_edge alone.
func TestSGCoTWithPerfectModel(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip(singlePath)
	}
	for key, c := range runWorkflow(t, "sgcot", "sim:perfect", 30) {
		if c.ADA.Value() != 1 || c.SR.Value() != 1 || c.Errors != 0 {
			t.Errorf("%s: ADA %.2f SR %.2f errors %d, want 1, 1, 0", key, c.ADA.Value(), c.SR.Value(), c.Errors)
		}
	}
}

// The ablations with the perfect simulated model: the whole graph up front
// loses nothing; without edges every cell but the spatial ones is solved,
// and a spatial phrase ("the block left of the blue bowl") cannot be
// grounded at all, by construction.
func TestSGCoTAblationsWithPerfectModel(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip(singlePath)
	}
	for key, c := range runWorkflow(t, "sgcot-full-graph", "sim:perfect", 20) {
		if c.ADA.Value() != 1 || c.SR.Value() != 1 {
			t.Errorf("full graph, %s: ADA %.2f SR %.2f, want 1, 1", key, c.ADA.Value(), c.SR.Value())
		}
	}
	for key, c := range runWorkflow(t, "sgcot-no-edges", "sim:perfect", 20) {
		spatial := strings.HasPrefix(key, "spatial/")
		perfect := c.ADA.Value() == 1 && c.SR.Value() == 1
		if spatial == perfect || (spatial && c.SR.Value() == 1) {
			t.Errorf("no edges, %s: ADA %.2f SR %.2f; want perfect exactly off the spatial family", key, c.ADA.Value(), c.SR.Value())
		}
	}
	// One retrieval turn grounds the colour-and-class phrases; the ids in
	// the object list cover the rest. A relation (spatial) or a block's
	// workspace (handover) needs more retrievals than one turn gives.
	single := runWorkflow(t, "sgcot-single-retrieval", "sim:perfect", 20)
	for key, c := range single {
		if (strings.HasPrefix(key, "pick_place/") || strings.HasPrefix(key, "long_horizon/")) && (c.ADA.Value() != 1 || c.SR.Value() != 1) {
			t.Errorf("single retrieval, %s: ADA %.2f SR %.2f, want 1, 1", key, c.ADA.Value(), c.SR.Value())
		}
	}
	for _, key := range []string{"spatial/none", "handover/none"} {
		if c := single[key]; c.SR.Value() == 1 {
			t.Errorf("single retrieval, %s: SR 1; want failures where one retrieval cannot ground the phrase", key)
		}
	}
}
