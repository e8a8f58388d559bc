package compare

import (
	"math/rand/v2"
	"testing"

	"github.com/ambibench/ambibench/results/stats"
)

// The gate's power, as README.md ("Comparing runs") states it. The model:
// one cell of 100 paired episodes drops in SR from base 0.8 by d, among
// powerComparisons comparisons (20 cells × SR and ADA: one default
// tabletop agent) of which the other 39 do not change. Pairs are drawn
// directly as their discordance: with no change, 8% of pairs go each way
// (b and c each ~8 per 100: measured between sim and sim:salt=1 on the
// default tabletop grid, where direct and sgcot, at SR 0.80, had 7.3% and
// 9.6% of their pairs discordant each way); a drop d adds d to the
// BASE-won pairs, so each pair is BASE-won with probability 0.08+d,
// NEW-won with 0.08, concordant otherwise. The gate is α = 0.05 after Holm, minimum effect
// 0.05. powerDrop is the smallest d, in steps of 0.01, that fails the
// gate in 80% of powerTrials simulations.
const (
	powerComparisons = 40
	powerPairs       = 100
	powerBaseSR      = 0.8
	powerDiscordance = 0.08
	powerTrials      = 2000
	powerDrop        = 0.26 // measured by TestGatePower; README.md says it
)

// gateRejects simulates one run of the gate and reports whether it fails
// the one changed comparison.
func gateRejects(rng *rand.Rand, d float64) bool {
	ps := make([]float64, powerComparisons)
	var diff0 float64
	for i := range ps {
		pb := powerDiscordance
		if i == 0 {
			pb += d
		}
		b, c := 0, 0
		for range powerPairs {
			u := rng.Float64()
			switch {
			case u < pb:
				b++
			case u < pb+powerDiscordance:
				c++
			}
		}
		ps[i] = stats.McNemarP(b, c)
		if i == 0 {
			diff0 = float64(c-b) / powerPairs
		}
	}
	return stats.Holm(ps)[0] < 0.05 && -diff0 >= 0.05
}

func powerAt(d float64, seed uint64) float64 {
	rng := rand.New(rand.NewPCG(seed, 14))
	hits := 0
	for range powerTrials {
		if gateRejects(rng, d) {
			hits++
		}
	}
	return float64(hits) / powerTrials
}

// TestGatePower measures the gate's power by simulation and checks the
// figure README.md states: 80% reached at powerDrop, not a step before.
func TestGatePower(t *testing.T) {
	t.Parallel()
	at, before := powerAt(powerDrop, 1), powerAt(powerDrop-0.01, 1)
	t.Logf("power at a drop of %.2f: %.3f; at %.2f: %.3f", powerDrop, at, powerDrop-0.01, before)
	if at < 0.8 || before >= 0.8 {
		t.Errorf("power %.3f at a drop of %.2f and %.3f at %.2f: the smallest drop detected 80%% of the time is not %.2f; measure again and update README.md",
			at, powerDrop, before, powerDrop-0.01, powerDrop)
	}
	// The null: with no change the gate fails no more often than α.
	if fp := powerAt(0, 2); fp > 0.05 {
		t.Errorf("with no change the gate failed %.3f of the time, more than α", fp)
	}
}
