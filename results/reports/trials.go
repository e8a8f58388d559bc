package reports

import (
	"fmt"
	"strings"

	"github.com/ambibench/ambibench/results/stats"
)

// trialTable is the household track's success curve by trial, and the
// length of the solving trajectories; reflectionTable follows it.
func (rp *reporter) trialTable(b *strings.Builder) {
	k := 0
	for _, u := range rp.units {
		for r := range u.recs.all() {
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
		t := stats.SumTrials(u.recs.records(), k)
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
