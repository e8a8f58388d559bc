package results

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// BootstrapResamples is how many resamples of the games give the 95%
// intervals of [SummarizeReflections]: the per-game means and Cost_ref.
const BootstrapResamples = 2000

// bootstrapSeed seeds the resampling. Every call draws the same index
// sequence for the same number of games, so an interval depends on the
// records alone, never on the run or the order of the units.
var bootstrapSeed = [2]uint64{0x616d6269, 0x62656e63}

// minDefinedShare is the share of resamples that must define a ratio
// (Cost_ref: a resample with a corrected game) for its interval to be
// given; below it the interval would describe a conditional distribution
// that many resamples fall outside.
const minDefinedShare = 0.95

// FreeTextReflectTool is the tool a reflection that is one free-text call
// (Reflexion's) is counted under in [Record.ReflectionTools].
const FreeTextReflectTool = "reflect"

// Estimate is a statistic with its 95% interval [Lo, Hi]. OK is false
// when the statistic is undefined (Cost_ref without a corrected game);
// Interval is false when the statistic is defined but has no interval.
type Estimate struct {
	Value, Lo, Hi float64
	OK, Interval  bool
}

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
// fixed; [Report] sorts each agent's records by key first.
//
// Records of an infrastructure failure are left out.
func SummarizeReflections(recs []Record) ReflectionStats {
	recs = ScoredOnly(recs)
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

// reflectionTable is the household track's reflection section: how much
// each agent reflected, with which tools, at what cost and to what effect.
func (rp *reporter) reflectionTable(b *strings.Builder) {
	type row struct {
		label string
		s     ReflectionStats
	}
	var rows []row
	toolSet := map[string]bool{}
	for _, u := range rp.units {
		recs := filter(u.recs, func(r Record) bool { return r.Trials > 0 })
		if len(recs) == 0 {
			continue
		}
		s := SummarizeReflections(recs)
		for name := range s.Tools {
			toolSet[name] = true
		}
		rows = append(rows, row{u.label, s})
	}
	if len(rows) == 0 {
		return
	}
	tools := slices.Sorted(maps.Keys(toolSet))
	section(b, "Reflection",
		fmt.Sprintf("Games with trials (household). Per game: reflections, redundant reflections (docs/metrics.md), calls of each reflection tool (a free-text reflection, as Reflexion's, is one call of `%s`) and reflection tokens, each a mean with a 95%% percentile bootstrap interval (%s resamples of the games, fixed seed; none where the column is constant over the games). Cost_ref: reflection tokens ÷ games corrected (failed at trial 1, solved later), with the same bootstrap, its interval left out when fewer than 95%% of the resamples correct a game; Rate_rev: games corrected ÷ games failed at trial 1, Wilson interval. Tokens per reflection: mean, range and coefficient of variation (population standard deviation ÷ mean) over all the agent's reflections.",
			FreeTextReflectTool, grouped(BootstrapResamples)))
	fields := []string{"agent", "games", "reflections/game", "redundant/game"}
	for _, name := range tools {
		fields = append(fields, name+" calls/game")
	}
	fields = append(fields, "reflection tok/game", "Cost_ref", "Rate_rev", "tok/reflection", "tok/reflection range", "tok/reflection CV")
	header(b, fields...)
	for _, r := range rows {
		s := r.s
		cells := []string{r.label, fmt.Sprint(s.Games), meanCell(s.Reflections), meanCell(s.Redundant)}
		for _, name := range tools {
			// An agent that never called a tool called it 0 times a game.
			cells = append(cells, meanCell(cmp.Or(s.Tools[name], Estimate{OK: true, Interval: true})))
		}
		rev := "—"
		if s.RateRev.N > 0 {
			rev = rateCell(s.RateRev)
		}
		mean, rng, cv := "—", "—", "—"
		if sp := s.PerReflection; sp.N > 0 {
			mean = grouped(int64(math.Round(sp.Mean)))
			rng = grouped(int64(sp.Min)) + "–" + grouped(int64(sp.Max))
			cv = fixed2(sp.CV)
		}
		cells = append(cells, tokenCell(s.Tokens), tokenCell(s.CostRef), rev, mean, rng, cv)
		writeRow(b, cells)
	}
	b.WriteString("\n")
}

// degenerate reports whether e's interval is the value itself: a column
// that is constant over the games, which an interval adds nothing to.
func degenerate(e Estimate) bool { return e.Lo == e.Value && e.Hi == e.Value }

// meanCell reads "0.34 [0.29, 0.40]".
func meanCell(e Estimate) string {
	if !e.OK {
		return "—"
	}
	if !e.Interval || degenerate(e) {
		return fixed2(e.Value)
	}
	return fmt.Sprintf("%s [%s, %s]", fixed2(e.Value), fixed2(e.Lo), fixed2(e.Hi))
}

// tokenCell reads "2,218 [1,950–2,540]": whole tokens, the interval's
// bounds joined by a dash, since a comma already groups the digits.
func tokenCell(e Estimate) string {
	if !e.OK {
		return "—"
	}
	round := func(v float64) string { return grouped(int64(math.Round(v))) }
	if !e.Interval || degenerate(e) {
		return round(e.Value)
	}
	return fmt.Sprintf("%s [%s–%s]", round(e.Value), round(e.Lo), round(e.Hi))
}
