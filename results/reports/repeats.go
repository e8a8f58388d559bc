package reports

import (
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/stats"
)

// SectionRepeats: for a run with --repeats, each agent's rates per
// repeat, their mean and the spread between repeats. It writes nothing
// when no record has a repeat above 0.
var SectionRepeats = Section{name: "repeats", write: (*reporter).repeatsTable}

func (rp *reporter) repeatsTable(b *strings.Builder) {
	repeated := false
	for _, u := range rp.units {
		for r := range u.recs.all() {
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
		queried := u.recs.filter(func(r results.Record) bool { return r.Query != "" }).records()
		plain := u.recs.filter(func(r results.Record) bool { return r.Query == "" }).records()
		type row struct {
			m    stats.Metric
			recs []results.Record
		}
		var rows []row
		if len(plain) > 0 {
			rows = append(rows, row{stats.MetricSR, plain}, row{stats.MetricADA, plain})
		}
		if len(queried) > 0 {
			rows = append(rows, row{stats.MetricTop1, queried})
		}
		for _, row := range rows {
			s := stats.Repeats(row.recs, row.m.Of)
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
