package household

import (
	"context"
	"fmt"
	"github.com/ambibench/ambibench/bench"
	"slices"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/perturb"
	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/sim/textworld"
	"github.com/ambibench/ambibench/tasks"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// Name is the name of the household track.
const Name = agents.TrackHousehold

// DefaultTrials is how many trials a household episode allows: the
// Reflexion authors' ALFWorld runs play ten (run_reflexion.sh, line 2,
// --num_trials 10); --trials sets another count.
const DefaultTrials = 10

// HouseholdCells returns the (task type, perturbation) cells of the
// household track, types outermost; empty filters mean all. A cell's
// episodes are the evaluation split's games of its type.
func HouseholdCells(types, perturbations []string) ([]bench.Cell, error) {
	if len(types) == 0 {
		types = alfworld.Types()
	}
	if len(perturbations) == 0 {
		perturbations = perturb.HouseholdNames()
	}
	var cells []bench.Cell
	for _, t := range types {
		if !slices.Contains(alfworld.Types(), t) {
			return nil, fmt.Errorf("unknown household task type %q (have %v)", t, alfworld.Types())
		}
		for _, p := range perturbations {
			pert, ok := perturb.LookupHousehold(p)
			if !ok {
				return nil, fmt.Errorf("unknown household perturbation %q (have %v)", p, perturb.HouseholdNames())
			}
			if pert.AppliesToGame(t) {
				cells = append(cells, bench.Cell{Family: t, Perturbation: p})
			}
		}
	}
	return cells, nil
}

// EvalCount is the number of evaluation games of a household task type:
// the episodes of its cells.
func EvalCount(taskType string) int { return alfworld.EvalCount(taskType) }

// HouseholdGame returns episode index of a household cell: the index-th
// evaluation game of the type, under the perturbation.
func HouseholdGame(taskType, perturbation string, index int) (*alfworld.Game, error) {
	n := alfworld.EvalCount(taskType)
	if index < 0 || index >= n {
		return nil, fmt.Errorf("household %s has %d evaluation games; episode %d is out of range", taskType, n, index)
	}
	var p alfworld.Perturbation // "" is the clear game
	if perturbation != "" {
		var ok bool
		if p, ok = perturb.LookupHousehold(perturbation); !ok {
			return nil, fmt.Errorf("unknown household perturbation %q (have %v)", perturbation, perturb.HouseholdNames())
		}
	}
	s, ok := alfworld.EvalGame(taskType, index)
	if !ok {
		return nil, fmt.Errorf("household %s: no evaluation game %d", taskType, index)
	}
	return s.BuildWith(p)
}

// episode is one household job's episode: a game of the evaluation split
// (or of --data), played over up to Trials trials in one environment.
type episode struct {
	t       *Track
	job     bench.Job
	game    *alfworld.Game
	env     *householdEnv
	optimal int // the expert's steps
	agent   agents.Agent
}

// NewEpisode sets up one household job: its game, ready to play.
func (t *Track) NewEpisode(_ context.Context, job bench.Job, _ bench.Options) (bench.Episode, error) {
	g, err := t.episodeGame(job)
	if err != nil {
		return nil, err
	}
	return t.newEpisode(job, g)
}

// newEpisode sets up game g for the job's agent.
func (t *Track) newEpisode(job bench.Job, g *alfworld.Game) (*episode, error) {
	trials := t.Trials
	if trials <= 0 {
		trials = DefaultTrials
	}
	env, err := newHouseholdEnv(g, textworld.Options{Grammar: t.Grammar, Feedback: t.Feedback}, trials)
	if err != nil {
		return nil, err
	}
	env.keepArrival, env.hints, env.playOnRepeat = t.KeepArrival, t.Hints, t.PlayOnRepeat
	truth, optimal, err := householdTruth(g, t.Grammar)
	if err != nil {
		return nil, err
	}
	env.truth = truth
	return &episode{t: t, job: job, game: g, env: env, optimal: optimal}, nil
}

// Agent gives the agent the run's router (dyref's).
func (e *episode) Agent() (agents.Config, []any) {
	j := e.job
	return agents.Config{Router: e.t.Router}, []any{Name, j.Family, j.Perturbation, j.Index, j.Agent}
}

// Env is the game, every trial of it.
func (e *episode) Env(a agents.Agent, _ bench.NewAgentFunc) (agents.Env, error) {
	e.agent = a
	if _, reads := a.(agents.TruthReader); reads {
		return householdTruthEnv{e.env}, nil
	}
	return e.env, nil
}

// Score scores the game played. SR is the goal holding at the end of
// some trial (and no wrong question); ADA is as on the tabletop — on a
// clear game the goal reached without asking, on an ambiguous one a
// question asked — except under partial observability, where nothing is
// missing and only success counts.
func (e *episode) Score(rec *results.Record, _ error) {
	g, env := e.game, e.env
	success := env.wonTrial > 0 && !env.WrongTag
	var ada bool
	switch g.Label {
	case tasks.LabelNone:
		ada = success && !env.Asked
	case tasks.LabelPartialObservability:
		ada = success
	default:
		ada = env.Asked
	}
	rec.Label = g.Label
	rec.Instruction = g.Instruction
	rec.Asked = env.Asked
	rec.Tag = env.FirstTag
	rec.Questions = env.Questions
	rec.TagCorrect = env.TagCorrect
	rec.Success = success
	rec.ADA = ada
	rec.Steps = env.steps
	rec.ToolCalls = env.toolCalls
	rec.Trials = env.trial
	if success {
		rec.SolvedTrial = env.wonTrial
	}
	scoreReflections(rec, e.agent)
	rec.OptimalSteps = e.optimal
}

// scoreReflections counts a reflective agent's reflections, their tokens
// one by one, and the reflection tools they called; a reflection that
// names no tool is one free-text call, counted as
// [results.FreeTextReflectTool]. A reflection is redundant (docs/metrics.md)
// when it changed nothing that mattered: the next trial's plan was the
// same, it looked back on a trial that had succeeded, or the trial after
// it did no better — it failed too, or none ran.
func scoreReflections(rec *results.Record, a agents.Agent) {
	r, ok := a.(agents.Reflective)
	if !ok {
		return
	}
	for _, x := range r.Reflections() {
		rec.Reflections++
		rec.ReflectionTokens += x.Tokens
		rec.ReflectionTokenCounts = append(rec.ReflectionTokenCounts, x.Tokens)
		rec.ReflectionTrials = append(rec.ReflectionTrials, x.Trial)
		if rec.ReflectionTools == nil {
			rec.ReflectionTools = map[string]int{}
		}
		if len(x.Tools) == 0 {
			rec.ReflectionTools[results.FreeTextReflectTool]++
		}
		for _, tool := range x.Tools {
			rec.ReflectionTools[tool]++
		}
		afterSuccess := rec.SolvedTrial > 0 && x.Trial >= rec.SolvedTrial
		nextSolved := rec.SolvedTrial == x.Trial+1
		if !x.PlanChanged || afterSuccess || !nextSolved {
			rec.RedundantReflections++
		}
	}
}
