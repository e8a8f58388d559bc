package agents

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents/grounding"
	"github.com/ambibench/ambibench/scenes"
)

func init() {
	Register("rules", "no ground truth: parses the instruction with the task grammar, grounds it by retrieval, asks with the tag it infers, then acts",
		func(Config) (Agent, error) { return rules{}, nil })
}

// rules is a hand-written planner. It grounds every phrase of the
// instruction before it acts, so that it asks, when it must, before the
// table has changed:
//
//   - a vague phrase or a missing destination: ask, tagged underspecified;
//   - nothing matches: ask the partner robot to bring it if there is one,
//     otherwise (or if the partner has none) ask, tagged absence;
//   - several things match: ask, tagged multiplicity.
//
// It then asks the partner to hand over any block in the partner's
// workspace, carries out the moves in order, and ends.
type rules struct{}

// binding is a move with its phrases resolved to ids (or a place name).
type binding struct {
	pick  string
	place string
}

func (a rules) Run(ctx context.Context, env Env) error {
	err := a.run(ctx, env)
	if err == errEnded {
		return nil
	}
	if err != nil {
		// The planner is stuck (it could not read the instruction or an
		// answer); ending the episode records the failure as such.
		if derr := done(ctx, env); derr != nil {
			return derr
		}
		return err
	}
	return done(ctx, env)
}

func (a rules) run(ctx context.Context, env Env) error {
	moves, err := grounding.ParseInstruction(env.Instruction())
	if err != nil {
		return fmt.Errorf("rules: %w", err)
	}
	var plan []binding
	for _, mv := range moves {
		pick, err := a.ground(ctx, env, mv.Pick, "block", "What should I pick up?")
		if err != nil {
			return err
		}
		var place string
		if mv.Place == nil {
			r, err := ask(ctx, env, "underspecified", fmt.Sprintf("Where should I put %s?", pick))
			if err != nil {
				return err
			}
			ref, err := grounding.ParseAnswer(r.Text)
			if err != nil {
				return fmt.Errorf("rules: %w", err)
			}
			mv.Place = &ref
		}
		place, err = a.ground(ctx, env, *mv.Place, "destination", "Where should I put it?")
		if err != nil {
			return err
		}
		plan = append(plan, binding{pick, place})
	}
	for _, b := range plan {
		if err := a.fetch(ctx, env, b.pick); err != nil {
			return err
		}
		r, err := pickAndPlace(ctx, env, b.pick, b.place)
		if err != nil {
			return err
		}
		if r.Error != "" {
			return fmt.Errorf("rules: %s", r.Error)
		}
	}
	return nil
}

// ground resolves a phrase to one node id or place name, asking the user or
// the partner as it must.
func (a rules) ground(ctx context.Context, env Env, ref grounding.Ref, what, vagueQuestion string) (string, error) {
	for range 3 { // each answer may itself need grounding
		if ref.Vague {
			r, err := ask(ctx, env, "underspecified", vagueQuestion)
			if err != nil {
				return "", err
			}
			if ref, err = grounding.ParseAnswer(r.Text); err != nil {
				return "", fmt.Errorf("rules: %w", err)
			}
			continue
		}
		if ref.Place != "" {
			return ref.Place, nil
		}
		ids, err := a.resolve(ctx, env, ref)
		if err != nil {
			return "", err
		}
		if len(ids) == 0 && env.Partner() != "" && what == "block" {
			if _, err := askRobot(ctx, env, fmt.Sprintf("I cannot see %s. If you can, please put %s in the shared workspace.", ref.Phrase, ref.Phrase)); err != nil {
				return "", err
			}
			if ids, err = a.resolve(ctx, env, ref); err != nil {
				return "", err
			}
		}
		switch len(ids) {
		case 1:
			return ids[0], nil
		case 0:
			r, err := ask(ctx, env, "absence", fmt.Sprintf("I cannot find %s. What should I use instead?", ref.Phrase))
			if err != nil {
				return "", err
			}
			if ref, err = grounding.ParseAnswer(r.Text); err != nil {
				return "", fmt.Errorf("rules: %w", err)
			}
		default:
			r, err := ask(ctx, env, "multiplicity", fmt.Sprintf("Which do you mean: %s?", strings.Join(ids, " or ")))
			if err != nil {
				return "", err
			}
			if ref, err = grounding.ParseAnswer(r.Text); err != nil {
				return "", fmt.Errorf("rules: %w", err)
			}
		}
	}
	return "", fmt.Errorf("rules: could not ground %q after three answers", ref.Phrase)
}

// resolve lists the visible nodes a reference matches.
func (a rules) resolve(ctx context.Context, env Env, ref grounding.Ref) ([]string, error) {
	if ref.ID != "" {
		r, err := retrieveNode(ctx, env, RetrieveNodeArgs{Name: ref.ID})
		return r.Items, err
	}
	if ref.Anchor == nil {
		r, err := retrieveNode(ctx, env, RetrieveNodeArgs{Name: ref.Color + " " + ref.Class})
		return r.Items, err
	}
	anchors, err := a.resolve(ctx, env, *ref.Anchor)
	if err != nil || len(anchors) != 1 {
		// An absent or repeated anchor leaves the phrase matching nothing
		// certain; the caller asks.
		return nil, err
	}
	edges, err := retrieveEdge(ctx, env, RetrieveEdgeArgs{Target: anchors[0], Relation: ref.Relation})
	if err != nil {
		return nil, err
	}
	blocks, err := retrieveNode(ctx, env, RetrieveNodeArgs{AttrKey: scenes.AttrType, AttrVal: ref.Class})
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range edges.Edges {
		if slices.Contains(blocks.Items, e.Source) && !slices.Contains(ids, e.Source) {
			ids = append(ids, e.Source)
		}
	}
	return ids, nil
}

// fetch asks the partner to hand over a block that lies in the partner's
// workspace.
func (a rules) fetch(ctx context.Context, env Env, id string) error {
	if env.Partner() == "" {
		return nil
	}
	r, err := retrieveNode(ctx, env, RetrieveNodeArgs{AttrKey: scenes.AttrWorkspace, AttrVal: env.Partner()})
	if err != nil || !slices.Contains(r.Items, id) {
		return err
	}
	_, err = askRobot(ctx, env, fmt.Sprintf("Please put %s in the shared workspace.", id))
	return err
}

// Respond serves a partner's request to bring a block to the shared
// workspace.
func (a rules) Respond(ctx context.Context, env Env, message string) (string, error) {
	ref, err := grounding.ParseHandRequest(message)
	if err != nil {
		return "I do not understand the request.", nil
	}
	ids, err := a.resolve(ctx, env, ref)
	if err != nil {
		return "", finish(err)
	}
	if len(ids) != 1 {
		return fmt.Sprintf("I see %d objects matching %s.", len(ids), ref.Phrase), nil
	}
	r, err := pickAndPlace(ctx, env, ids[0], scenes.SharedPlace)
	if err != nil {
		return "", finish(err)
	}
	if r.Error != "" {
		return "I could not: " + r.Error, nil
	}
	return fmt.Sprintf("I put %s in the shared workspace.", ids[0]), nil
}
