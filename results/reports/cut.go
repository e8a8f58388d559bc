package reports

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/stats"
)

// A TrialCut is a published cut of a multi-trial track's results: the
// records Keep accepts, summed up as a run of Trial trials would have
// ended (SR@1, SR@k, Cost_ref@k and Rate_rev@k, docs/metrics.md). A track
// offers the cut by listing its [TrialCut.Section]; the report shows it
// when [Options.Cut] names it (ambibench report --cut), and refuses
// the name when no track of the records offers it.
type TrialCut struct {
	// Name is what Options.Cut (--cut) says; the section is named
	// Name+"_cut".
	Name string
	// Title is the section's title; Games is the caption's first
	// sentence, which says what records the cut keeps and whose cut it
	// is.
	Title, Games string
	// Trial is the trial the cut reports at.
	Trial int
	// Keep says which scored records the cut keeps.
	Keep func(results.Record) bool
}

// Section is the report section that shows the cut.
func (c TrialCut) Section() Section {
	return Section{name: c.Name + "_cut", cut: c.Name, write: func(rp *reporter, b *strings.Builder) { rp.trialCutTable(b, c) }}
}

// Cuts lists, sorted, the cuts the sections of tracks offer: what
// Options.Cut may name.
func Cuts(tracks map[string]Track) []string {
	var out []string
	for _, t := range tracks {
		for _, s := range t.sections() {
			if s.cut != "" && !slices.Contains(out, s.cut) {
				out = append(out, s.cut)
			}
		}
	}
	slices.Sort(out)
	return out
}

// checkCut refuses a cut that no track of recs shows: one unknown, or
// whose section is in none of their tracks' reports (a household cut of
// a tabletop run), since the report would then leave it out without a
// word. It names the tracks that do show it.
func checkCut(cut string, have []string, tracks map[string]Track) error {
	known := Cuts(tracks)
	if !slices.Contains(known, cut) {
		return fmt.Errorf("cut %q: unknown (have %s)", cut, cmp.Or(strings.Join(known, ", "), "none"))
	}
	lists := func(track string) bool {
		return slices.ContainsFunc(tracks[track].sections(), func(s Section) bool { return s.cut == cut })
	}
	if slices.ContainsFunc(have, lists) {
		return nil
	}
	var shown []string // not empty: a track offers the cut
	for _, t := range slices.Sorted(maps.Keys(tracks)) {
		if lists(t) {
			shown = append(shown, t)
		}
	}
	return fmt.Errorf("cut %q is of records of the %s track, and these records are of the %s track", cut, strings.Join(shown, " or "), strings.Join(have, " and "))
}

// trialCutTable writes the cut c when the report asks for it.
func (rp *reporter) trialCutTable(b *strings.Builder, c TrialCut) {
	if rp.cut != c.Name {
		return
	}
	type row struct {
		label string
		t     stats.TrialsAt
	}
	var rows []row
	for _, u := range rp.units {
		recs := u.recs.filter(c.Keep)
		if recs.len() == 0 {
			continue
		}
		rows = append(rows, row{u.label, stats.SumTrialsAt(recs.records(), c.Trial)})
	}
	if len(rows) == 0 {
		return
	}
	section(b, c.Title,
		c.Games+fmt.Sprintf(" SR@1 and SR@%[1]d: solved by trial 1 and by trial %[1]d. Rate_rev@%[1]d: games failed at trial 1 and solved by trial %[1]d ÷ games failed at trial 1 (Wilson interval). Cost_ref@%[1]d: tokens of the reflections run before trial %[1]d (the ones a run of %[1]d trials makes) ÷ games failed at trial 1 and solved by trial %[1]d; — when none was, or for records that do not say which trial each reflection followed. See docs/metrics.md.",
			c.Trial))
	header(b, "agent", "games", "SR@1", fmt.Sprintf("SR@%d", c.Trial), fmt.Sprintf("Cost_ref@%d", c.Trial), fmt.Sprintf("Rate_rev@%d", c.Trial))
	for _, r := range rows {
		cost := "—"
		if v, ok := r.t.CostRef(); ok {
			cost = fmt.Sprintf("%.0f", v)
		}
		writeRow(b, []string{r.label, fmt.Sprint(r.t.Games), rateCell(r.t.SR1), rateCell(r.t.SRK), cost, rateCell(r.t.RateRev())})
	}
	b.WriteString("\n")
}
