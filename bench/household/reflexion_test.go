package household

import (
	"fmt"
	"github.com/ambibench/ambibench/bench"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm/models"
	"github.com/ambibench/ambibench/results"
)

// runHouseholdModel runs a model-driven agent on the household track.
func runHouseholdModel(t *testing.T, agent, spec string, perturbations ...string) []results.Record {
	t.Helper()
	m, err := models.Open(spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	recs := runHousehold(t, bench.Options{Track: New(), Model: m, Agents: []string{agent}, Perturbations: perturbations})
	for _, r := range recs {
		if r.Model != spec || r.Calls == 0 || r.InputTokens == 0 {
			t.Fatalf("%s/%s game %d: model %q, %d calls, %d input tokens; want the model named and its usage counted",
				r.Family, r.Perturbation, r.Episode, r.Model, r.Calls, r.InputTokens)
		}
	}
	return recs
}

// With the perfect simulated model, react wins every clear game of the
// evaluation split on its first and only trial: the prompts carry what
// the model needs, one command per call reaches the world, and the
// trajectory comes back in the next prompt.
func TestHouseholdReactWithPerfectModel(t *testing.T) {
	t.Parallel()
	recs := runHouseholdModel(t, "react", "sim:perfect", "none")
	if len(recs) != 134 {
		t.Fatalf("%d games, want the 134 of the evaluation split", len(recs))
	}
	for _, r := range recs {
		if !r.Success || r.SolvedTrial != 1 || r.Trials != 1 || r.Asked || r.Error != "" || r.Reflections != 0 {
			t.Errorf("%s game %d: success %v at trial %d of %d, asked %v, %d reflections, error %q",
				r.Family, r.Episode, r.Success, r.SolvedTrial, r.Trials, r.Asked, r.Reflections, r.Error)
		}
	}
}

// With the default simulated model, which errs, reflexion solves more
// games by its last trial than by its first, and every reflection it
// reports belongs to a trial that failed.
func TestHouseholdReflexionImproves(t *testing.T) {
	t.Parallel()
	recs := runHouseholdModel(t, "reflexion", "sim", "none")
	var byTrial [DefaultTrials + 1]int
	reflections, redundant, tokens := 0, 0, 0
	for _, r := range recs {
		for k := 1; k <= DefaultTrials; k++ {
			if r.SolvedBy(k) {
				byTrial[k]++
			}
		}
		reflections += r.Reflections
		redundant += r.RedundantReflections
		tokens += r.ReflectionTokens
		// One reflection per failed trial that another trial followed.
		want := r.Trials - 1
		if r.Reflections != want {
			t.Errorf("%s game %d: %d reflections over %d trials (solved at %d), want %d", r.Family, r.Episode, r.Reflections, r.Trials, r.SolvedTrial, want)
		}
		// Reflexion's reflections are free text: each is one reflect call.
		if r.ReflectionTools[results.FreeTextReflectTool] != r.Reflections || len(r.ReflectionTools) > 1 || len(r.ReflectionTokenCounts) != r.Reflections {
			t.Errorf("%s game %d: tools %v and token counts %v for %d reflections", r.Family, r.Episode, r.ReflectionTools, r.ReflectionTokenCounts, r.Reflections)
		}
	}
	var curve []string
	for k := 1; k <= DefaultTrials; k++ {
		curve = append(curve, fmt.Sprintf("SR@%d %.3f", k, float64(byTrial[k])/float64(len(recs))))
	}
	t.Logf("reflexion, sim, none, n=%d: %s; %d reflections (%d redundant), %d reflection tokens",
		len(recs), strings.Join(curve, " · "), reflections, redundant, tokens)
	if byTrial[DefaultTrials] <= byTrial[1] {
		t.Errorf("solved by trial 1: %d, by trial %d: %d; want reflection to help", byTrial[1], DefaultTrials, byTrial[DefaultTrials])
	}
	if reflections == 0 || tokens == 0 {
		t.Errorf("%d reflections, %d tokens; want some reflecting to have happened", reflections, tokens)
	}
}
