package reference

import (
	"context"
	"fmt"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/scenes"
)

// The reference agents on the semmap track: the oracle answers the
// annotation, random a random subset of the map, and rules the resolver's
// answer over the map get_map returns.

// runSemmap answers the annotated objects.
func (oracle) runSemmap(ctx context.Context, env agents.Env) error {
	ts, ok := env.(agents.TruthSource)
	if !ok {
		return fmt.Errorf("oracle: the harness gave no ground truth")
	}
	objs := append([]string{}, ts.Truth().Objects...)
	return semmapAnswer(ctx, "oracle", env, agents.AnswerArgs{InferredQuery: env.Instruction(), QueryAchievable: len(objs) > 0,
		RelevantObjects: objs, Explanation: "The annotated answer."})
}

// runSemmap answers up to three distinct objects of the map, drawn at
// random, in random order; a quarter of the time none.
func (a *random) runSemmap(ctx context.Context, env agents.Env) error {
	m, err := fetchMap(ctx, "random", env)
	if err != nil {
		return err
	}
	ids := make([]string, 0, len(m.Instances))
	for _, in := range m.Instances {
		ids = append(ids, in.ID)
	}
	a.rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	n := 0
	if a.rng.IntN(4) > 0 {
		n = 1 + a.rng.IntN(3)
	}
	ids = ids[:min(n, len(ids))]
	return semmapAnswer(ctx, "random", env, agents.AnswerArgs{InferredQuery: env.Instruction(), QueryAchievable: len(ids) > 0,
		RelevantObjects: ids, Explanation: "A random guess."})
}

// runSemmap answers what the resolver reads in the query, over the map
// get_map returns, each object taken as its most probable class. A query
// it cannot parse gets the empty answer, reported.
func (rules) runSemmap(ctx context.Context, env agents.Env) error {
	m, err := fetchMap(ctx, "rules", env)
	if err != nil {
		return err
	}
	req, ok := scenes.ParseObjectQuery(env.Instruction())
	if !ok {
		if err := semmapAnswer(ctx, "rules", env, agents.AnswerArgs{InferredQuery: env.Instruction(), Explanation: "The query names nothing the resolver knows."}); err != nil {
			return err
		}
		return fmt.Errorf("rules: cannot parse the query %q", env.Instruction())
	}
	ids := scenes.ResolveObjects(m, req)
	return semmapAnswer(ctx, "rules", env, agents.AnswerArgs{InferredQuery: req.String(), QueryAchievable: len(ids) > 0,
		RelevantObjects: ids, Explanation: "The objects whose most probable class serves the parsed query."})
}

// fetchMap calls get_map, as a model-driven agent would, and returns
// the Env's structured map.
func fetchMap(ctx context.Context, agent string, env agents.Env) (*scenes.SemanticMap, error) {
	r, err := agents.Call(ctx, env, agents.ToolGetMap, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: get_map: %w", agent, err)
	}
	if r.Error != "" {
		return nil, fmt.Errorf("%s: get_map refused: %s", agent, r.Error)
	}
	m, _ := agents.MapOf(env)
	if m == nil {
		return nil, fmt.Errorf("%s: the Env gives no structured map (agents.MapSource)", agent)
	}
	return m, nil
}

// semmapAnswer calls answer and reports a refusal.
func semmapAnswer(ctx context.Context, agent string, env agents.Env, a agents.AnswerArgs) error {
	if a.RelevantObjects == nil {
		a.RelevantObjects = []string{}
	}
	r, err := agents.Call(ctx, env, agents.ToolAnswer, a)
	if err != nil {
		return fmt.Errorf("%s: answer: %w", agent, err)
	}
	if r.Error != "" {
		return fmt.Errorf("%s: answer refused: %s", agent, r.Error)
	}
	return nil
}
