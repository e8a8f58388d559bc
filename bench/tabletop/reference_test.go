package tabletop

import (
	"context"
	"github.com/ambibench/ambibench/bench"
	"testing"

	"github.com/ambibench/ambibench/perturb"
	"github.com/ambibench/ambibench/results/stats"
)

// grammarReads reports whether a cell's instructions are those the task
// grammar (agents/grounding) is written for: the built-in families and
// perturbations. The rules agent and the simulated model read
// instructions with that grammar, so they are held to their bars there; a
// family or perturbation registered since may say things the grammar does
// not read (teach it to agents/grounding), and the oracle is held to
// every cell all the same.
func grammarReads(family, perturbation string) bool {
	switch family {
	case "pick_place", "long_horizon", "spatial", "handover":
	default:
		return false
	}
	switch perturbation {
	case "none", "absence", "multiplicity", "underspecified", "partial_observability", "scene_graph_noise", "execution_noise":
		return true
	}
	return false
}

// The reference agents bracket the suite: oracle proves that generator,
// perturbations, simulator and user agree (it must be perfect in every
// cell), rules must clear 0.9 without the ground truth, and random must stay
// near the floor.
func TestReferenceAgents(t *testing.T) {
	t.Parallel()
	episodes := 100
	if testing.Short() {
		episodes = 25
	}
	// Noise perturbations fail even the oracle by design; noise_test.go
	// checks them.
	opts := bench.Options{Track: New(), Seed: 1, Agents: []string{"oracle", "rules", "random"}, Perturbations: perturb.Clear(), Episodes: episodes, Concurrency: 2}
	recs, err := bench.Run(context.Background(), opts, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	cells := stats.Aggregate(recs, stats.AggregateOptions{ByFamily: true})
	if len(cells) == 0 {
		t.Fatal("no cells")
	}
	for _, c := range cells {
		if c.N != episodes {
			t.Errorf("%s %s/%s: %d episodes, want %d", c.Agent, c.Family, c.Perturbation, c.N, episodes)
		}
		ada, sr := c.ADA.Value(), c.SR.Value()
		switch c.Agent {
		case "oracle":
			if ada != 1 || sr != 1 || c.Errors != 0 {
				t.Errorf("oracle %s/%s: ADA %.2f SR %.2f errors %d, want 1, 1, 0", c.Family, c.Perturbation, ada, sr, c.Errors)
			}
		case "rules":
			if !grammarReads(c.Family, c.Perturbation) {
				continue
			}
			if ada < 0.9 || sr < 0.9 {
				t.Errorf("rules %s/%s: ADA %.2f SR %.2f, want both >= 0.9", c.Family, c.Perturbation, ada, sr)
			}
		case "random":
			if c.Perturbation == "none" && sr >= 0.3 {
				t.Errorf("random %s/none: SR %.2f, want < 0.3", c.Family, sr)
			}
		}
	}
	for _, r := range recs {
		if r.Agent == "oracle" && (!r.Success || !r.ADA) {
			t.Errorf("oracle failed %s/%s episode %d: %q (%s)", r.Family, r.Perturbation, r.Episode, r.Instruction, r.Error)
		}
	}
}
