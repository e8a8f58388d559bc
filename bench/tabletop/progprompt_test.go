package tabletop

import (
	"testing"

	"github.com/ambibench/ambibench/results/stats"
)

// runProgPrompt runs progprompt on the cells of clearAndAmbiguous (noise
// perturbations are checked elsewhere).
func runProgPrompt(t *testing.T, spec string, episodes int) map[string]stats.Cell {
	t.Helper()
	return runWorkflowOn(t, "progprompt", spec, episodes, clearAndAmbiguous)
}

// With the perfect simulated model progprompt is perfect in every cell:
// the program prompt, the parser, the assertions read off the graph, and
// the re-prompt after each reply (the user's, or the other robot's) all
// work.
func TestProgPromptWithPerfectModel(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	if testing.Short() {
		t.Skip(singlePath)
	}
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
