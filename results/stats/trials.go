package stats

import "github.com/ambibench/ambibench/results"

// Trials sums up the records of a multi-trial track (household) for one
// agent: success by trial, and what reflecting between trials cost and
// bought.
type Trials struct {
	// SRAt[k-1] is the share of games solved by trial k.
	SRAt []Rate
	// Games is the number of records; Reflections, Redundant and
	// ReflectionTokens are their sums.
	Games, Reflections, Redundant, ReflectionTokens int
	// FailedFirst counts the games not solved at trial 1; Corrected those
	// of them solved at a later trial.
	FailedFirst, Corrected int
	// Steps and Optimal sum, over the solved games, the commands sent and
	// the expert's shortest plan.
	Solved, Steps, Optimal int
}

// SumTrials sums up recs over trials 1..k, leaving out the records of an
// infrastructure failure.
func SumTrials(recs []results.Record, k int) Trials {
	recs = results.ScoredOnly(recs)
	t := Trials{SRAt: make([]Rate, k), Games: len(recs)}
	for _, r := range recs {
		for i := range k {
			t.SRAt[i].N++
			if r.SolvedBy(i + 1) {
				t.SRAt[i].K++
			}
		}
		t.Reflections += r.Reflections
		t.Redundant += r.RedundantReflections
		t.ReflectionTokens += r.ReflectionTokens
		if !r.SolvedBy(1) {
			t.FailedFirst++
			if r.Success {
				t.Corrected++
			}
		}
		if r.Success {
			t.Solved++
			t.Steps += r.Steps
			t.Optimal += r.OptimalSteps
		}
	}
	return t
}

// CostRef is Cost_ref: reflection tokens per game that reflection
// corrected; ok is false when none was corrected.
func (t Trials) CostRef() (v float64, ok bool) {
	if t.Corrected == 0 {
		return 0, false
	}
	return float64(t.ReflectionTokens) / float64(t.Corrected), true
}

// RateRev is Rate_rev: the games corrected after trial 1 over the games
// failed at trial 1.
func (t Trials) RateRev() Rate { return Rate{K: t.Corrected, N: t.FailedFirst} }

// TrialsAt sums up recs as a run of k trials would have ended: SR@1 and
// SR@k, Rate_rev@k and Cost_ref@k (docs/metrics.md). A reflection counts
// when it looked back on a trial before k, so before trial k was played:
// a run cut at k trials would have made exactly those. ok is false when
// some record reflected without saying on which trials
// (reflection_trials, which records before it lack), so that
// Cost_ref@k cannot be told.
type TrialsAt struct {
	K           int
	Games       int
	SR1, SRK    Rate
	FailedFirst int // games not solved at trial 1
	Corrected   int // of them, solved by trial K
	Tokens      int // reflection tokens before trial K
	TokensKnown bool
	Reflections int // reflections before trial K
}

// SumTrialsAt sums recs (the scored ones) at trial k.
func SumTrialsAt(recs []results.Record, k int) TrialsAt {
	t := TrialsAt{K: k, TokensKnown: true}
	for _, r := range results.ScoredOnly(recs) {
		t.Games++
		t.SR1.N++
		t.SRK.N++
		if r.SolvedBy(1) {
			t.SR1.K++
		} else {
			t.FailedFirst++
			if r.SolvedBy(k) {
				t.Corrected++
			}
		}
		if r.SolvedBy(k) {
			t.SRK.K++
		}
		if r.Reflections == 0 {
			continue
		}
		if len(r.ReflectionTrials) != r.Reflections || len(r.ReflectionTokenCounts) != r.Reflections {
			t.TokensKnown = false
			continue
		}
		for i, trial := range r.ReflectionTrials {
			if trial < k {
				t.Tokens += r.ReflectionTokenCounts[i]
			}
		}
	}
	return t
}

// RateRev is Rate_rev@K: the games failed at trial 1 and solved by trial
// K over the games failed at trial 1.
func (t TrialsAt) RateRev() Rate { return Rate{K: t.Corrected, N: t.FailedFirst} }

// CostRef is Cost_ref@K: the reflection tokens spent before trial K over
// the games failed at trial 1 and solved by trial K; ok is false when no
// game was, or the tokens cannot be told.
func (t TrialsAt) CostRef() (float64, bool) {
	if t.Corrected == 0 || !t.TokensKnown {
		return 0, false
	}
	return float64(t.Tokens) / float64(t.Corrected), true
}
