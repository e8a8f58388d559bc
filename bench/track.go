package bench

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/results"
)

// A Track is one world of the suite: its grid of cells, and what an
// episode of a cell is. The runner, the Go benchmarks, run.json and the
// report see a track only through this interface, so a track is added
// with one package and one [RegisterTrack] call. The harness owns the
// episode: a track says what one job's episode is ([Episode]: its
// agent's settings, its environment and truth, its score), and
// [RunEpisode] makes the agent, plays it and fills the record's common
// fields, the same way for every track. How a track's records are shown
// (its list sections, tables, summary lines, report and benchmark
// metrics) is optional: see [Presenter].
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
	// NewEpisode builds the episode of one job, for [RunEpisode] to play.
	// The error is for an episode that could not be built (an index out
	// of range, a world that would not stand); an agent's failure
	// belongs in the record.
	NewEpisode(ctx context.Context, job Job, opts Options) (Episode, error)
}

// An Episode is what a track says about one job's episode; [RunEpisode]
// does the rest. It makes the agent (newAgent), seeded by [AgentSeed];
// names the episode in the context ([EpisodeContext]); plays the agent
// in Env's environment (playAgent); starts the record with the fields
// every track fills the same way (newRecord, the wall time, and the
// agent's error in Error); has Score fill the track's own; and finishes
// it (finishRecord).
//
// An Episode may also have the methods of [AgentEpisode], to give the
// agent settings or a seed of its own, and of [ContextEpisode], to add to
// the context the agent plays in.
type Episode interface {
	// Env is the environment agent a plays in, with the episode's truth
	// for an agent that reads it ([agents.TruthReader]) and for no other.
	// more makes a further agent of the job, with the episode's Config
	// and a seed of its own (a partner robot's).
	Env(a agents.Agent, more NewAgentFunc) (agents.Env, error)
	// Score fills the record's fields that are the track's own (its
	// label, success, ADA, steps …) once the agent has played. rec holds
	// the common fields already, and Error the agent's own error
	// (runErr), which Score may leave or, where there is none, set
	// (a partner's failure, no answer).
	Score(rec *results.Record, runErr error)
}

// Optional methods of an [Episode].
type (
	// An AgentEpisode says how its agent is made: the Config the track
	// gives it (calibration, perception, router …; its Seed, Model and
	// Members are the harness's) and the parts its seed is derived from,
	// after the run's seed: [AgentSeed](job, opts, seed...). Without it,
	// the agent has the zero Config and the seed parts (track, family,
	// perturbation, episode index, agent).
	AgentEpisode interface {
		Agent() (cfg agents.Config, seed []any)
	}
	// A ContextEpisode adds to the context its agents play in (the
	// tabletop's perception noise), after [EpisodeContext].
	ContextEpisode interface {
		Context(ctx context.Context) context.Context
	}
)

// NewAgentFunc makes a further agent of an episode's job, seeded by
// [AgentSeed] with seed (see [Episode.Env]).
type NewAgentFunc func(seed ...any) (agents.Agent, error)

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
