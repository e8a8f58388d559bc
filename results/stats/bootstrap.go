package stats

import (
	"math"
	"math/rand/v2"
	"slices"
)

// BootstrapResamples is how many resamples of the episodes (or games)
// give the 95% intervals of [BootstrapMeans] and [SummarizeReflections]
// (the per-game means and Cost_ref).
const BootstrapResamples = 2000

// bootstrapSeed seeds the resampling. Every call draws the same index
// sequence for the same number of games, so an interval depends on the
// records alone, never on the run or the order of the units.
var bootstrapSeed = [2]uint64{0x616d6269, 0x62656e63}

// Estimate is a statistic with its 95% interval [Lo, Hi]. OK is false
// when the statistic is undefined (Cost_ref without a corrected game);
// Interval is false when the statistic is defined but has no interval.
type Estimate struct {
	Value, Lo, Hi float64
	OK, Interval  bool
}

// BootstrapMeans is the mean of each column (one value per episode, the
// columns of equal length) with its 95% percentile interval over
// [BootstrapResamples] resamples of the episodes, drawn from a fixed
// seed, so the same values give the same intervals on every run.
func BootstrapMeans(cols [][]int64) []Estimate {
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

// quantile reads the q-quantile of sorted values, interpolating linearly
// between the order statistics on either side of q·(len−1).
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	pos := q * float64(len(sorted)-1)
	i := int(pos)
	if i+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	f := pos - float64(i)
	return sorted[i] + f*(sorted[i+1]-sorted[i])
}
