package bench

import (
	"context"
	"testing"

	"github.com/ambibench/ambibench/agents/llm/models"
	"github.com/ambibench/ambibench/results"
)

// runProgPrompt runs progprompt on the cells of clearAndAmbiguous (noise
// is measured on its own) and checks that its model usage is counted.
func runProgPrompt(t *testing.T, spec string, episodes int) map[string]results.Cell {
	t.Helper()
	m, err := models.Open(spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{EpisodeOptions: EpisodeOptions{Seed: 1, Model: m}, Agents: []string{"progprompt"},
		Perturbations: clearAndAmbiguous, Episodes: episodes, Concurrency: 2}
	recs, err := Run(context.Background(), opts, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]results.Cell{}
	for _, c := range results.Aggregate(recs, results.AggregateOptions{ByFamily: true}) {
		out[c.Family+"/"+c.Perturbation] = c
	}
	for _, r := range recs {
		if r.Model != spec || r.Calls == 0 || r.InputTokens == 0 || r.OutputTokens == 0 {
			t.Fatalf("%s episode %d: model %q, %d calls, %d+%d tokens; want the model named and its usage counted", r.Family, r.Episode, r.Model, r.Calls, r.InputTokens, r.OutputTokens)
		}
	}
	return out
}

// With the perfect simulated model progprompt is perfect in every cell:
// the program prompt, the parser, the assertions read off the graph, and
// the re-prompt after each reply (the user's, or the other robot's) all
// work.
func TestProgPromptWithPerfectModel(t *testing.T) {
	cells := runProgPrompt(t, "sim:perfect", 30)
	if len(cells) == 0 {
		t.Fatal("no cells ran")
	}
	for key, c := range cells {
		if c.ADA.Value() != 1 || c.SR.Value() != 1 || c.Errors != 0 {
			t.Errorf("%s: ADA %.2f SR %.2f errors %d, want 1, 1, 0", key, c.ADA.Value(), c.SR.Value(), c.Errors)
		}
	}
}

// The default simulated model errs: progprompt falls short of 1 in some
// cell, yet its programs still solve most clear episodes, so the errors are
// the model's and not the workflow's.
func TestProgPromptWithSim(t *testing.T) {
	cells := runProgPrompt(t, "sim", 100)
	short := false
	for key, c := range cells {
		if c.ADA.Value() < 1 || c.SR.Value() < 1 {
			short = true
		}
		if c.Perturbation == "none" && (c.ADA.Value() <= 0.5 || c.SR.Value() <= 0.5) {
			t.Errorf("%s: ADA %.2f SR %.2f, want both above 0.5 on clear episodes", key, c.ADA.Value(), c.SR.Value())
		}
	}
	if !short {
		t.Error("sim scored 1 in every cell; its error rates do not reach progprompt")
	}
}
