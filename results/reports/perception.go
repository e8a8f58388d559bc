package reports

import (
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/stats"
)

// SectionPerception: what each agent's own perception got wrong against
// the table (phantom nodes, missed objects, wrong relations per episode,
// docs/metrics.md), and how often such an error came before a failure.
var SectionPerception = Section{name: "perception", write: (*reporter).perceptionTable}

// perceptionTable writes, per agent that perceives the table itself and
// per perturbation, the mean errors per episode with bootstrap intervals,
// and of the failed episodes those whose perception had erred. A
// workflow reports its perception before it acts, so an error in a failed
// episode preceded the failure; whether it caused it the record cannot
// say.
func (rp *reporter) perceptionTable(b *strings.Builder) {
	var units []unit
	for _, u := range rp.units {
		if u.recs.any(func(r results.Record) bool { return r.Perception != "" || perceptionErrs(r) > 0 }) {
			units = append(units, u)
		}
	}
	if len(units) == 0 {
		return
	}
	section(b, "Perception",
		"What each agent's own perception of the table got wrong, per episode, as the means over the cell's episodes with 95% bootstrap intervals ("+
			strconv.Itoa(stats.BootstrapResamples)+" resamples of the episodes): phantom nodes (a node with nothing under it), missed objects (an object in view that no node stands for), wrong relations (a relation between two real objects that the table's geometry does not hold). Task families pooled, at their own scene size. "+
			"The last column is, of the failed episodes (SR false), those in which the agent's perception had erred (any of the three), with a Wilson interval: the agent reports what it perceived before it acts, so the error came first.")
	header(b, "agent", "perturbation", "n", "phantom nodes/ep", "missed objects/ep", "wrong relations/ep", "failed after a perception error")
	for _, u := range units {
		for _, p := range rp.perturbs {
			recs := u.recs.filter(func(r results.Record) bool { return r.Perturbation == p && r.SceneSize == 0 })
			if recs.len() == 0 {
				continue
			}
			cols := make([][]int64, 3)
			var failed stats.Rate
			for r := range recs.all() {
				cols[0] = append(cols[0], int64(r.PhantomNodes))
				cols[1] = append(cols[1], int64(r.MissedObjects))
				cols[2] = append(cols[2], int64(r.WrongRelations))
				if !r.Success {
					failed.N++
					if perceptionErrs(r) > 0 {
						failed.K++
					}
				}
			}
			est := stats.BootstrapMeans(cols)
			writeRow(b, []string{u.label, p, strconv.Itoa(recs.len()), meanCell(est[0]), meanCell(est[1]), meanCell(est[2]), rateCell(failed)})
		}
	}
	b.WriteString("\n")
}

// perceptionErrs counts a record's perception errors of the three kinds.
func perceptionErrs(r results.Record) int { return r.PhantomNodes + r.MissedObjects + r.WrongRelations }
