package results

import (
	"fmt"
	"strings"
)

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
func SumTrials(recs []Record, k int) Trials {
	recs = ScoredOnly(recs)
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

// trialTable is the household track's success curve by trial, and the
// length of the solving trajectories; reflectionTable follows it.
func (rp *reporter) trialTable(b *strings.Builder) {
	k := 0
	for _, u := range rp.units {
		for _, r := range u.recs {
			k = max(k, r.Trials)
		}
	}
	if k == 0 {
		return
	}
	section(b, "Success by trial",
		"Games with more than one trial (household). SR@k: solved by trial k; steps per success against the expert's shortest plan for the same games. What reflecting cost and bought is in the next section.")
	fields := []string{"agent", "games"}
	for i := range k {
		fields = append(fields, fmt.Sprintf("SR@%d", i+1))
	}
	fields = append(fields, "steps/success", "optimal steps")
	header(b, fields...)
	for _, u := range rp.units {
		t := SumTrials(u.recs, k)
		if t.Games == 0 {
			continue
		}
		row := []string{u.label, fmt.Sprint(t.Games)}
		for _, r := range t.SRAt {
			row = append(row, rateCell(r))
		}
		steps, opt := "—", "—"
		if t.Solved > 0 {
			steps = fmt.Sprintf("%.1f", float64(t.Steps)/float64(t.Solved))
			opt = fmt.Sprintf("%.1f", float64(t.Optimal)/float64(t.Solved))
		}
		row = append(row, steps, opt)
		writeRow(b, row)
	}
	b.WriteString("\n")
}
