package bench

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm/models"
	"github.com/ambibench/ambibench/agents/prompt"
	"github.com/ambibench/ambibench/results"
)

// Jobs lists the run's jobs in grid order: cell, then agent, then episode
// index, then (with opts.Repeats above 1) repeat; with opts.Shard, only those of that shard, still in grid order.
// A run does not hold them: it takes them one at a time from [NewGrid].
func Jobs(opts Options) ([]Job, error) {
	g, err := NewGrid(opts)
	if err != nil {
		return nil, err
	}
	jobs := make([]Job, 0, g.Len())
	for j := range g.All() {
		jobs = append(jobs, j)
	}
	return jobs, nil
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
// Run keeps every record until it ends; a caller that does not need them
// all at once (the command, whose summary adds each up as it comes) calls
// [Stream], whose memory does not grow with the grid.
func Run(ctx context.Context, opts Options, w *results.Writer, have map[string]bool) ([]results.Record, error) {
	kept := newRetained() // OnRecord is called one record at a time
	onRecord := opts.OnRecord
	opts.OnRecord = func(j Job, r results.Record) {
		if onRecord != nil {
			onRecord(j, r)
		}
		kept.keep(&r)
	}
	var done func(int) bool
	if len(have) > 0 {
		grid, err := NewGrid(opts)
		if err != nil {
			return nil, err
		}
		done = func(k int) bool {
			j := grid.At(k)
			return have[j.Key(opts.Seed, opts.ModelFor(j.Agent))]
		}
	}
	_, err := Stream(ctx, opts, w, done)
	return kept.records(), err
}

// Stream is [Run] without keeping the records: each goes to w and to
// opts.OnRecord as it is written, in grid order, and Stream returns how
// many there were. Its memory does not grow with the grid: the jobs are
// made as the workers take them (see [Grid]) and a record is held only
// from when its episode ends until it is written.
//
// The jobs already recorded are those for which done (nil: none) says
// so, by their position k in opts' grid ([Grid.At]): a resumed run says
// which from a bit a job, rather than a map of every key.
//
// opts.Concurrency workers take the jobs in grid order, and the worker
// that finishes the first record not yet written writes it and every
// finished one after it (see [inOrder]). There is no writer goroutine
// to wake: at --concurrency 1, handing each record to one cost a thread
// wake-up an episode, 0.4 s of the worker's own time in a 9 s tabletop
// run, more than the writing itself.
func Stream(ctx context.Context, opts Options, w *results.Writer, done func(k int) bool) (int, error) {
	grid, err := NewGrid(opts)
	if err != nil {
		return 0, err
	}
	total := grid.Len()
	skip := func(int) bool { return false }
	if done != nil {
		skip = done
	}
	todo := total
	if done != nil {
		todo = 0
		for k := range total {
			if !skip(k) {
				todo++
			}
		}
	}
	conc := min(max(opts.Concurrency, 1), max(todo, 1))
	var stopping atomic.Bool
	// The workflows render with the run's templates (prompt.Set.In).
	ctx = prompt.WithOverrides(ctx, opts.Prompts)
	g, gctx := errgroup.WithContext(ctx)
	written := 0
	order := newInOrder(reorderWindow(conc), func(i int, rec *results.Record) error {
		if gctx.Err() != nil {
			return gctx.Err() // cancelled: nothing more is written
		}
		if rec == nil {
			return nil // given up, stopped or already recorded: nothing to write
		}
		if w != nil {
			if err := w.Write(*rec); err != nil {
				return fmt.Errorf("writing record %d: %w", i, err)
			}
		}
		written++
		if opts.OnRecord != nil {
			opts.OnRecord(grid.At(i), *rec)
		}
		return nil
	})
	stop := context.AfterFunc(gctx, order.stop) // wakes the workers waiting for room
	defer stop()
	var next atomic.Int64 // the next job to take
	for range conc {
		g.Go(func() error {
			for {
				i := int(next.Add(1) - 1)
				if i >= total {
					return nil
				}
				if !order.wait(i) {
					return gctx.Err()
				}
				if err := gctx.Err(); err != nil {
					return err
				}
				if stopping.Load() || skip(i) {
					if err := order.done(i, nil); err != nil {
						return err
					}
					continue
				}
				j := grid.At(i)
				if opts.onStart != nil {
					opts.onStart(j)
				}
				rec, err := RunEpisode(gctx, j, opts)
				var played *results.Record
				switch {
				case errors.Is(err, ErrStopped):
					stopping.Store(true)
				case err != nil:
					return err
				default:
					played = &rec
				}
				if err := order.done(i, played); err != nil {
					return err
				}
			}
		})
	}
	err = g.Wait()
	if err != nil {
		return written, err
	}
	if stopping.Load() {
		return written, fmt.Errorf("%d of %d episodes not played: %w", todo-written, todo, ErrStopped)
	}
	return written, nil
}

// reorderWindow is how far past the first record not yet written a
// worker may take a job: the records finished out of order that the run
// holds at most. A worker that would go further waits for the writes to
// catch up, so that one long episode (a live model's call that waits out
// its retries) cannot leave a run holding every record played meanwhile.
// It is wide enough that the workers of a simulated run never wait, and
// at 256 a worker a live run's workers play on for minutes past a slow
// episode.
func reorderWindow(conc int) int { return max(4096, 256*conc) }

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
//
// It holds the records finished out of order in a ring of window slots,
// job i in slot i mod window: a worker waits (wait) before playing a job
// that far ahead of the first not yet written. The worker playing that
// first job never waits, since its job is inside the window, so the run
// always moves on.
type inOrder struct {
	mu       sync.Mutex
	room     sync.Cond // signalled as next moves on, or the run stops
	slots    []slot
	next     int // the first record not yet flushed
	flushing bool
	stopped  bool
	write    func(i int, rec *results.Record) error
}

// slot is job i's place in the ring while it is played and until it is
// written.
type slot struct {
	finished bool            // played, or given up: nothing stops the flush there
	rec      *results.Record // nil: nothing to write
}

func newInOrder(window int, write func(i int, rec *results.Record) error) *inOrder {
	o := &inOrder{slots: make([]slot, window), write: write}
	o.room.L = &o.mu
	return o
}

// wait waits until job i is inside the window, and reports false if the
// run stopped first.
func (o *inOrder) wait(i int) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i >= o.next+len(o.slots) && !o.stopped {
		o.room.Wait()
	}
	return !o.stopped
}

// stop wakes every worker waiting for room, for good.
func (o *inOrder) stop() {
	o.mu.Lock()
	o.stopped = true
	o.mu.Unlock()
	o.room.Broadcast()
}

// done marks job i finished, with rec to write or nil, and flushes if it
// was the one awaited. The error is write's: the run stops.
func (o *inOrder) done(i int, rec *results.Record) error {
	o.mu.Lock()
	o.slots[i%len(o.slots)] = slot{finished: true, rec: rec}
	if o.flushing || i != o.next {
		o.mu.Unlock()
		return nil
	}
	o.flushing = true
	for {
		s := &o.slots[o.next%len(o.slots)]
		if !s.finished {
			break
		}
		k, r := o.next, s.rec
		*s = slot{}
		o.mu.Unlock()
		if err := o.write(k, r); err != nil {
			o.stop()
			return err // flushing stays set: nothing more is written
		}
		o.mu.Lock()
		o.next++
		o.room.Broadcast()
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
