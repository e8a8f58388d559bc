package bench

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/results"
)

// Jobs lists the run's jobs in grid order: cell, then agent, then episode
// index, then (with opts.Repeats above 1) repeat; with opts.Shard, only those of that shard, still in grid order.
func Jobs(opts Options) ([]Job, error) {
	if err := opts.Shard.Check(); err != nil {
		return nil, err
	}
	t := opts.Track
	if t == nil {
		return nil, fmt.Errorf("no track (have %v)", TrackNames())
	}
	cells, err := t.Cells(opts.Families, opts.Perturbations)
	if err != nil {
		return nil, err
	}
	track := t.Name()
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
	if opts.Repeats < 0 {
		return nil, fmt.Errorf("repeats must be at least 1, got %d", opts.Repeats)
	}
	if _, bounded := t.CellEpisodes(Cell{}); opts.Episodes < 0 || opts.Episodes == 0 && !bounded {
		return nil, fmt.Errorf("episodes must be at least 1, got %d", opts.Episodes)
	}
	var jobs []Job
	for _, c := range cells {
		n := opts.Episodes
		if have, bounded := t.CellEpisodes(c); bounded && (n == 0 || n > have) {
			n = have
		}
		for _, a := range names {
			for i := range n {
				for r := range max(opts.Repeats, 1) {
					jobs = append(jobs, Job{Cell: c, Agent: a, Index: i, Track: track, Repeat: r})
				}
			}
		}
	}
	return opts.Shard.Of(jobs), nil
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
	conc := max(opts.Concurrency, 1)
	out := make([]results.Record, len(todo))
	skipped := make([]bool, len(todo)) // not played, or stopped: nothing to write
	ready := make([]chan struct{}, len(todo))
	for i := range ready {
		ready[i] = make(chan struct{})
	}
	var stopping atomic.Bool
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(conc + 1) // the writer holds one slot
	// written marks the records written, read once the group is done; the
	// records stay in out alone (a second slice of them was 20 MB at
	// make bench's 28,600 episodes).
	written := make([]bool, len(todo))
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
			written[i] = true
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
			rec, err := RunEpisode(gctx, j, opts)
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
	err = g.Wait()
	if err == nil && !stopping.Load() {
		return out, nil
	}
	var kept []results.Record
	for i, ok := range written {
		if ok {
			kept = append(kept, out[i])
		}
	}
	if err != nil {
		return kept, err
	}
	return kept, fmt.Errorf("%d of %d episodes not played: %w", len(todo)-len(kept), len(todo), ErrStopped)
}
