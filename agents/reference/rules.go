package reference

import (
	"context"
	"fmt"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/grounding"
	"github.com/ambibench/ambibench/scenes"
)

func init() {
	agents.RegisterOn(Tracks, "rules", "no ground truth: parses the instruction with the task grammar, grounds it by retrieval, asks with the tag it infers, then acts",
		func(agents.Config) (agents.Agent, error) { return rules{}, nil })
}

// rules is the hand-written reference planner: grounding.Decide, the same
// procedure the simulated model follows, with its view of the table backed
// by retrieve_node and retrieve_edge calls. It asks what Decide asks, then
// carries out the moves in order and ends.
type rules struct{}

// maxQuestions bounds the questions of one episode.
const maxQuestions = 8

func (a rules) Run(ctx context.Context, env agents.Env) error {
	if agents.TrackOf(env) == agents.TrackHousehold {
		return a.runHousehold(ctx, env)
	}
	if agents.TrackOf(env) == agents.TrackSemmap {
		return a.runSemmap(ctx, env)
	}
	view := &toolView{ctx: ctx, env: env}
	sit := grounding.Situation{Instruction: env.Instruction(), Partner: env.Partner(), View: view}
	for range maxQuestions + 1 {
		d := grounding.Decide(sit)
		if view.err != nil {
			return agents.Finish(view.err)
		}
		var r agents.Result
		var err error
		switch d.Kind {
		case grounding.ActAsk:
			r, err = agents.Ask(ctx, env, d.Tag, d.Text)
		case grounding.ActAskRobot:
			for _, m := range d.Moves { // the block for the partner to take on
				mr, err := agents.PickAndPlace(ctx, env, m.Pick, m.Place)
				if err != nil {
					return agents.Finish(err)
				}
				if mr.Error != "" {
					return a.stuck(ctx, env, "rules: "+mr.Error)
				}
			}
			r, err = agents.AskRobot(ctx, env, d.Text)
			view.forget() // the partner may have moved things
		case grounding.ActMove:
			for _, m := range d.Moves {
				r, err := agents.PickAndPlace(ctx, env, m.Pick, m.Place)
				if err != nil {
					return agents.Finish(err)
				}
				if r.Error != "" {
					return a.stuck(ctx, env, "rules: "+r.Error)
				}
			}
			return agents.Done(ctx, env)
		default:
			return a.stuck(ctx, env, "rules: "+d.Text)
		}
		if err != nil {
			return agents.Finish(err)
		}
		sit.History = append(sit.History, grounding.Exchange{Kind: d.Kind, Tag: d.Tag, Text: d.Text, Reply: r.Text})
	}
	return a.stuck(ctx, env, fmt.Sprintf("rules: still asking after %d questions", maxQuestions))
}

// stuck ends the episode and reports why the planner could not go on.
func (rules) stuck(ctx context.Context, env agents.Env, why string) error {
	if err := agents.Done(ctx, env); err != nil {
		return agents.Finish(err)
	}
	return fmt.Errorf("%s", why)
}

// Respond serves a partner's request to bring a block to the shared
// workspace, or to take one from there to a destination it sees.
func (a rules) Respond(ctx context.Context, env agents.Env, message string) (string, error) {
	view := &toolView{ctx: ctx, env: env}
	if id, dst, err := grounding.ParseDeliverRequest(message); err == nil {
		return a.deliver(ctx, env, view, id, dst)
	}
	ref, err := grounding.ParseHandRequest(message)
	if err != nil {
		return "I do not understand the request.", nil
	}
	ids, err := grounding.Resolve(view, ref)
	if err != nil {
		return "", agents.Finish(err)
	}
	if len(ids) != 1 {
		return fmt.Sprintf("I see %d objects matching %s.", len(ids), ref.Phrase), nil
	}
	r, err := agents.PickAndPlace(ctx, env, ids[0], scenes.SharedPlace)
	if err != nil {
		return "", agents.Finish(err)
	}
	if r.Error != "" {
		return "I could not: " + r.Error, nil
	}
	return grounding.HandReply(ids[0]), nil
}

// deliver takes block id, which the partner put in the shared
// workspace, to the destination dst if exactly one thing in view matches it.
func (rules) deliver(ctx context.Context, env agents.Env, view *toolView, id string, dst grounding.Ref) (string, error) {
	place := dst.Place
	if place == "" {
		ids, err := grounding.Resolve(view, dst)
		if err != nil {
			return "", agents.Finish(err)
		}
		if len(ids) != 1 {
			return fmt.Sprintf("I see %d objects matching %s.", len(ids), dst.Phrase), nil
		}
		place = ids[0]
	}
	r, err := agents.PickAndPlace(ctx, env, id, place)
	if err != nil {
		return "", agents.Finish(err)
	}
	if r.Error != "" {
		return "I could not: " + r.Error, nil
	}
	return grounding.DeliverReply(id, place), nil
}

// toolView is a grounding.View backed by retrieval tool calls, each asked
// once until forget. The first failure stops further calls and is kept.
type toolView struct {
	ctx   context.Context
	env   agents.Env
	err   error
	nodes map[string][]string
	edges map[string][]scenes.Edge
}

func (v *toolView) forget() { v.nodes, v.edges = nil, nil }

func (v *toolView) Nodes(q scenes.NodeQuery) ([]string, error) {
	a := agents.RetrieveNodeArgs{Name: q.Name}
	for k, val := range q.Attrs { // at most one pair in the planner's queries
		a.AttrKey, a.AttrVal = k, val
	}
	key := a.Name + "\x00" + a.AttrKey + "\x00" + a.AttrVal
	if v.err != nil {
		return nil, v.err
	}
	if ids, ok := v.nodes[key]; ok {
		return ids, nil
	}
	r, err := agents.RetrieveNode(v.ctx, v.env, a)
	if err != nil {
		v.err = err
		return nil, err
	}
	if v.nodes == nil {
		v.nodes = map[string][]string{}
	}
	v.nodes[key] = r.Items
	return r.Items, nil
}

func (v *toolView) Edges(q scenes.EdgeQuery) ([]scenes.Edge, error) {
	key := q.Source + "\x00" + q.Target + "\x00" + q.Relation
	if v.err != nil {
		return nil, v.err
	}
	if es, ok := v.edges[key]; ok {
		return es, nil
	}
	r, err := agents.RetrieveEdge(v.ctx, v.env, agents.RetrieveEdgeArgs{Source: q.Source, Target: q.Target, Relation: q.Relation})
	if err != nil {
		v.err = err
		return nil, err
	}
	if v.edges == nil {
		v.edges = map[string][]scenes.Edge{}
	}
	v.edges[key] = r.Edges
	return r.Edges, nil
}
