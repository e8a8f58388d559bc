package reference_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ambibench/ambibench/agents"
	_ "github.com/ambibench/ambibench/agents/reference"
	"github.com/ambibench/ambibench/agents/semquery"
	"github.com/ambibench/ambibench/scenes"
)

// semmapEnv is a semmap Env over one map and one query: get_map gives the
// map rendered in its mode, answer records the answer and ends the
// episode.
type semmapEnv struct {
	query string
	m     *scenes.SemanticMap
	mode  string
	truth []string

	calls    []string
	answered []agents.AnswerArgs
}

func (e *semmapEnv) Track() string            { return agents.TrackSemmap }
func (e *semmapEnv) Instruction() string      { return e.query }
func (e *semmapEnv) Robot() string            { return "robot1" }
func (e *semmapEnv) Partner() string          { return "" }
func (e *semmapEnv) Tools() []agents.Tool     { return agents.SemmapTools() }
func (e *semmapEnv) Truth() *agents.Truth     { return &agents.Truth{Objects: e.truth} }
func (e *semmapEnv) Map() *scenes.SemanticMap { return e.m }
func (e *semmapEnv) Mode() string             { return e.mode }

func (e *semmapEnv) Call(_ context.Context, c agents.ToolCall) (agents.Result, error) {
	e.calls = append(e.calls, c.Name)
	if len(e.answered) > 0 {
		return agents.Result{Error: "the episode is over", Ended: true}, nil
	}
	args, err := agents.DecodeArgs(c)
	if err != nil {
		return agents.Result{Error: err.Error()}, nil
	}
	switch a := args.(type) {
	case *agents.NoArgs:
		return agents.Result{Text: e.m.Render(e.mode)}, nil
	case *agents.AnswerArgs:
		e.answered = append(e.answered, *a)
		return agents.Result{Text: "Answer recorded.", Ended: true}, nil
	}
	return agents.Result{Error: "not a semmap tool: " + c.Name}, nil
}

// answer is the one answer of the episode; the test fails unless there
// is exactly one and it was the last call.
func (e *semmapEnv) answer(t *testing.T) []string {
	t.Helper()
	if len(e.answered) != 1 || e.calls[len(e.calls)-1] != agents.ToolAnswer {
		t.Fatalf("want one answer as the last call; calls %v", e.calls)
	}
	return e.answered[0].RelevantObjects
}

func semmapTestMap() *scenes.SemanticMap {
	in := func(id string, x, y, z float64, cs ...scenes.ClassScore) scenes.Instance {
		return scenes.Instance{ID: id, Center: [3]float64{x, y, z}, Size: [3]float64{0.5, 0.5, 0.5}, Observations: 20, Classes: cs}
	}
	cs := func(c string, p float64) scenes.ClassScore { return scenes.ClassScore{Class: c, P: p} }
	return &scenes.SemanticMap{Name: "test_room", Instances: []scenes.Instance{
		in("obj1", 1, 0, 0.45, cs("chair", 0.6), cs("couch", 0.4)),
		in("obj2", 0, 2, 0.4, cs("couch", 0.9), cs("bed", 0.1)),
		in("obj3", 1, 0.6, 0.38, cs("dining table", 1)),
		in("obj4", 3, 3, 1, cs("microwave", 0.85), cs("oven", 0.15)),
		in("obj5", 3.5, 3, 0.45, cs("oven", 1)),
		in("obj6", 0, 3, 1, cs("tv", 1)),
	}}
}

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
	m := semmapTestMap()
	run := func(name string, seed uint64, env *semmapEnv) []string {
		info, _ := agents.Lookup(name)
		a, err := info.New(agents.Config{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Run(context.Background(), env); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return env.answer(t)
	}
	truth := []string{"obj2", "obj1"}
	if got := run("oracle", 1, &semmapEnv{query: "anything", m: m, truth: truth}); !slices.Equal(got, truth) {
		t.Errorf("oracle answered %v, truth %v", got, truth)
	}
	for _, q := range semmapTestQueries {
		want, _ := semquery.Answer(m, q)
		if got := run("rules", 1, &semmapEnv{query: q, m: m}); !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Errorf("rules %q: %v, resolver %v", q, got, want)
		}
	}
	sizes := map[int]bool{}
	for seed := range uint64(40) {
		got := run("random", seed, &semmapEnv{query: "x", m: m})
		again := run("random", seed, &semmapEnv{query: "x", m: m})
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
