package results

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// SectionRepeats: for a run with --repeats, each agent's rates per
// repeat, their mean and the spread between repeats. It writes nothing
// when no record has a repeat above 0.
var SectionRepeats = Section{"repeats", (*reporter).repeatsTable}

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
func Repeats(recs []Record, of func(Record) bool) RepeatSpread {
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

func (rp *reporter) repeatsTable(b *strings.Builder) {
	repeated := false
	for _, u := range rp.units {
		for _, r := range u.recs {
			repeated = repeated || r.Repeat > 0
		}
	}
	if !repeated {
		return
	}
	section(b, "Repeats",
		"Each episode played several times with independent sampling streams (ambibench run --repeats). Per agent and metric: the rate of each repeat over its episodes (families and perturbations pooled), their mean, the lowest and highest, and their standard deviation across repeats (n−1). Semmap records (with a query) give Top-1; the others SR and ADA.")
	header(b, "agent", "metric", "repeats", "episodes/repeat", "mean", "min–max", "SD", "per repeat")
	for _, u := range rp.units {
		queried := filter(u.recs, func(r Record) bool { return r.Query != "" })
		plain := filter(u.recs, func(r Record) bool { return r.Query == "" })
		type row struct {
			m    CompareMetric
			recs []Record
		}
		var rows []row
		if len(plain) > 0 {
			rows = append(rows, row{MetricSR, plain}, row{MetricADA, plain})
		}
		if len(queried) > 0 {
			rows = append(rows, row{MetricTop1, queried})
		}
		for _, row := range rows {
			s := Repeats(row.recs, row.m.Of)
			per := make([]string, len(s.Rates))
			for i, v := range s.Rates {
				per[i] = fixed2(v)
			}
			writeRow(b, []string{u.label, row.m.Name, strconv.Itoa(len(s.Rates)), strconv.Itoa(s.Episodes),
				fixed2(s.Mean()), fixed2(slices.Min(s.Rates)) + "–" + fixed2(slices.Max(s.Rates)), fixed2(s.SD()), strings.Join(per, " ")})
		}
	}
	b.WriteString("\n")
}
