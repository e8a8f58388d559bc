package reference

import (
	"context"
	"math/rand/v2"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/scenes"
)

func init() {
	agents.RegisterOn(Tracks, "random", "random valid tool calls over what the robot sees; the floor",
		func(cfg agents.Config) (agents.Agent, error) {
			return &random{rng: rand.New(rand.NewPCG(cfg.Seed, 0x5eed))}, nil
		})
}

// random looks at the scene once, then makes random calls until the
// episode ends: a pick-and-place of a random block to a random object or
// place, a question with a random tag, a random retrieval, or done.
type random struct{ rng *rand.Rand }

func (a *random) Run(ctx context.Context, env agents.Env) error {
	if agents.TrackOf(env) == agents.TrackHousehold {
		return a.runHousehold(ctx, env)
	}
	if agents.TrackOf(env) == agents.TrackSemmap {
		return a.runSemmap(ctx, env)
	}
	r, err := agents.Check(agents.Call(ctx, env, agents.ToolGetSceneGraph, nil))
	if err != nil {
		return agents.Finish(err)
	}
	var blocks, dests []string
	if r.Graph != nil {
		for _, n := range r.Graph.Nodes {
			if n.Attributes[scenes.AttrType] == scenes.ClassBlock {
				blocks = append(blocks, n.ID)
			}
			dests = append(dests, n.ID)
		}
	}
	dests = append(dests, scenes.PlaceNames...)
	for {
		var err error
		switch a.rng.IntN(4) {
		case 0:
			if len(blocks) > 0 {
				_, err = agents.PickAndPlace(ctx, env, blocks[a.rng.IntN(len(blocks))], dests[a.rng.IntN(len(dests))])
			}
		case 1:
			_, err = agents.Ask(ctx, env, agents.AskTags[a.rng.IntN(len(agents.AskTags))], "What do you mean?")
		case 2:
			_, err = agents.RetrieveNode(ctx, env, agents.RetrieveNodeArgs{AttrKey: scenes.AttrColor, AttrVal: scenes.Colors[a.rng.IntN(len(scenes.Colors))]})
		case 3:
			return agents.Done(ctx, env)
		}
		if err != nil {
			return agents.Finish(err)
		}
	}
}

// Respond does nothing useful, at random: half the time it moves a random
// visible block to the shared workspace.
func (a *random) Respond(ctx context.Context, env agents.Env, message string) (string, error) {
	if a.rng.IntN(2) == 0 {
		return "No.", nil
	}
	r, err := agents.RetrieveNode(ctx, env, agents.RetrieveNodeArgs{AttrKey: scenes.AttrType, AttrVal: scenes.ClassBlock})
	if err != nil || len(r.Items) == 0 {
		return "I see no block.", agents.Finish(err)
	}
	if _, err := agents.PickAndPlace(ctx, env, r.Items[a.rng.IntN(len(r.Items))], scenes.SharedPlace); err != nil {
		return "", agents.Finish(err)
	}
	return "Done.", nil
}
