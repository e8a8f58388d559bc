package bench

import (
	"io"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/reports"
	"github.com/ambibench/ambibench/results/stats"
)

// A Presenter is how a track's runs and records are shown. Every method
// is optional: a track implements those it wants, and the functions of
// this file (as io.Copy does with io.WriterTo) call each where the track
// has it and give the default where it does not. The defaults: 100
// episodes per cell on a track without end and every episode on a
// bounded one, "episodes", nothing in "ambibench list", ADA and SR
// tables ([RateTable]) by family too, no summary note or tail, the
// report's default sections, and ADA, SR, steps, calls and tokens per op
// in the Go benchmarks ([RateMetrics]).
type Presenter interface {
	// DefaultEpisodes is the episodes per cell when the run names none; 0
	// means every episode a bounded cell holds.
	DefaultEpisodes() int
	// EpisodeUnit names a bounded cell's episodes in the summary
	// ("games", "pairs").
	EpisodeUnit() string
	// List writes the track's sections of "ambibench list" (its families
	// and perturbations) to a tabwriter.
	List(w io.Writer)
	// Table writes the run's table of scored records: rates by agent and
	// perturbation, one row per agent (and family, with spec.ByFamily).
	Table(w io.Writer, recs []results.Record, spec TableSpec) error
	// FamilyTable reports whether summary.md adds the table by family.
	FamilyTable() bool
	// SummaryNote is added to summary.md's line of settings (", step
	// limit 40"), and SummaryTail after its tables (a dataset's
	// warnings).
	SummaryNote() string
	SummaryTail() string
	// Report says what the track's records get in "ambibench report":
	// its sections, its baseline agent, its ablation group, its
	// published cuts, its plots and its words. The report knows no
	// track and no agent but through it.
	Report() reports.Track
	// Metrics are the figures the Go benchmarks report for a batch of
	// one cell's records, one op being one episode, each saying which way
	// is better. [Benchmark] also calls it once with no records, to
	// declare the units before the first result, so it must not fail on
	// none.
	Metrics(recs []results.Record) []Metric
}

// DefaultEpisodes is t's [Presenter.DefaultEpisodes], or by default 0
// (every episode) on a bounded track and 100 on one without end.
func DefaultEpisodes(t Track) int {
	if p, ok := t.(interface{ DefaultEpisodes() int }); ok {
		return p.DefaultEpisodes()
	}
	if _, bounded := t.CellEpisodes(Cell{}); bounded {
		return 0
	}
	return 100
}

// EpisodeUnit is t's [Presenter.EpisodeUnit], or "episodes".
func EpisodeUnit(t Track) string {
	if p, ok := t.(interface{ EpisodeUnit() string }); ok {
		return p.EpisodeUnit()
	}
	return "episodes"
}

// List writes t's sections of "ambibench list" ([Presenter.List]), by
// default none.
func List(w io.Writer, t Track) {
	if p, ok := t.(interface{ List(io.Writer) }); ok {
		p.List(w)
	}
}

// Table writes t's table of a run's scored records ([Presenter.Table]),
// by default [RateTable].
func Table(w io.Writer, t Track, recs []results.Record, spec TableSpec) error {
	if p, ok := t.(interface {
		Table(io.Writer, []results.Record, TableSpec) error
	}); ok {
		return p.Table(w, recs, spec)
	}
	return RateTable(w, recs, spec)
}

// FamilyTable is t's [Presenter.FamilyTable], by default true.
func FamilyTable(t Track) bool {
	if p, ok := t.(interface{ FamilyTable() bool }); ok {
		return p.FamilyTable()
	}
	return true
}

// SummaryNote is t's [Presenter.SummaryNote], by default "".
func SummaryNote(t Track) string {
	if p, ok := t.(interface{ SummaryNote() string }); ok {
		return p.SummaryNote()
	}
	return ""
}

// SummaryTail is t's [Presenter.SummaryTail], by default "".
func SummaryTail(t Track) string {
	if p, ok := t.(interface{ SummaryTail() string }); ok {
		return p.SummaryTail()
	}
	return ""
}

// Report is t's [Presenter.Report], by default the zero reports.Track
// (the report's default sections).
func Report(t Track) reports.Track {
	if p, ok := t.(interface{ Report() reports.Track }); ok {
		return p.Report()
	}
	return reports.Track{}
}

// Metrics are t's [Presenter.Metrics] of recs, by default [RateMetrics].
func Metrics(t Track, recs []results.Record) []Metric {
	if p, ok := t.(interface {
		Metrics([]results.Record) []Metric
	}); ok {
		return p.Metrics(recs)
	}
	return RateMetrics(recs)
}

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

// A Tally is a run's table of one [TableSpec] added up a record at a
// time, so that a run need not hold its records to write its summary:
// a tabletop run of a million episodes held them as 0.6 GB, for tables of
// a few dozen cells. Add is given the scored records alone, in grid
// order; Write writes what [Table] writes for the records added.
type Tally interface {
	Add(r *results.Record)
	Write(w io.Writer) error
}

// A Tallier is a track with a table of its own ([Presenter.Table]) that
// it can also add up a record at a time; [NewTables] uses it. A track
// whose Table is [RateTable] with a column order of its own returns
// [NewRateTally] with that order.
type Tallier interface {
	Tally(spec TableSpec) Tally
}

// NewRateTally is [RateTable] of spec a record at a time: its memory is
// the table's cells.
func NewRateTally(spec TableSpec) Tally {
	return &rateTally{spec: spec, agg: stats.NewAggregator(stats.AggregateOptions{ByFamily: spec.ByFamily, Agents: spec.Agents, Perturbations: spec.Perturbations})}
}

type rateTally struct {
	spec TableSpec
	agg  *stats.Aggregator
}

func (t *rateTally) Add(r *results.Record) { t.agg.Add(r) }

func (t *rateTally) Write(w io.Writer) error {
	return reports.Markdown(w, t.agg.Cells(), reports.TableOptions{Intervals: true, ByFamily: t.spec.ByFamily, Perturbations: t.spec.Perturbations})
}

// Tables are a run's tables, pooled over families and by family, added
// up a record at a time (see [Tally]).
type Tables struct {
	pooled, byFamily Tally
	// kept holds the records, packed, for a track with a Table of its
	// own and no Tally (semmap's, whose grid is a dataset's pairs): its
	// tables are written from them.
	kept  *retained
	track Track
	spec  TableSpec
}

// NewTables returns t's tables of spec (its ByFamily aside: both are
// kept), empty.
func NewTables(t Track, spec TableSpec) *Tables {
	s := &Tables{track: t, spec: spec}
	pooled, byFamily := spec, spec
	pooled.ByFamily, byFamily.ByFamily = false, true
	switch tt := t.(type) {
	case Tallier:
		s.pooled, s.byFamily = tt.Tally(pooled), tt.Tally(byFamily)
	case interface {
		Table(io.Writer, []results.Record, TableSpec) error
	}:
		s.kept = newRetained()
	default:
		s.pooled, s.byFamily = NewRateTally(pooled), NewRateTally(byFamily)
	}
	return s
}

// Add adds a scored record (one that ended in an infrastructure failure
// is in no table: leave it out).
func (s *Tables) Add(r *results.Record) {
	if s.kept != nil {
		s.kept.keep(r)
		return
	}
	s.pooled.Add(r)
	s.byFamily.Add(r)
}

// Write writes the table by family, or pooled over families, of the
// records added.
func (s *Tables) Write(w io.Writer, byFamily bool) error {
	if s.kept != nil {
		spec := s.spec
		spec.ByFamily = byFamily
		return Table(w, s.track, s.kept.records(), spec)
	}
	if byFamily {
		return s.byFamily.Write(w)
	}
	return s.pooled.Write(w)
}
