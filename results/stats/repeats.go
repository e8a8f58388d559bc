package stats

import (
	"math"
	"slices"

	"github.com/ambibench/ambibench/results"
)

// RepeatSpread is one metric's rate over the repeats of a run: the rate
// of each repeat, in repeat order, and what they make together.
type RepeatSpread struct {
	Rates    []float64 // per repeat, repeat 0 first
	Episodes int       // scored records in the repeat that has the most
}

// Mean is the mean of the per-repeat rates.
func (s RepeatSpread) Mean() float64 {
	if len(s.Rates) == 0 {
		return 0
	}
	sum := 0.0
	for _, r := range s.Rates {
		sum += r
	}
	return sum / float64(len(s.Rates))
}

// SD is the sample standard deviation of the per-repeat rates (n-1 in
// the denominator); 0 for fewer than two repeats.
func (s RepeatSpread) SD() float64 {
	n := len(s.Rates)
	if n < 2 {
		return 0
	}
	m, ss := s.Mean(), 0.0
	for _, r := range s.Rates {
		ss += (r - m) * (r - m)
	}
	return math.Sqrt(ss / float64(n-1))
}

// Repeats gathers the per-repeat rates of one binary metric over recs,
// which are one agent's scored records: the records of each repeat
// (Record.Repeat) are pooled into one rate.
func Repeats(recs []results.Record, of func(results.Record) bool) RepeatSpread {
	hits, ns := map[int]int{}, map[int]int{}
	for _, r := range recs {
		ns[r.Repeat]++
		if of(r) {
			hits[r.Repeat]++
		}
	}
	var s RepeatSpread
	reps := make([]int, 0, len(ns))
	for k := range ns {
		reps = append(reps, k)
	}
	slices.Sort(reps)
	for _, k := range reps {
		s.Rates = append(s.Rates, float64(hits[k])/float64(ns[k]))
		s.Episodes = max(s.Episodes, ns[k])
	}
	return s
}
