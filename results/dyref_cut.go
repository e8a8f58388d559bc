package results

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// DyRef's published cut of the household results (issue 16): the clear
// games of the 134-game evaluation split less the pick-two type, as the
// DyRef paper reports ALFWorld, with its four figures at trial 4. The
// definitions are docs/metrics.md's.

// CutDyRef names the cut in ReportOptions.Cut (ambibench report --cut).
const CutDyRef = "dyref"

// dyrefCutTrial is the trial the DyRef paper reports at.
const dyrefCutTrial = 4

// dyrefCutLeftOut is the task type the cut leaves out, and dyrefCutPert
// the perturbation it keeps (the paper's games are clear).
const (
	dyrefCutLeftOut = "pick_two_obj_and_place"
	dyrefCutPert    = "none"
)

// Cuts lists the cuts a report can add.
func Cuts() []string { return []string{CutDyRef} }

// cutSections maps each cut to the section that shows it.
var cutSections = map[string]Section{CutDyRef: SectionDyRefCut}

// checkCut refuses a cut that no track of recs shows: one unknown, or
// whose section is in none of their tracks' reports (DyRef's cut of a
// tabletop run), since the report would then leave it out without a
// word. It names the tracks that do show it.
func checkCut(cut string, recs []Record, tracks map[string]TrackReport) error {
	sec, ok := cutSections[cut]
	if !ok {
		return fmt.Errorf("cut %q: unknown (have %s)", cut, strings.Join(Cuts(), ", "))
	}
	lists := func(track string) bool {
		return slices.ContainsFunc(tracks[track].sections(), func(s Section) bool { return s.name == sec.name })
	}
	have := distinct(recs, func(r Record) string { return r.Track }, cmp.Compare[string])
	if slices.ContainsFunc(have, lists) {
		return nil
	}
	var shown []string
	for _, t := range slices.Sorted(maps.Keys(tracks)) {
		if lists(t) {
			shown = append(shown, t)
		}
	}
	where := "no track's records"
	if len(shown) > 0 {
		where = "records of the " + strings.Join(shown, " or ") + " track"
	}
	return fmt.Errorf("cut %q is of %s, and these records are of the %s track", cut, where, strings.Join(have, " and "))
}

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
func SumTrialsAt(recs []Record, k int) TrialsAt {
	t := TrialsAt{K: k, TokensKnown: true}
	for _, r := range ScoredOnly(recs) {
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

// dyrefCutTable writes DyRef's cut when the report asks for it.
func (rp *reporter) dyrefCutTable(b *strings.Builder) {
	if rp.cut != CutDyRef {
		return
	}
	type row struct {
		label string
		t     TrialsAt
	}
	var rows []row
	for _, u := range rp.units {
		recs := filter(u.recs, func(r Record) bool { return r.Family != dyrefCutLeftOut && r.Perturbation == dyrefCutPert })
		if len(recs) == 0 {
			continue
		}
		rows = append(rows, row{u.label, SumTrialsAt(recs, dyrefCutTrial)})
	}
	if len(rows) == 0 {
		return
	}
	section(b, "DyRef's cut",
		fmt.Sprintf("As the DyRef paper reports ALFWorld: the clear games (perturbation %s) of the evaluation split less the pick-two type (%s). SR@1 and SR@%[3]d: solved by trial 1 and by trial %[3]d. Rate_rev@%[3]d: games failed at trial 1 and solved by trial %[3]d ÷ games failed at trial 1 (Wilson interval). Cost_ref@%[3]d: tokens of the reflections run before trial %[3]d (the ones a run of %[3]d trials makes) ÷ games failed at trial 1 and solved by trial %[3]d; — when none was, or for records that do not say which trial each reflection followed. See docs/metrics.md.",
			dyrefCutPert, dyrefCutLeftOut, dyrefCutTrial))
	header(b, "agent", "games", "SR@1", fmt.Sprintf("SR@%d", dyrefCutTrial), fmt.Sprintf("Cost_ref@%d", dyrefCutTrial), fmt.Sprintf("Rate_rev@%d", dyrefCutTrial))
	for _, r := range rows {
		cost := "—"
		if v, ok := r.t.CostRef(); ok {
			cost = fmt.Sprintf("%.0f", v)
		}
		writeRow(b, []string{r.label, fmt.Sprint(r.t.Games), rateCell(r.t.SR1), rateCell(r.t.SRK), cost, rateCell(r.t.RateRev())})
	}
	b.WriteString("\n")
}
