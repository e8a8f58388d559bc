package household

import (
	"context"
	"errors"
	"fmt"
	"github.com/ambibench/ambibench/bench"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/sim/textworld"
	"github.com/ambibench/ambibench/tasks"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// householdEnv is an agent's view of a household episode: one game,
// played over one or more trials from the same start. The goal decides
// success, never the agent.
type householdEnv struct {
	game  *alfworld.Game    // the game and its ground truth
	opts  textworld.Options // the wording of the texts
	world *textworld.Game   // the current trial's play
	tools []agents.Tool
	truth *agents.Truth // for the oracle only

	opening    string
	trial      int // from 1
	maxTrials  int
	trialSteps int
	trialOver  bool

	keepArrival  bool // --keep-arrival, read by the workflows
	hints        bool // --hints, read by the workflows
	playOnRepeat bool // --play-on-repeat, read by react

	steps    int // over all trials
	wonTrial int
	ended    bool // no more trials: won, a wrong tag, or none left
	bench.User
	toolCalls map[string]int
}

func newHouseholdEnv(g *alfworld.Game, opts textworld.Options, maxTrials int) (*householdEnv, error) {
	e := &householdEnv{game: g, opts: opts, tools: agents.HouseholdTools(), maxTrials: max(maxTrials, 1), toolCalls: map[string]int{}}
	if err := e.start(); err != nil {
		return nil, err
	}
	return e, nil
}

// start begins a trial: a fresh play of the game from its start.
func (e *householdEnv) start() error {
	w, err := textworld.New(e.game.House, e.opts)
	if err != nil {
		return fmt.Errorf("%s: %w", e.game.ID, err)
	}
	e.world = w
	// The agent reads the opening as the ReAct and Reflexion runs gave
	// it to their models, without ALFWorld's banner paragraph
	// (alfworld_trial.py, line 107).
	e.opening = strings.TrimPrefix(e.game.Intro(w.Reset()), alfworld.Banner+"\n\n")
	e.trial++
	e.trialSteps, e.trialOver = 0, false
	return nil
}

func (e *householdEnv) Instruction() string  { return e.game.Instruction }
func (e *householdEnv) Robot() string        { return "agent" }
func (e *householdEnv) Partner() string      { return "" }
func (e *householdEnv) Tools() []agents.Tool { return e.tools }
func (e *householdEnv) Track() string        { return agents.TrackHousehold }
func (e *householdEnv) Opening() string      { return e.opening }
func (e *householdEnv) Trial() int           { return e.trial }
func (e *householdEnv) MaxTrials() int       { return e.maxTrials }

// KeepArrival tells the workflows on the ReAct player to keep the
// arrival's "You arrive at loc N. ".
func (e *householdEnv) KeepArrival() bool { return e.keepArrival }

// Hints tells the workflows on the ReAct player to add the rules of the
// house to their prompts.
func (e *householdEnv) Hints() bool { return e.hints }

// PlayOnRepeat tells react and react-text to play on after the same call
// twice in a row.
func (e *householdEnv) PlayOnRepeat() bool { return e.playOnRepeat }

// TaskType is the game's task type, by which the workflows choose their
// worked examples, as the Reflexion authors' loop chooses them by the
// game file's name (alfworld_trial.py, lines 108 and 122-124).
func (e *householdEnv) TaskType() string { return e.game.Type }

// NewTrial restarts the game for another trial, if the episode allows one.
func (e *householdEnv) NewTrial(ctx context.Context) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	switch {
	case e.wonTrial > 0:
		return "", errors.New("the game is won; there is no other trial")
	case e.ended:
		return "", errors.New("the episode is over")
	case e.trial >= e.maxTrials:
		return "", fmt.Errorf("all %d trials are used", e.maxTrials)
	}
	if err := e.start(); err != nil {
		return "", err
	}
	return e.opening, nil
}

func (e *householdEnv) Call(ctx context.Context, call agents.ToolCall) (agents.Result, error) {
	if err := ctx.Err(); err != nil {
		return agents.Result{}, err
	}
	if e.ended || e.trialOver {
		return agents.Result{Text: "The trial is over.", Ended: true}, nil
	}
	args, err := agents.DecodeArgs(call)
	if err != nil {
		return bench.Refused("%v", err), nil
	}
	e.toolCalls[call.Name]++
	switch a := args.(type) {
	case *agents.ActArgs:
		e.steps++
		e.trialSteps++
		obs := e.world.Step(a.Command)
		if e.game.Goal.Satisfied(e.world.State()) {
			e.wonTrial, e.ended = e.trial, true
			return agents.Result{Text: obs, Ended: true}, nil
		}
		if e.trialSteps >= e.game.StepLimit {
			e.trialOver = true
			if e.trial >= e.maxTrials {
				e.ended = true
			}
			return agents.Result{Text: obs + fmt.Sprintf("\n(The step limit of %d is reached; the trial is over.)", e.game.StepLimit), Ended: true}, nil
		}
		return agents.Result{Text: obs}, nil
	case *agents.NoArgs:
		if call.Name != agents.ToolAdmissible {
			return bench.Refused("%s: not a household tool (have act, admissible_commands, ask)", call.Name), nil
		}
		cmds := e.world.Admissible()
		return agents.Result{Text: strings.Join(cmds, "\n"), Items: cmds}, nil
	case *agents.AskArgs:
		return e.ask(a), nil
	}
	return bench.Refused("%s: not a household tool (have act, admissible_commands, ask)", call.Name), nil
}

// ask puts a question to the simulated user, as on the tabletop. Under
// partial observability nothing is missing (the game has no answer), so
// every question is wrong and ends the episode.
func (e *householdEnv) ask(a *agents.AskArgs) agents.Result {
	r := e.Answer(a.Tag, e.game.Label, e.game.Answer)
	e.ended = e.ended || r.Ended
	return r
}

// householdTruth is the reference solution: the question the ambiguity
// calls for, then the expert's shortest plan for the goal the user means.
func householdTruth(g *alfworld.Game, grammar string) (*agents.Truth, int, error) {
	plan, err := g.Expert(grammar)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: expert: %w", g.ID, err)
	}
	t := &agents.Truth{Label: g.Label}
	if g.Answer != "" {
		t.Plan = append(t.Plan, agents.PlanStep{Action: agents.ToolAsk, Tag: g.Label})
	}
	for _, c := range plan {
		t.Plan = append(t.Plan, agents.PlanStep{Action: agents.ToolAct, Command: c})
	}
	return t, len(plan), nil
}

// householdTruthEnv hands the truth to the oracle.
type householdTruthEnv struct {
	*householdEnv
}

func (e householdTruthEnv) Truth() *agents.Truth { return e.truth }

var _ = tasks.LabelNone
