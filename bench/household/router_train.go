package household

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/ambibench/ambibench/agents/dyref"
	"github.com/ambibench/ambibench/agents/household"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/tasks/alfworld"
	"golang.org/x/sync/errgroup"
)

// RouterTraining configures the training of dyref's router (ambibench
// train-router).
type RouterTraining struct {
	// Model plays the games and runs the reflection tools.
	Model llm.Model
	// Games is the number of training-split games played (the six types
	// in turn, the perturbations of each type in turn); 0 means
	// DefaultRouterGames.
	Games int
	// Alpha weighs a subset's reflection tokens against its success in
	// the pseudo-label (dyref.PseudoLabel), per 1,000 tokens;
	// DefaultRouterAlpha is the shipped router's.
	Alpha float64
	// Train are the MLP's options, its seed among them; Train.Tools says
	// which tools the router chooses among, and so which subsets the
	// games are played under.
	Train dyref.TrainOptions
	// Concurrency bounds the games played at once; results do not
	// depend on it.
	Concurrency int
	Grammar     string
}

// Defaults of RouterTraining.
const (
	DefaultRouterGames = 2400
	DefaultRouterAlpha = 0.1
)

// RouterData is what the training games gave: one example per game that
// failed its first trial and that some subset of tools corrected, with
// what every subset did there. The arrays hold a number for each of
// dyref.Subsets subsets; those outside the router's tools stay zero.
type RouterData struct {
	Games, FailedFirst int
	// NoneHelped counts the failed games that no subset corrected; they
	// give no example, since their argmax would only name the cheapest
	// subset, not a useful one.
	NoneHelped int
	Examples   []dyref.Example
	// Success[i] is, for Examples[i], whether the trial after reflecting
	// with each subset succeeded.
	Success [][dyref.Subsets]float64
	// Corrected[s] and Tokens[s] sum, over the failed games, the games
	// subset s corrected and the reflection tokens it spent.
	Corrected, Tokens [dyref.Subsets]int
	// Labels[s] counts the examples labelled s.
	Labels [dyref.Subsets]int
	// Holdout is the accuracy, on every fifth example, of a router
	// trained with the same options on the other four fifths: how well
	// the factors predict the label on games the router has not seen.
	// HoldoutSuccess is how often the subset that router routes to
	// corrected the held-out game (HoldoutTokens its mean reflection
	// tokens), and ConstantSuccess[s] how often subset s did.
	Holdout, HoldoutSuccess, HoldoutTokens float64
	ConstantSuccess                        [dyref.Subsets]float64
}

// routerGame is one training game's outcome under every subset.
type routerGame struct {
	failed  bool
	x       []float64
	success [dyref.Subsets]float64
	tokens  [dyref.Subsets]float64
}

// RouterExamples plays the training games: for each, the first trial with
// ReAct, then, for each subset of the router's tools (8 of the paper's
// three, 16 with ambiguity), that reflection and a second trial. A game the first trial solves gives no
// example. The first trial is the same under every subset (the model's
// draws depend on the game, not the agent), which the code checks.
func RouterExamples(ctx context.Context, cfg RouterTraining) (RouterData, error) {
	if cfg.Model == nil {
		return RouterData{}, fmt.Errorf("train-router: needs a model")
	}
	if t := cfg.Train.Tools; t < 1 || t > len(dyref.AllTools) {
		return RouterData{}, fmt.Errorf("train-router: Train.Tools %d: want 1 to %d (dyref.PaperTools is %d)", t, len(dyref.AllTools), dyref.PaperTools)
	}
	n := cfg.Games
	if n <= 0 {
		n = DefaultRouterGames
	}
	// The first games of each type are the solved cases the toolkit
	// shows (SolvedCases); training starts after them, so that no game
	// sees its own solution.
	skip := CasesPerType * len(alfworld.Types())
	specs := alfworld.TrainGames(n + skip)[skip:]
	out := make([]routerGame, len(specs))
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(max(1, cfg.Concurrency))
	perturbationOf := map[string]int{}
	var games []*alfworld.Game
	var perturbations []string
	for _, s := range specs {
		// The built-in perturbations, not the registry's: one a user adds
		// must not change what the shipped router was trained on.
		var ps []string
		for _, p := range alfworld.Perturbations() {
			if alfworld.Applies(s.Type, p) {
				ps = append(ps, p)
			}
		}
		p := ps[perturbationOf[s.Type]%len(ps)]
		perturbationOf[s.Type]++
		game, err := s.Build(p)
		if err != nil {
			return RouterData{}, fmt.Errorf("train-router: %s under %s: %w", s.ID, p, err)
		}
		games = append(games, game)
		perturbations = append(perturbations, p)
	}
	for i, game := range games {
		g.Go(func() error {
			r, err := routerOutcome(ctx, cfg, game, bench.Cell{Family: game.Type, Perturbation: perturbations[i]}, specs[i].Index)
			out[i] = r
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return RouterData{}, err
	}
	d := RouterData{Games: len(specs)}
	for _, r := range out {
		if !r.failed {
			continue
		}
		d.FailedFirst++
		for s := range subsets(cfg) {
			d.Corrected[s] += int(r.success[s])
			d.Tokens[s] += int(r.tokens[s])
		}
		if !slices.Contains(r.success[:], 1) {
			d.NoneHelped++
			continue
		}
		label := dyref.PseudoLabel(r.success, r.tokens, cfg.Alpha)
		d.Labels[label]++
		d.Examples = append(d.Examples, dyref.Example{X: r.x, Label: label})
		d.Success = append(d.Success, r.success)
	}
	return d, nil
}

// subsets is how many subsets of tools the training plays.
func subsets(cfg RouterTraining) int { return int(dyref.FirstTools(cfg.Train.Tools)) + 1 }

// routerOutcome plays one training game under every subset of the
// router's tools; the others are not played, and never win the label.
func routerOutcome(ctx context.Context, cfg RouterTraining, game *alfworld.Game, cell bench.Cell, index int) (routerGame, error) {
	var r routerGame
	for s := subsets(cfg); s < dyref.Subsets; s++ {
		r.success[s] = math.NaN()
	}
	var first []float64
	for s := range subsets(cfg) {
		sub := dyref.Subset(s)
		a, err := household.NewDyRef(cfg.Model, household.DyRefOptions{Name: "train-router", Trials: 2,
			Route: func([]float64, dyref.Subset) dyref.Subset { return sub }})
		if err != nil {
			return r, err
		}
		job := bench.Job{Track: Name, Cell: cell, Index: index, Agent: "train-router/" + sub.String()}
		t := &Track{Trials: 2, Grammar: cfg.Grammar}
		ep, err := t.newEpisode(job, game)
		if err != nil {
			return r, fmt.Errorf("train-router: %s: %w", game.ID, err)
		}
		rec, err := bench.PlayEpisode(ctx, job, bench.Options{Track: t, Model: cfg.Model}, ep, a)
		if err != nil {
			return r, fmt.Errorf("train-router: %s: %w", game.ID, err)
		}
		if rec.Outcome == results.OutcomeInfraError {
			// Not the reflection failing but the provider: training on it
			// would teach the router that the tool did not help.
			return r, fmt.Errorf("train-router: %s: infrastructure error (%s): %s", game.ID, rec.ErrorKind, rec.Error)
		}
		// A trial the model broke (replies without a command) is a failed
		// trial, as in any run: it stays in the data.
		if rec.SolvedTrial == 1 {
			return routerGame{}, nil
		}
		routes := a.Routes()
		if len(routes) == 0 {
			// The first trial ended the episode (a wrong question, or a
			// model that stopped answering): no reflection could follow,
			// so the game teaches nothing.
			return routerGame{}, nil
		}
		x := routes[0].Factors.Vector()
		if first == nil {
			first = x
		} else if !slices.Equal(first, x) {
			return r, fmt.Errorf("train-router: %s: the first trial differs between subsets; the model is not deterministic", game.ID)
		}
		r.failed = true
		if rec.SolvedTrial == 2 {
			r.success[s] = 1
		}
		r.tokens[s] = float64(rec.ReflectionTokens)
	}
	r.x = first
	return r, nil
}

// TrainRouter plays the training games and trains the router on their
// pseudo-labels.
func TrainRouter(ctx context.Context, cfg RouterTraining) (*dyref.Router, RouterData, error) {
	d, err := RouterExamples(ctx, cfg)
	if err != nil {
		return nil, d, err
	}
	if len(d.Examples) == 0 {
		return nil, d, fmt.Errorf("train-router: %d games gave no example (%d failed their first trial, none corrected by any subset)", d.Games, d.FailedFirst)
	}
	var fit, held []dyref.Example
	var heldSuccess [][dyref.Subsets]float64
	for i, e := range d.Examples {
		if i%5 == 4 {
			held = append(held, e)
			heldSuccess = append(heldSuccess, d.Success[i])
		} else {
			fit = append(fit, e)
		}
	}
	// The router routes by the labels' objective in expectation, with
	// each subset's mean reflection tokens over the failed games.
	var cost [dyref.Subsets]float64
	for s := range subsets(cfg) {
		cost[s] = float64(d.Tokens[s]) / float64(d.FailedFirst)
	}
	if len(fit) > 0 && len(held) > 0 {
		r, err := dyref.Train(fit, cfg.Train)
		if err != nil {
			return nil, d, fmt.Errorf("train-router: %w", err)
		}
		r = r.WithCosts(cfg.Alpha, cost)
		d.Holdout = r.Accuracy(held)
		for i, e := range held {
			a := r.Route(e.X)
			d.HoldoutSuccess += heldSuccess[i][a] / float64(len(held))
			d.HoldoutTokens += cost[a] / float64(len(held))
			for s := range subsets(cfg) {
				d.ConstantSuccess[s] += heldSuccess[i][s] / float64(len(held))
			}
		}
	}
	r, err := dyref.Train(d.Examples, cfg.Train)
	if err != nil {
		return nil, d, fmt.Errorf("train-router: %w", err)
	}
	return r.WithCosts(cfg.Alpha, cost), d, nil
}
