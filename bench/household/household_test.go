package household

import (
	"context"
	"github.com/ambibench/ambibench/bench"
	"testing"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// runHousehold runs agents on household cells, every evaluation game.
func runHousehold(t *testing.T, opts bench.Options) []results.Record {
	t.Helper()
	if opts.Track == nil {
		opts.Track = New()
	}
	if opts.Episodes == 0 {
		opts.Episodes = 1000 // capped at each type's evaluation games
	}
	if opts.Concurrency == 0 {
		opts.Concurrency = 2
	}
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	recs, err := bench.Run(context.Background(), opts, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// The oracle solves every evaluation game, under every perturbation, in
// the expert's number of commands (plus its one question when the game is
// ambiguous): the games, the engine, the goals, the perturbations' answers
// and the simulated user agree.
func TestHouseholdOracleIsOptimal(t *testing.T) {
	t.Parallel()
	recs := runHousehold(t, bench.Options{Agents: []string{"oracle"}})
	games := map[string]int{}
	for _, r := range recs {
		games[r.Perturbation]++
		if !r.Success || r.SolvedTrial != 1 || r.Steps != r.OptimalSteps || r.Error != "" {
			t.Errorf("%s/%s game %d: success %v at trial %d in %d steps (optimal %d), error %q",
				r.Family, r.Perturbation, r.Episode, r.Success, r.SolvedTrial, r.Steps, r.OptimalSteps, r.Error)
		}
	}
	if games["none"] != len(alfworld.EvalGames()) {
		t.Errorf("%d games without perturbation, want the %d of the evaluation split", games["none"], len(alfworld.EvalGames()))
	}
}

// The same run gives the same records, whatever the concurrency.
func TestHouseholdRecordsIndependentOfConcurrency(t *testing.T) {
	t.Parallel()
	opts := bench.Options{Agents: []string{"oracle", "rules", "random"}, Perturbations: []string{"none", "multiplicity"}, Episodes: 5}
	opts.Concurrency = 1
	a := runHousehold(t, opts)
	opts.Concurrency = 4
	b := runHousehold(t, opts)
	if len(a) != len(b) || len(a) == 0 {
		t.Fatalf("%d and %d records", len(a), len(b))
	}
	for i := range a {
		a[i].WallMS, b[i].WallMS = 0, 0
		ka, kb := a[i].Key(), b[i].Key()
		if ka != kb || a[i].Success != b[i].Success || a[i].Steps != b[i].Steps || a[i].Questions != b[i].Questions {
			t.Fatalf("record %d differs: %+v\nvs %+v", i, a[i], b[i])
		}
	}
}

// rules plays from the text alone and solves at least 90% of the clear
// games.
func TestHouseholdRules(t *testing.T) {
	t.Parallel()
	recs := runHousehold(t, bench.Options{Agents: []string{"rules"}, Perturbations: []string{"none"}})
	won := 0
	for _, r := range recs {
		if r.Success {
			won++
		}
	}
	if sr := float64(won) / float64(len(recs)); sr < 0.9 {
		t.Errorf("rules SR %.2f on %d clear games, want at least 0.9", sr, len(recs))
	}
}
