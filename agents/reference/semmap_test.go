package reference_test

import (
	"context"
	"github.com/ambibench/ambibench/agents/internal/agenttest"
	"slices"
	"testing"

	"github.com/ambibench/ambibench/agents"
	_ "github.com/ambibench/ambibench/agents/reference"
	"github.com/ambibench/ambibench/scenes"
)

// The queries cover the three query types and two empty truths, one of
// which a looser reading would fill (no bicycle, but seats).
var semmapTestQueries = []string{
	"Is there a microwave close to an oven?",
	"I am tired, where can I sit?",
	"Tell me something I can sit on that is not a couch.",
	"Is there a toilet?",
	"What can I sit on that is near a bicycle?",
}

// The reference agents: oracle answers the truth, rules the resolver,
// random a few distinct ids of the map, the same ones for the same seed.
func TestSemmapReferenceAgents(t *testing.T) {
	m := agenttest.SemmapMap()
	run := func(name string, seed uint64, env *agenttest.SemmapEnv) []string {
		info, _ := agents.Lookup(name)
		a, err := info.New(agents.Config{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Run(context.Background(), env); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return env.Answer(t)
	}
	truth := []string{"obj2", "obj1"}
	if got := run("oracle", 1, agenttest.NewSemmapEnv("anything", m, "").WithTruth(truth)); !slices.Equal(got, truth) {
		t.Errorf("oracle answered %v, truth %v", got, truth)
	}
	for _, q := range semmapTestQueries {
		req, _ := scenes.ParseObjectQuery(q)
		want := scenes.ResolveObjects(m, req)
		if got := run("rules", 1, agenttest.NewSemmapEnv(q, m, "")); !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Errorf("rules %q: %v, resolver %v", q, got, want)
		}
	}
	sizes := map[int]bool{}
	for seed := range uint64(40) {
		got := run("random", seed, agenttest.NewSemmapEnv("x", m, ""))
		again := run("random", seed, agenttest.NewSemmapEnv("x", m, ""))
		if !slices.Equal(got, again) {
			t.Fatalf("random seed %d: %v then %v", seed, got, again)
		}
		seen := map[string]bool{}
		for _, id := range got {
			if seen[id] || !slices.ContainsFunc(m.Instances, func(in scenes.Instance) bool { return in.ID == id }) {
				t.Fatalf("random: %v repeats an id or names one not in the map", got)
			}
			seen[id] = true
		}
		sizes[len(got)] = true
	}
	if len(sizes) < 3 {
		t.Errorf("random over 40 seeds answered only sizes %v", sizes)
	}
}
