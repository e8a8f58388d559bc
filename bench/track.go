package bench

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/results/reports"
)

// A Track is one world of the suite: its grid of cells, its episodes, the
// agents' view of them, and how an episode is scored. The runner, the Go
// benchmarks, run.json and the report see a track only through this
// interface, so a track is added with one package and one [RegisterTrack]
// call. Embed [BaseTrack] for the methods most tracks leave at their
// defaults.
//
// A Track value holds the settings of one run (its flags), so the registry
// keeps constructors, and every run makes its own value.
type Track interface {
	// Name is what --track and every record's track field say.
	Name() string
	// Summary is the track's line in "ambibench list".
	Summary() string
	// Flags adds the track's own run flags to fs, bound to the value's
	// settings. Two tracks may declare the same flag; it then sets both.
	Flags(fs *flag.FlagSet)
	// Prepare checks the settings once the flags are read, and loads what
	// they name (a dataset, say); warnings go to stderr.
	Prepare(stderr io.Writer) error
	// Cells lists the grid's cells, filtered by the families and the
	// perturbations (or whatever the track's second dimension is) named;
	// empty filters mean all, and a name the track does not know is an
	// error that names those it does.
	Cells(families, perturbations []string) ([]Cell, error)
	// CellEpisodes is the number of episodes cell c holds; bounded is
	// false for a track that generates episodes without end.
	CellEpisodes(c Cell) (n int, bounded bool)
	// Settings are the track's settings that change an outcome, as
	// run.json records them (the suite, schema, track and seed are
	// added by [Settings]).
	Settings() (map[string]string, error)
	// RunEpisode plays one job and scores it into a record (see
	// [PlayAgent] and [FinishRecord] for the parts every track shares).
	// The error is for an episode that could not be built or a stopped
	// run; an agent's failure belongs in the record.
	RunEpisode(ctx context.Context, job Job, opts Options) (results.Record, error)

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

// TableSpec orders a run's table: rows by Agents, columns by
// Perturbations (empty: the track's own order), one row per family with
// ByFamily.
type TableSpec struct {
	Agents, Perturbations []string
	ByFamily              bool
}

// A Metric is one figure of a Go benchmark, as b.ReportMetric takes it,
// and which way is better: [Benchmark] writes a benchstat unit metadata
// line, "Unit <unit> better=<Better>", for each unit with a direction.
type Metric struct {
	Value float64
	Unit  string
	// Better is [HigherIsBetter] (a rate: ADA, SR, Top1), [LowerIsBetter]
	// (a cost: calls/op, tokens/op, steps/op), or "" for a figure with no
	// better direction, which gets no Unit line.
	Better string
}

// The directions of a [Metric], as benchstat's better= metadata spells
// them.
const (
	HigherIsBetter = "higher"
	LowerIsBetter  = "lower"
)

// Optional interfaces a track may implement.
type (
	// ModelNamer names the model of an agent's records where it is more
	// than the model's own name (dyref's router, say); ok false leaves
	// the default of [Options.ModelFor].
	ModelNamer interface {
		ModelName(agent string, opts Options) (name string, ok bool)
	}
	// WarmUpper readies an agent before a Go benchmark's timed loop (a
	// calibration split, say).
	WarmUpper interface {
		WarmUp(ctx context.Context, agent string, opts Options) error
	}
	// BenchmarkNamer names a cell's sub-benchmark where
	// [SubBenchmarkName] does not fit the track.
	BenchmarkNamer interface {
		BenchmarkName(agent string, c Cell) string
	}
)

type trackEntry struct {
	name string
	new  func() Track
}

var tracks []trackEntry

// RegisterTrack adds a track, by a constructor that returns a value with
// the track's default settings. Registering a name twice panics.
func RegisterTrack(newTrack func() Track) {
	name := newTrack().Name()
	if slices.ContainsFunc(tracks, func(e trackEntry) bool { return e.name == name }) {
		panic(fmt.Sprintf("bench: track %q registered twice", name))
	}
	tracks = append(tracks, trackEntry{name, newTrack})
}

// NewTrack returns a fresh value of the track named name, with its
// default settings.
func NewTrack(name string) (Track, error) {
	for _, e := range tracks {
		if e.name == name {
			return e.new(), nil
		}
	}
	return nil, fmt.Errorf("unknown track %q (have %v)", name, TrackNames())
}

// TrackNames lists the registered tracks in registration order.
func TrackNames() []string {
	var out []string
	for _, e := range tracks {
		out = append(out, e.name)
	}
	return out
}

// Tracks returns a fresh value of every registered track, in registration
// order.
func Tracks() []Track {
	var out []Track
	for _, e := range tracks {
		out = append(out, e.new())
	}
	return out
}
