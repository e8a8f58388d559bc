package bench

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/results"
	hh "github.com/ambibench/ambibench/tasks/household"
)

// Options select a run: the grid and how to run it.
type Options struct {
	EpisodeOptions
	// Track is the track to run: "" or Track (the tabletop), or
	// HouseholdTrack, whose families are the task types and whose
	// episodes are the evaluation split's games (at most their number).
	Track         string
	Families      []string // empty: all
	Perturbations []string // empty: all
	Agents        []string // empty: all
	// SceneSizes are the table sizes to run each cell at, in objects
	// (distractors added); empty: the family's own size only.
	SceneSizes []int
	// Episodes is the number of episodes per cell and agent; on the
	// household and semmap tracks, whose cells hold a fixed set of
	// episodes (games, dataset pairs), at most that many, and 0 means all
	// of them. The tabletop track generates episodes without end and
	// needs a number.
	Episodes    int
	Concurrency int // episodes at once; 1 if zero
	// OnRecord, if set, is called with each new record once it is
	// written, in grid order, from one goroutine: what a progress display
	// reads.
	OnRecord func(Job, results.Record)
	// onStart, if set, is called as each episode begins: what the tests
	// of stopping read.
	onStart func(Job)
}

// Jobs lists the run's jobs in grid order: cell, then agent, then episode
// index.
func Jobs(opts Options) ([]Job, error) {
	var cells []Cell
	var err error
	switch opts.Track {
	case "", Track:
		cells, err = Cells(opts.Families, opts.Perturbations, opts.SceneSizes...)
	case HouseholdTrack:
		if len(opts.SceneSizes) > 0 {
			return nil, fmt.Errorf("scene sizes are a tabletop dimension; the household track has none")
		}
		cells, err = HouseholdCells(opts.Families, opts.Perturbations)
	case SemmapTrack:
		if len(opts.SceneSizes) > 0 {
			return nil, fmt.Errorf("scene sizes are a tabletop dimension; the semmap track has none")
		}
		cells, err = SemmapCells(opts.Dataset, opts.Families, opts.Perturbations)
	default:
		return nil, fmt.Errorf("unknown track %q (have %s, %s, %s)", opts.Track, Track, HouseholdTrack, SemmapTrack)
	}
	if err != nil {
		return nil, err
	}
	track := opts.Track
	if track == "" {
		track = Track
	}
	names := opts.Agents
	if len(names) == 0 {
		names = agents.NamesFor(track)
	}
	for _, a := range names {
		info, ok := agents.Lookup(a)
		if !ok {
			return nil, fmt.Errorf("unknown agent %q (have %v)", a, agents.Names())
		}
		if !info.Plays(track) {
			return nil, fmt.Errorf("agent %q does not play the %s track (agents that do: %v)", a, track, agents.NamesFor(track))
		}
	}
	if _, bounded := CellEpisodes(opts, Cell{}); opts.Episodes < 0 || opts.Episodes == 0 && !bounded {
		return nil, fmt.Errorf("episodes must be at least 1, got %d", opts.Episodes)
	}
	var jobs []Job
	for _, c := range cells {
		n := opts.Episodes
		if have, bounded := CellEpisodes(opts, c); bounded && (n == 0 || n > have) {
			n = have
		}
		for _, a := range names {
			for i := range n {
				jobs = append(jobs, Job{Cell: c, Agent: a, Index: i, Track: opts.Track})
			}
		}
	}
	return jobs, nil
}

// CellEpisodes is the number of episodes a cell of the run's track holds:
// the household games of its task type, the semmap dataset's pairs of its
// query type. bounded is false on the tabletop track, which makes as many
// episodes as it is asked for.
func CellEpisodes(opts Options, c Cell) (n int, bounded bool) {
	switch opts.Track {
	case HouseholdTrack:
		return hh.EvalCount(c.Family), true
	case SemmapTrack:
		if opts.Dataset == nil {
			return 0, true
		}
		return len(semmapPairs(opts.Dataset, c.Family)), true
	}
	return 0, false
}

// ErrStopped is wrapped by the error of a model call that a run refuses
// because it is to stop (its token budget is spent, say). An episode that
// meets it is not recorded, so that a later run plays it whole; the
// episodes already running finish, no new one starts, and [Run] returns
// the records written with an error that wraps ErrStopped.
var ErrStopped = errors.New("the run is stopping")

// Run plays every job not already in have (keyed by results.Record.Key)
// and writes each record to w in grid order, whatever the concurrency:
// a record is written once all before it are. It returns the new records.
// A cancelled context stops the run at once: no episode starts, those
// running are not recorded, what was written stays written, and those
// records are returned with the error. ErrStopped stops it more gently
// (see there).
func Run(ctx context.Context, opts Options, w *results.Writer, have map[string]bool) ([]results.Record, error) {
	jobs, err := Jobs(opts)
	if err != nil {
		return nil, err
	}
	var todo []Job
	for _, j := range jobs {
		if !have[j.Key(opts.Seed, opts.ModelFor(j.Agent))] {
			todo = append(todo, j)
		}
	}
	if opts.Calibration == nil {
		opts.Calibration = NewCalibration(opts.Seed, 0)
	}
	conc := max(opts.Concurrency, 1)
	out := make([]results.Record, len(todo))
	skipped := make([]bool, len(todo)) // not played, or stopped: nothing to write
	ready := make([]chan struct{}, len(todo))
	for i := range ready {
		ready[i] = make(chan struct{})
	}
	var stopping atomic.Bool
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(conc + 1)      // the writer holds one slot
	var kept []results.Record // records written, read once the group is done
	g.Go(func() error {
		for i := range todo {
			select {
			case <-ready[i]:
			case <-gctx.Done():
				return gctx.Err()
			}
			if skipped[i] {
				continue
			}
			if w != nil {
				if err := w.Write(out[i]); err != nil {
					return fmt.Errorf("writing record %d: %w", i, err)
				}
			}
			kept = append(kept, out[i])
			if opts.OnRecord != nil {
				opts.OnRecord(todo[i], out[i])
			}
		}
		return nil
	})
	for i, j := range todo {
		if gctx.Err() != nil {
			break // the writer stops too
		}
		if stopping.Load() {
			skipped[i] = true
			close(ready[i])
			continue
		}
		g.Go(func() error {
			if stopping.Load() || gctx.Err() != nil {
				skipped[i] = true
				close(ready[i])
				return nil
			}
			if opts.onStart != nil {
				opts.onStart(j)
			}
			rec, err := RunEpisode(gctx, j, opts.EpisodeOptions)
			switch {
			case errors.Is(err, ErrStopped):
				stopping.Store(true)
				skipped[i] = true
			case err != nil:
				return err
			default:
				out[i] = rec
			}
			close(ready[i])
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return kept, err
	}
	if stopping.Load() {
		return kept, fmt.Errorf("%d of %d episodes not played: %w", len(todo)-len(kept), len(todo), ErrStopped)
	}
	return out, nil
}
