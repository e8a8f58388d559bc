package bench

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/models"
	"github.com/ambibench/ambibench/agents/prompt"
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
	var specs []string
	for _, m := range append([]llm.Model{opts.Model}, opts.Members...) {
		if m != nil {
			specs = append(specs, m.Name())
		}
	}
	if err := CheckImages(t, names, specs); err != nil {
		return nil, err
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
// a record is written once all before it are. It returns the new records;
// records with equal maps or lists (ToolCalls, ActedBy, …) share one, so
// a caller that changes a map or list copies it first.
// A cancelled context stops the run at once: no episode starts, those
// running are not recorded, what was written stays written, and those
// records are returned with the error. ErrStopped stops it more gently
// (see there).
//
// opts.Concurrency workers take the jobs in grid order, and the worker
// that finishes the first record not yet written writes it and every
// finished one after it (see [inOrder]). There is no writer goroutine
// to wake: at --concurrency 1, handing each record to one cost a thread
// wake-up an episode, 0.4 s of the worker's own time in a 9 s tabletop
// run, more than the writing itself.
func Run(ctx context.Context, opts Options, w *results.Writer, have map[string]bool) ([]results.Record, error) {
	jobs, err := Jobs(opts)
	if err != nil {
		return nil, err
	}
	todo := Pending(jobs, opts, have)
	conc := min(max(opts.Concurrency, 1), max(len(todo), 1))
	// played holds each record from when its episode ends until it is
	// written; kept holds it, packed, from then on (see [retained]).
	played := make([]*results.Record, len(todo))
	kept := newRetained(len(todo)) // called by one flusher at a time
	var stopping atomic.Bool
	// The workflows render with the run's templates (prompt.Set.In).
	ctx = prompt.WithOverrides(ctx, opts.Prompts)
	g, gctx := errgroup.WithContext(ctx)
	order := newInOrder(len(todo), func(i int) error {
		if gctx.Err() != nil {
			return gctx.Err() // cancelled: nothing more is written
		}
		rec := played[i]
		if rec == nil {
			return nil // given up, or stopped: nothing to write
		}
		played[i] = nil
		if w != nil {
			if err := w.Write(*rec); err != nil {
				return fmt.Errorf("writing record %d: %w", i, err)
			}
		}
		if opts.OnRecord != nil {
			opts.OnRecord(todo[i], *rec)
		}
		kept.keep(i, rec)
		return nil
	})
	var next atomic.Int64 // the next job to take
	for range conc {
		g.Go(func() error {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(todo) {
					return nil
				}
				if err := gctx.Err(); err != nil {
					return err
				}
				if stopping.Load() {
					if err := order.done(i); err != nil {
						return err
					}
					continue
				}
				j := todo[i]
				if opts.onStart != nil {
					opts.onStart(j)
				}
				rec, err := RunEpisode(gctx, j, opts)
				switch {
				case errors.Is(err, ErrStopped):
					stopping.Store(true)
				case err != nil:
					return err
				default:
					played[i] = &rec
				}
				if err := order.done(i); err != nil {
					return err
				}
			}
		})
	}
	err = g.Wait()
	recs := kept.records()
	if err != nil {
		return recs, err
	}
	if stopping.Load() {
		return recs, fmt.Errorf("%d of %d episodes not played: %w", len(todo)-len(recs), len(todo), ErrStopped)
	}
	return recs, nil
}

// Pending is the jobs not already in have (keyed by results.Record.Key),
// in grid order. A fresh run (have empty) makes no keys: a pass of
// key-making over 28,600 jobs before the first episode, when one core
// does all the work, is spared.
func Pending(jobs []Job, opts Options, have map[string]bool) []Job {
	if len(have) == 0 {
		return jobs
	}
	var todo []Job
	for _, j := range jobs {
		if !have[j.Key(opts.Seed, opts.ModelFor(j.Agent))] {
			todo = append(todo, j)
		}
	}
	return todo
}

// inOrder writes finished records in their order from whichever worker
// finishes the one awaited: that worker becomes the flusher and writes,
// outside the lock, every finished record from there on, while the
// others go on playing. One worker flushes at a time, so write is never
// called twice at once and is called in order.
type inOrder struct {
	mu       sync.Mutex
	finished []bool // played, or given up: nothing stops the flush there
	next     int    // the first record not yet flushed
	flushing bool
	write    func(i int) error
}

func newInOrder(n int, write func(i int) error) *inOrder {
	return &inOrder{finished: make([]bool, n), write: write}
}

// done marks job i finished, with a record to write or without one
// (write says which), and flushes if it was the one awaited. The error is
// write's: the run stops.
func (o *inOrder) done(i int) error {
	o.mu.Lock()
	o.finished[i] = true
	if o.flushing || i != o.next {
		o.mu.Unlock()
		return nil
	}
	o.flushing = true
	for o.next < len(o.finished) && o.finished[o.next] {
		k := o.next
		o.mu.Unlock()
		if err := o.write(k); err != nil {
			return err // flushing stays set: nothing more is written
		}
		o.mu.Lock()
		o.next++
	}
	o.flushing = false
	o.mu.Unlock()
	return nil
}

// ImageTrack is a track whose workflows may show the model images: when
// Images is true (the tabletop's --perception image), a run refuses an
// agent that shows images with a model that takes none.
type ImageTrack interface {
	Images() bool
}

// CheckImages refuses, when the track perceives through images
// (ImageTrack), an agent that shows the model images together with a model
// spec that says it takes none (images=0), naming both and what runs the
// agent without images. The command calls it with the specs before
// opening a model; Jobs with the run's models' names.
func CheckImages(t Track, agentNames, specs []string) error {
	if it, ok := t.(ImageTrack); !ok || !it.Images() {
		return nil
	}
	for _, name := range agentNames {
		info, ok := agents.Lookup(name)
		if !ok || !info.ShowsImages {
			continue
		}
		for _, spec := range specs {
			if models.TakesImages(spec) {
				continue
			}
			without := "it has no option to run without images"
			if info.WithoutImages != "" {
				without = info.WithoutImages + " gives it text alone"
			}
			return fmt.Errorf("agent %q shows the model images, and model %q takes none (images=0): %s, or pick a model that takes images", info.Name, spec, without)
		}
	}
	return nil
}
