package agents

import (
	"context"
	"slices"
)

// Calibrator gives an agent labelled episodes to fit a decision threshold
// on. The episodes are drawn apart from the test episodes, so fitting on
// them leaks nothing of the test set.
type Calibrator interface {
	// Scores runs score on every calibration episode and returns the
	// results. key names what is being calibrated (agent and model): the
	// harness computes each key's scores once per run and shares them.
	Scores(ctx context.Context, key string, score ScoreFunc) ([]Scored, error)
	// Threshold is FitThreshold of key's Scores. The harness keeps what
	// it fitted, so that a run can say which threshold each agent used.
	Threshold(ctx context.Context, key string, score ScoreFunc) (float64, error)
}

// ScoreFunc is an agent's uncertainty on one episode, higher meaning less
// sure; it may look at the episode and call the model, but not act.
type ScoreFunc func(ctx context.Context, env Env) (float64, error)

// Scored is one calibration episode's score and whether the episode was
// ambiguous, so that asking was right.
type Scored struct {
	Score     float64
	Ambiguous bool
}

// FitThreshold returns the threshold t that best separates the ambiguous
// episodes (score > t: ask) from the clear ones (score ≤ t: act), by
// balanced accuracy, so that a calibration split with few ambiguous
// episodes does not teach the agent never to ask. Ties go to the lowest
// threshold. With no episodes it returns 0.
func FitThreshold(s []Scored) float64 {
	if len(s) == 0 {
		return 0
	}
	cands := []float64{-1}
	for _, x := range s {
		cands = append(cands, x.Score)
	}
	slices.Sort(cands)
	cands = slices.Compact(cands)
	best, bestAcc := 0.0, -1.0
	for _, t := range cands {
		if acc := BalancedAccuracy(s, t); acc > bestAcc {
			best, bestAcc = t, acc
		}
	}
	return best
}

// BalancedAccuracy is how well the threshold t separates s: the mean of
// the share of ambiguous episodes above it (asked) and the share of clear
// ones at or below it (acted on), from 0 to 1. A class with no episodes
// counts as none right. With no episodes it returns 0.
func BalancedAccuracy(s []Scored, t float64) float64 {
	var pos, neg, tp, tn int
	for _, x := range s {
		switch {
		case x.Ambiguous:
			pos++
			if x.Score > t {
				tp++
			}
		default:
			neg++
			if x.Score <= t {
				tn++
			}
		}
	}
	acc := 0.0
	if pos > 0 {
		acc += float64(tp) / float64(pos)
	}
	if neg > 0 {
		acc += float64(tn) / float64(neg)
	}
	return acc / 2
}

// Calibrated is an agent that fits something on the calibration split
// before it acts. A harness that times episodes calls Calibrate first, so
// that the fit is not charged to whichever episode comes first.
type Calibrated interface {
	Calibrate(ctx context.Context) error
}
