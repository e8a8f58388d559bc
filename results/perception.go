package results

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// SectionPerception: what each agent's own perception got wrong against
// the table (phantom nodes, missed objects, wrong relations per episode,
// docs/metrics.md), and how often such an error came before a failure.
var SectionPerception = Section{"perception", (*reporter).perceptionTable}

// perceptionTable writes, per agent that perceives the table itself and
// per perturbation, the mean errors per episode with bootstrap intervals,
// and of the failed episodes those whose perception had erred. A
// workflow reports its perception before it acts, so an error in a failed
// episode preceded the failure; whether it caused it the record cannot
// say.
func (rp *reporter) perceptionTable(b *strings.Builder) {
	var units []unit
	for _, u := range rp.units {
		if slices.ContainsFunc(u.recs, func(r Record) bool { return r.Perception != "" || perceptionErrs(r) > 0 }) {
			units = append(units, u)
		}
	}
	if len(units) == 0 {
		return
	}
	section(b, "Perception",
		"What each agent's own perception of the table got wrong, per episode, as the means over the cell's episodes with 95% bootstrap intervals ("+
			strconv.Itoa(BootstrapResamples)+" resamples of the episodes): phantom nodes (a node with nothing under it), missed objects (an object in view that no node stands for), wrong relations (a relation between two real objects that the table's geometry does not hold). Task families pooled, at their own scene size. "+
			"The last column is, of the failed episodes (SR false), those in which the agent's perception had erred (any of the three), with a Wilson interval: the agent reports what it perceived before it acts, so the error came first.")
	header(b, "agent", "perturbation", "n", "phantom nodes/ep", "missed objects/ep", "wrong relations/ep", "failed after a perception error")
	for _, u := range units {
		for _, p := range rp.perturbs {
			recs := filter(u.recs, func(r Record) bool { return r.Perturbation == p && r.SceneSize == 0 })
			if len(recs) == 0 {
				continue
			}
			cols := make([][]int64, 3)
			var failed Rate
			for _, r := range recs {
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
			est := bootstrapMeans(cols)
			writeRow(b, []string{u.label, p, strconv.Itoa(len(recs)), meanCell(est[0]), meanCell(est[1]), meanCell(est[2]), rateCell(failed)})
		}
	}
	b.WriteString("\n")
}

// perceptionErrs counts a record's perception errors of the three kinds.
func perceptionErrs(r Record) int { return r.PhantomNodes + r.MissedObjects + r.WrongRelations }

// bootstrapMeans is the mean of each column (one value per episode, the
// columns of equal length) with its 95% percentile interval over
// BootstrapResamples resamples of the episodes, drawn from bootstrapSeed,
// so the same values give the same intervals on every run.
func bootstrapMeans(cols [][]int64) []Estimate {
	n := len(cols[0])
	out := make([]Estimate, len(cols))
	if n == 0 {
		return out
	}
	means := make([][]float64, len(cols))
	sums := make([]int64, len(cols))
	rng := rand.New(rand.NewPCG(bootstrapSeed[0], bootstrapSeed[1]))
	for range BootstrapResamples {
		clear(sums)
		for range n {
			i := rng.IntN(n)
			for c := range cols {
				sums[c] += cols[c][i]
			}
		}
		for c := range cols {
			means[c] = append(means[c], float64(sums[c])/float64(n))
		}
	}
	for c, col := range cols {
		var total int64
		for _, v := range col {
			total += v
		}
		slices.Sort(means[c])
		out[c] = Estimate{Value: float64(total) / float64(n), Lo: quantile(means[c], 0.025), Hi: quantile(means[c], 0.975), OK: true, Interval: true}
	}
	return out
}
