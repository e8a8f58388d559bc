package tabletop

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks"
)

// DefaultCalibrationEpisodes is the number of calibration episodes per
// (family, perturbation) cell.
const DefaultCalibrationEpisodes = 10

// calibrationPerturbations are the labels a threshold separates: clear,
// and the three kinds of ambiguity a question to the user resolves.
var calibrationPerturbations = []string{tasks.LabelNone, tasks.LabelAbsence, tasks.LabelMultiplicity, tasks.LabelUnderspecified}

// Calibration is the calibration split of a run: episodes drawn from a
// seed of their own, so they are not the test episodes, on which agents
// such as clara fit their thresholds. Each key is scored once and shared
// by every episode of the run, whatever the concurrency; its model calls
// are not counted in any test episode's record.
type Calibration struct {
	seed     uint64
	episodes int
	// workers is how many calibration episodes are scored at once: the
	// run's concurrency. Scoring comes first for every episode of the
	// agent, so scored one at a time it would hold up every worker.
	workers int

	mu   sync.Mutex
	keys map[string]*calibrated
}

type calibrated struct {
	mu     sync.Mutex // held while scoring, so each key is scored once
	done   bool
	scored []agents.Scored
	err    error
	// fitted says an agent asked for the threshold (Threshold), fitted
	// once on scored and kept in threshold.
	fitted    bool
	threshold float64
}

// NewCalibration returns the calibration split of a suite seed, with
// episodes per cell (DefaultCalibrationEpisodes if zero).
func NewCalibration(seed uint64, episodes int) *Calibration {
	if episodes <= 0 {
		episodes = DefaultCalibrationEpisodes
	}
	return &Calibration{seed: bench.EpisodeSeed(seed, "calibration"), episodes: episodes, keys: map[string]*calibrated{}}
}

// Scores implements agents.Calibrator.
func (c *Calibration) Scores(ctx context.Context, key string, score agents.ScoreFunc) ([]agents.Scored, error) {
	c.mu.Lock()
	k, ok := c.keys[key]
	if !ok {
		k = &calibrated{}
		c.keys[key] = k
	}
	c.mu.Unlock()
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.done {
		return k.scored, k.err
	}
	// The calls belong to no test episode: a tally of their own, and none
	// of the play of the episode that asked first (its repeat, its
	// perceiver's noise), so that the split is played alike whichever
	// episode that was (a repeat above 0, a shard's or a resumed run's
	// first). Each calibration episode states its own noise (scoreOne).
	cctx := llm.WithTally(llm.WithEpisode(ctx, "calibration/"+key), &llm.Tally{})
	cctx = llm.WithRepeat(cctx, 0)
	scored, err := c.score(cctx, score)
	if err != nil && ctx.Err() != nil {
		// Cancelled with the episode that asked first: the next episode
		// to ask calibrates afresh rather than inherit the cancellation.
		return nil, err
	}
	k.scored, k.err, k.done = scored, err, true
	return k.scored, k.err
}

// Threshold implements agents.Calibrator: agents.FitThreshold of key's
// scores, fitted at the first ask and kept for every episode after and
// for Fits.
func (c *Calibration) Threshold(ctx context.Context, key string, score agents.ScoreFunc) (float64, error) {
	scored, err := c.Scores(ctx, key, score)
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	k := c.keys[key]
	if !k.fitted {
		k.fitted, k.threshold = true, agents.FitThreshold(scored)
	}
	return k.threshold, nil
}

// Fit is a threshold an agent fitted on the calibration split.
type Fit struct {
	Key       string // what was calibrated: the agent and the model's name ("clara/sim")
	Episodes  int    // calibration episodes scored
	Ambiguous int    // of them, those where asking was right
	Threshold float64
	// Accuracy is the threshold's balanced accuracy on the split
	// (agents.BalancedAccuracy): how well it tells the ambiguous
	// episodes from the clear ones it was fitted on.
	Accuracy float64
}

// Fits are the thresholds agents have fitted on the split so far
// (Threshold), by key.
func (c *Calibration) Fits() []Fit {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Fit
	for key, k := range c.keys {
		if !k.fitted {
			continue
		}
		f := Fit{Key: key, Episodes: len(k.scored), Threshold: k.threshold}
		for _, s := range k.scored {
			if s.Ambiguous {
				f.Ambiguous++
			}
		}
		f.Accuracy = agents.BalancedAccuracy(k.scored, f.Threshold)
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b Fit) int { return strings.Compare(a.Key, b.Key) })
	return out
}

func (c *Calibration) score(ctx context.Context, score agents.ScoreFunc) ([]agents.Scored, error) {
	cells, err := Cells(nil, calibrationPerturbations)
	if err != nil {
		return nil, err
	}
	type job struct {
		cell bench.Cell
		i    int
	}
	var jobs []job
	for _, cell := range cells {
		for i := range c.episodes {
			jobs = append(jobs, job{cell, i})
		}
	}
	// Each episode is scored on its own, so the scores are the same in
	// any order; they are kept in the split's order, and an error is the
	// first episode's in that order, whichever failed first. Once one
	// fails, no later episode is started (a failing model is not called
	// for the rest of the split); the earlier ones still run, so the
	// first failing episode is always found.
	out := make([]agents.Scored, len(jobs))
	errs := make([]error, len(jobs))
	var failed atomic.Int64
	failed.Store(int64(len(jobs)))
	var g errgroup.Group
	g.SetLimit(max(c.workers, 1))
	for k, j := range jobs {
		g.Go(func() error {
			if int64(k) > failed.Load() {
				return nil
			}
			out[k], errs[k] = c.scoreOne(ctx, score, j.cell, j.i)
			for errs[k] != nil {
				f := failed.Load()
				if int64(k) >= f || failed.CompareAndSwap(f, int64(k)) {
					break
				}
			}
			return nil
		})
	}
	_ = g.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// scoreOne scores calibration episode i of a cell.
func (c *Calibration) scoreOne(ctx context.Context, score agents.ScoreFunc, cell bench.Cell, i int) (agents.Scored, error) {
	ep, err := MakeEpisode(c.seed, cell.Family, cell.Perturbation, i)
	if err != nil {
		return agents.Scored{}, fmt.Errorf("calibration episode %s/%s %d: %w", cell.Family, cell.Perturbation, i, err)
	}
	world, err := NewWorld(ep)
	if err != nil {
		return agents.Scored{}, fmt.Errorf("calibration episode %s/%s %d: %w", cell.Family, cell.Perturbation, i, err)
	}
	// The table is named as a test episode's is, by the seed that drew it
	// (the split's own) and its cell: its camera images' digests name
	// it, so that no two calibration tables share an image's identity. A
	// cassette keys a request by that digest, not the bytes, and so does
	// the simulated model's stream.
	st := &episodeState{ep: ep, world: world, limit: DefaultStepLimit, toolCalls: map[string]int{},
		episode: episodeName(c.seed, cell.Family, cell.Perturbation, i, 0)}
	partner := ""
	if ep.TwoRobots {
		partner = scenes.Robot2
	}
	env := &robotEnv{st: st, robot: scenes.Robot1, partner: partner, instruction: ep.Instruction(), tools: agents.Tools(partner != "")}
	// As the episode's own context states it for a test episode
	// (episode.Context).
	s, err := score(llm.WithPerceptionNoise(ctx, ep.ViewNoise), env)
	if err != nil {
		return agents.Scored{}, fmt.Errorf("calibration episode %s/%s %d: %w", cell.Family, cell.Perturbation, i, err)
	}
	return agents.Scored{Score: s, Ambiguous: ep.Label != tasks.LabelNone}, nil
}
