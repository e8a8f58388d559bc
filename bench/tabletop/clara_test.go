package tabletop

import (
	"context"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm/models"
)

// clearAndAmbiguous are the perturbations without noise: the cells where a
// workflow on the perfect simulated model must be perfect.
var clearAndAmbiguous = []string{"none", "absence", "multiplicity", "underspecified", "partial_observability"}

// With the perfect simulated model clara is perfect in every cell: the
// samples agree on clear instructions and disagree on ambiguous ones, the
// calibrated threshold separates them, the classifier gives the right tag,
// and the tool loop carries out the plan after the answer.
func TestCLARAWithPerfectModel(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip(singlePath)
	}
	for key, c := range runWorkflowOn(t, "clara", "sim:perfect", 30, clearAndAmbiguous) {
		if c.ADA.Value() != 1 || c.SR.Value() != 1 || c.Errors != 0 {
			t.Errorf("%s: ADA %.2f SR %.2f errors %d, want 1, 1, 0", key, c.ADA.Value(), c.SR.Value(), c.Errors)
		}
	}
}

// The calibration split is scored once per key and model, however many
// episodes ask for it at once, and its threshold separates the perfect
// model's clear and ambiguous calibration episodes.
func TestCalibrationSharedAndSeparating(t *testing.T) {
	t.Parallel()
	m, err := models.Open("sim:perfect", nil)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := agents.Lookup("clara")
	calib := NewCalibration(1, 3)
	calls := 0
	a, err := f.New(agents.Config{Model: m, Calibration: calib})
	if err != nil {
		t.Fatal(err)
	}
	score := a.(interface {
		Score(context.Context, agents.Env) (float64, error)
	}).Score
	counting := func(ctx context.Context, env agents.Env) (float64, error) { calls++; return score(ctx, env) }
	first, err := calib.Scores(context.Background(), "k", counting)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := calib.Scores(context.Background(), "k", counting)
	if calls != len(first) || len(again) != len(first) {
		t.Fatalf("scored %d episodes for %d results and %d on the second ask; want each episode scored once", calls, len(first), len(again))
	}
	// A clear instruction gives every sample the same plan, so no clear
	// episode may score above the threshold. An ambiguous one may score 0
	// when every sample's plan begins with the same message to the other
	// robot (it cannot see the block), so most, not all, score above.
	var amb, clear, above int
	thr := agents.FitThreshold(first)
	for _, s := range first {
		switch {
		case !s.Ambiguous:
			clear++
			if s.Score > thr {
				t.Errorf("clear episode scored %.2f, above the threshold %.2f", s.Score, thr)
			}
		case s.Score > thr:
			amb++
			above++
		default:
			amb++
		}
	}
	if amb == 0 || clear == 0 || float64(above) < 0.9*float64(amb) {
		t.Fatalf("%d clear and %d ambiguous calibration episodes, %d of them above the threshold; want both kinds and 90%% above", clear, amb, above)
	}
}
