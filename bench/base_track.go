package bench

import (
	"flag"
	"io"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/reports"
	"github.com/ambibench/ambibench/results/stats"
)

// BaseTrack gives a [Track] the defaults of the methods most tracks do not
// change: no flags of its own, nothing to prepare, episodes without end
// (100 per cell unless the run says), nothing in "ambibench list", ADA and
// SR tables, the report's rate, cost and paired sections, and ADA, SR,
// steps, calls and tokens per op in the Go benchmarks. Embed it and
// override what differs.
type BaseTrack struct{}

func (BaseTrack) Flags(*flag.FlagSet)     {}
func (BaseTrack) Prepare(io.Writer) error { return nil }
func (BaseTrack) DefaultEpisodes() int    { return 100 }
func (BaseTrack) EpisodeUnit() string     { return "episodes" }
func (BaseTrack) List(io.Writer)          {}
func (BaseTrack) FamilyTable() bool       { return true }
func (BaseTrack) SummaryNote() string     { return "" }
func (BaseTrack) SummaryTail() string     { return "" }
func (BaseTrack) Report() reports.Track   { return reports.Track{} }

// Table writes ADA and SR by agent and perturbation, with intervals.
func (BaseTrack) Table(w io.Writer, recs []results.Record, spec TableSpec) error {
	return RateTable(w, recs, spec)
}

// Metrics are ADA, SR, steps/op, calls/op and tokens/op.
func (BaseTrack) Metrics(recs []results.Record) []Metric { return RateMetrics(recs) }

// RateTable writes ADA and SR by agent and perturbation, ordered as spec
// says, with episode counts and 95% Wilson intervals.
func RateTable(w io.Writer, recs []results.Record, spec TableSpec) error {
	cells := stats.Aggregate(recs, stats.AggregateOptions{ByFamily: spec.ByFamily, Agents: spec.Agents, Perturbations: spec.Perturbations})
	return reports.Markdown(w, cells, reports.TableOptions{Intervals: true, ByFamily: spec.ByFamily, Perturbations: spec.Perturbations})
}

// RateMetrics are ADA, SR (higher is better), steps/op, calls/op and
// tokens/op (lower is better) over recs.
func RateMetrics(recs []results.Record) []Metric {
	var ada, sr, steps, calls, tokens float64
	for _, r := range recs {
		if r.ADA {
			ada++
		}
		if r.Success {
			sr++
		}
		steps += float64(r.Steps)
		calls += float64(r.Calls)
		tokens += float64(r.InputTokens + r.OutputTokens)
	}
	n := float64(max(len(recs), 1))
	return []Metric{{ada / n, "ADA", HigherIsBetter}, {sr / n, "SR", HigherIsBetter},
		{steps / n, "steps/op", LowerIsBetter}, {calls / n, "calls/op", LowerIsBetter}, {tokens / n, "tokens/op", LowerIsBetter}}
}
