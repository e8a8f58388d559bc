package stats

import (
	"maps"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/ambibench/ambibench/results"
)

// minDefinedShare is the share of resamples that must define a ratio
// (Cost_ref: a resample with a corrected game) for its interval to be
// given; below it the interval would describe a conditional distribution
// that many resamples fall outside.
const minDefinedShare = 0.95

// TokenSpread describes the tokens of single reflections.
type TokenSpread struct {
	// N counts the reflections with a recorded token count.
	N        int
	Min, Max int
	Mean     float64
	// CV is the coefficient of variation: the population standard
	// deviation over Mean (the reflections are all there are, not a
	// sample of them); 0 when Mean is 0.
	CV float64
}

// ReflectionStats sums up how one agent reflected over its games.
type ReflectionStats struct {
	Games int
	// Per game: reflections, redundant reflections, reflection tokens,
	// and calls of each reflection tool.
	Reflections, Redundant, Tokens Estimate
	Tools                          map[string]Estimate
	// CostRef is reflection tokens per corrected game; RateRev the games
	// corrected over the games failed at trial 1, as in [Trials].
	CostRef Estimate
	RateRev Rate
	// PerReflection spreads [Record.ReflectionTokenCounts].
	PerReflection TokenSpread
}

// SummarizeReflections computes the reflection statistics of recs, the
// records of one agent with one model. The per-game means and Cost_ref
// carry 95% percentile bootstrap intervals: [BootstrapResamples]
// resamples of the games, drawn with a fixed seed, each interval bound
// interpolated between order statistics. Cost_ref's interval is left out
// when fewer than 95% of the resamples hold a corrected game. The
// intervals depend on the order of recs, since the resampled indices are
// fixed; the report (results/reports) sorts each agent's records by key
// first.
//
// Records of an infrastructure failure are left out.
func SummarizeReflections(recs []results.Record) ReflectionStats {
	recs = results.ScoredOnly(recs)
	n := len(recs)
	t := SumTrials(recs, 1)
	s := ReflectionStats{Games: n, RateRev: t.RateRev(), Tools: map[string]Estimate{}}
	if n == 0 {
		return s
	}
	toolSet := map[string]bool{}
	var counts []int
	for _, r := range recs {
		for name := range r.ReflectionTools {
			toolSet[name] = true
		}
		counts = append(counts, r.ReflectionTokenCounts...)
	}
	tools := slices.Sorted(maps.Keys(toolSet))
	s.PerReflection = spread(counts)

	// One column of integers per game and statistic; the sums over a
	// resample are exact, so the intervals do not depend on summation
	// order. A game's values also sit side by side in byGame, which the
	// resampling reads.
	const (
		colRefl = iota
		colRedundant
		colTokens
		colCorrected
		colTools
	)
	cols := make([][]int64, colTools+len(tools))
	for c := range cols {
		cols[c] = make([]int64, n)
	}
	for i, r := range recs {
		cols[colRefl][i] = int64(r.Reflections)
		cols[colRedundant][i] = int64(r.RedundantReflections)
		cols[colTokens][i] = int64(r.ReflectionTokens)
		cols[colCorrected][i] = int64(b2i(!r.SolvedBy(1) && r.Success))
		for j, name := range tools {
			cols[colTools+j][i] = int64(r.ReflectionTools[name])
		}
	}
	total := func(c int) int64 {
		var v int64
		for _, x := range cols[c] {
			v += x
		}
		return v
	}
	m := len(cols)
	byGame := make([]int64, n*m)
	for i := range n {
		for c := range cols {
			byGame[i*m+c] = cols[c][i]
		}
	}
	means := make([][]float64, len(cols)) // per column, the resamples' means
	var ratios []float64                  // Cost_ref of the resamples that define it
	rng := rand.New(rand.NewPCG(bootstrapSeed[0], bootstrapSeed[1]))
	sums := make([]int64, len(cols))
	for range BootstrapResamples {
		clear(sums)
		for range n {
			i := rng.IntN(n)
			for c, v := range byGame[i*m : (i+1)*m] {
				sums[c] += v
			}
		}
		for c := range cols {
			means[c] = append(means[c], float64(sums[c])/float64(n))
		}
		if sums[colCorrected] > 0 {
			ratios = append(ratios, float64(sums[colTokens])/float64(sums[colCorrected]))
		}
	}
	meanEstimate := func(c int) Estimate {
		slices.Sort(means[c])
		return Estimate{
			Value: float64(total(c)) / float64(n),
			Lo:    quantile(means[c], 0.025), Hi: quantile(means[c], 0.975),
			OK: true, Interval: true,
		}
	}
	s.Reflections = meanEstimate(colRefl)
	s.Redundant = meanEstimate(colRedundant)
	s.Tokens = meanEstimate(colTokens)
	for j, name := range tools {
		s.Tools[name] = meanEstimate(colTools + j)
	}
	if v, ok := t.CostRef(); ok {
		s.CostRef = Estimate{Value: v, OK: true}
		if float64(len(ratios)) >= minDefinedShare*BootstrapResamples {
			slices.Sort(ratios)
			s.CostRef.Lo, s.CostRef.Hi = quantile(ratios, 0.025), quantile(ratios, 0.975)
			s.CostRef.Interval = true
		}
	}
	return s
}

// spread describes token counts; the order of counts does not matter.
func spread(counts []int) TokenSpread {
	if len(counts) == 0 {
		return TokenSpread{}
	}
	c := slices.Clone(counts)
	slices.Sort(c)
	var sum int64
	for _, v := range c {
		sum += int64(v)
	}
	sp := TokenSpread{N: len(c), Min: c[0], Max: c[len(c)-1], Mean: float64(sum) / float64(len(c))}
	if sp.Mean == 0 {
		return sp
	}
	var ss float64
	for _, v := range c {
		d := float64(v) - sp.Mean
		ss += d * d
	}
	sp.CV = math.Sqrt(ss/float64(len(c))) / sp.Mean
	return sp
}

func b2i(v bool) int {
	if v {
		return 1
	}
	return 0
}
