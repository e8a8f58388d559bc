package reference

import (
	"context"
	"fmt"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/grounding"
	"github.com/ambibench/ambibench/scenes"
)

func init() {
	agents.RegisterOn(Tracks, "oracle", "reads the ground truth and follows the reference plan; the ceiling, and a check that the episode can be solved",
		func(agents.Config) (agents.Agent, error) { return oracle{}, nil })
}

// oracle reads the ground truth. It is the only agent that may, and it
// exists to prove that generator, perturbations, simulator and user agree:
// it must score ADA = SR = 1 in every cell.
type oracle struct{}

func (oracle) ReadsTruth() {}

func (o oracle) Run(ctx context.Context, env agents.Env) error {
	if agents.TrackOf(env) == agents.TrackHousehold {
		return o.runHousehold(ctx, env)
	}
	if agents.TrackOf(env) == agents.TrackSemmap {
		return o.runSemmap(ctx, env)
	}
	ts, ok := env.(agents.TruthSource)
	if !ok {
		return fmt.Errorf("oracle: the harness gave no ground truth")
	}
	for _, s := range ts.Truth().Plan {
		if s.Robot != env.Robot() {
			continue // the partner does these when asked
		}
		var err error
		switch s.Action {
		case "ask":
			_, err = agents.Ask(ctx, env, s.Tag, "Please clarify the instruction.")
		case "ask_robot":
			msg := grounding.HandRequest(s.Pick)
			if s.Place != scenes.SharedPlace {
				msg = fmt.Sprintf("I put %s in the shared workspace. Please put %s in %s.", s.Pick, s.Pick, s.Place)
			}
			_, err = agents.AskRobot(ctx, env, msg)
		case "pick_and_place":
			var r agents.Result
			r, err = agents.PickAndPlace(ctx, env, s.Pick, s.Place)
			if err == nil && r.Error != "" {
				err = fmt.Errorf("oracle: plan step %s(%s, %s) refused: %s", s.Action, s.Pick, s.Place, r.Error)
			}
		default:
			err = fmt.Errorf("oracle: unknown plan action %q", s.Action)
		}
		if err != nil {
			return agents.Finish(err)
		}
	}
	return agents.Done(ctx, env)
}

// Respond carries out the partner's share of the plan.
func (o oracle) Respond(ctx context.Context, env agents.Env, message string) (string, error) {
	ts, ok := env.(agents.TruthSource)
	if !ok {
		return "", fmt.Errorf("oracle: the harness gave no ground truth")
	}
	var did []string
	for _, s := range ts.Truth().Plan {
		if s.Robot != env.Robot() || s.Action != "pick_and_place" {
			continue
		}
		r, err := agents.PickAndPlace(ctx, env, s.Pick, s.Place)
		if err != nil {
			return "", agents.Finish(err)
		}
		if r.Error != "" {
			return "", fmt.Errorf("oracle: partner step refused: %s", r.Error)
		}
		where := "at " + s.Place
		if s.Place == scenes.SharedPlace {
			where = "in the " + s.Place
		}
		did = append(did, fmt.Sprintf("put %s %s", s.Pick, where))
	}
	if len(did) == 0 {
		return "I have nothing to do.", nil
	}
	return "I " + strings.Join(did, " and ") + ".", nil
}
