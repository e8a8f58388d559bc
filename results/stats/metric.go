package stats

import "github.com/ambibench/ambibench/results"

// A Metric is a binary outcome of a record, by name: what McNemar's test
// and the comparison of two runs (results/compare) count, and what the
// report's repeats table spreads.
type Metric struct {
	Name string
	Of   func(results.Record) bool
}

// The metrics by name: SR, ADA and, for a query (the semmap track), Top1.
var (
	MetricSR   = Metric{"SR", func(r results.Record) bool { return r.Success }}
	MetricADA  = Metric{"ADA", func(r results.Record) bool { return r.ADA }}
	MetricTop1 = Metric{"Top1", func(r results.Record) bool { return r.Top1 }}
)

// MetricNames are the names of the metrics, as compare --metrics takes
// them.
var MetricNames = []string{MetricSR.Name, MetricADA.Name, MetricTop1.Name}
