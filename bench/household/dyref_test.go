package household

import (
	"bytes"
	"context"
	"reflect"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/dyref"
	"github.com/ambibench/ambibench/agents/llm/models"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
)

// With the perfect simulated model, dyref (and its two comparators) wins
// every clear game of the evaluation split on trial 1, so the router is
// never asked and nothing is reflected.
func TestDyRefWithPerfectModel(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip(singlePath)
	}
	for _, agent := range []string{"dyref", "dyref-ambiguity", "reflect-all", "no-reflect"} {
		recs := runHouseholdModel(t, agent, "sim:perfect", "none")
		if len(recs) != 134 {
			t.Fatalf("%s: %d games, want the 134 of the evaluation split", agent, len(recs))
		}
		for _, r := range recs {
			if !r.Success || r.SolvedTrial != 1 || r.Trials != 1 || r.Reflections != 0 || r.ReflectionTokens != 0 || r.Error != "" {
				t.Errorf("%s, %s game %d: success %v at trial %d of %d, %d reflections (%d tokens), error %q",
					agent, r.Family, r.Episode, r.Success, r.SolvedTrial, r.Trials, r.Reflections, r.ReflectionTokens, r.Error)
			}
		}
	}
}

// With the default simulated model the toolkit agents behave as their
// names say: no-reflect never reflects and retrying alone fixes little,
// reflect-all calls the paper's three tools in every reflection, dyref
// and reflect-all never call the ambiguity tool, and every toolkit
// reflection ends in one plan call. (agents' tests check that dyref runs
// the tools its route picks.)
func TestToolkitAgentsWithSim(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip(singlePath)
	}
	type sums struct{ games, first, fifth, reflections, tokens int }
	got := map[string]*sums{}
	for _, agent := range []string{"dyref", "dyref-ambiguity", "reflect-all", "no-reflect"} {
		s := &sums{}
		got[agent] = s
		for _, r := range runHouseholdModel(t, agent, "sim", "none", "multiplicity") {
			s.games++
			if r.SolvedBy(1) {
				s.first++
			}
			if r.SolvedBy(DefaultTrials) {
				s.fifth++
			}
			s.reflections += r.Reflections
			s.tokens += r.ReflectionTokens
			if r.ReflectionTools["plan"] != r.Reflections || len(r.ReflectionTokenCounts) != r.Reflections {
				t.Errorf("%s, %s game %d: %d reflections, tools %v, %d token counts", agent, r.Family, r.Episode, r.Reflections, r.ReflectionTools, len(r.ReflectionTokenCounts))
			}
			if agent == "reflect-all" {
				for _, tool := range agents.ReflectionTools[:dyref.PaperTools] {
					if r.ReflectionTools[tool] != r.Reflections {
						t.Errorf("reflect-all, %s game %d: %d %s calls for %d reflections", r.Family, r.Episode, r.ReflectionTools[tool], tool, r.Reflections)
					}
				}
			}
			if agent != "dyref-ambiguity" && r.ReflectionTools[agents.ReflectAmbiguity] != 0 {
				t.Errorf("%s, %s game %d: %d ambiguity calls", agent, r.Family, r.Episode, r.ReflectionTools[agents.ReflectAmbiguity])
			}
		}
		t.Logf("%s: %d games, SR@1 %d, SR@5 %d, %d reflections, %d reflection tokens", agent, s.games, s.first, s.fifth, s.reflections, s.tokens)
	}
	if nr := got["no-reflect"]; nr.reflections != 0 || nr.fifth-nr.first > nr.games/20 {
		t.Errorf("no-reflect: %d reflections, SR@1 %d, SR@5 %d; want none, and retries alone to fix little", nr.reflections, nr.first, nr.fifth)
	}
	for _, agent := range []string{"dyref", "dyref-ambiguity", "reflect-all"} {
		if s := got[agent]; s.first != got["no-reflect"].first || s.fifth <= s.first {
			t.Errorf("%s: SR@1 %d (no-reflect %d), SR@5 %d; want the same first trials and reflection to help", agent, s.first, got["no-reflect"].first, s.fifth)
		}
	}
}

// Training the router twice on a small split, at different concurrency,
// gives the same bytes; the split gives examples, and the router fits
// them better than chance.
func TestTrainRouterIsDeterministic(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip(singlePath)
	}
	m, err := models.Open("sim", nil)
	if err != nil {
		t.Fatal(err)
	}
	opts := dyref.DefaultTrainOptions()
	opts.Epochs = 100
	var files [2][]byte
	for i, conc := range []int{1, 2} {
		r, d, err := TrainRouter(context.Background(), RouterTraining{Model: m, Games: 150, Alpha: DefaultRouterAlpha, Train: opts, Concurrency: conc})
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Examples) < 10 || d.FailedFirst < len(d.Examples) || len(d.Success) != len(d.Examples) {
			t.Fatalf("%d games: %d failed at trial 1, %d examples", d.Games, d.FailedFirst, len(d.Examples))
		}
		if acc := r.Accuracy(d.Examples); acc < 2/float64(r.Tools()+1) {
			t.Errorf("training accuracy %.3f", acc)
		}
		var b bytes.Buffer
		if _, err := r.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		files[i] = b.Bytes()
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Error("the router's weights depend on the concurrency")
	}
}

// The shipped routers read and take the factor vector dyref builds.
func TestShippedRouter(t *testing.T) {
	t.Parallel()
	for _, open := range []func() (*dyref.Router, error){dyref.Default, dyref.DefaultAmbiguity} {
		r, err := open()
		if err != nil {
			t.Fatal(err)
		}
		if r.Inputs() != len(dyref.VectorNames()) {
			t.Errorf("shipped router takes %d inputs, the factors are %d", r.Inputs(), len(dyref.VectorNames()))
		}
	}
}

// The model-driven household agents give the same records at any
// concurrency: the router is shared and read only, and every draw of the
// simulated model comes from the request.
func TestHouseholdWorkflowsIndependentOfConcurrency(t *testing.T) {
	t.Parallel()
	m, err := models.Open("sim", nil)
	if err != nil {
		t.Fatal(err)
	}
	opts := bench.Options{Track: New(), Model: m, Agents: []string{"reflexion", "dyref", "dyref-ambiguity", "reflect-all"},
		Perturbations: []string{"none", "multiplicity"}, Episodes: 8}
	opts.Concurrency = 1
	a := runHousehold(t, opts)
	opts.Concurrency = 4
	b := runHousehold(t, opts)
	if len(a) != len(b) || len(a) == 0 {
		t.Fatalf("%d and %d records", len(a), len(b))
	}
	reflections := 0
	for i := range a {
		for _, r := range []*results.Record{&a[i], &b[i]} {
			r.WallMS, r.LatencyP50MS, r.LatencyP95MS = 0, 0, 0
		}
		if !reflect.DeepEqual(a[i], b[i]) {
			t.Fatalf("record %d differs:\n%+v\nvs\n%+v", i, a[i], b[i])
		}
		reflections += a[i].Reflections
	}
	if reflections == 0 {
		t.Error("no game was reflected on; the test shows nothing about reflection")
	}
}
