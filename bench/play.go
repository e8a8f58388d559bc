package bench

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/results"
)

// RunEpisode plays one job on the run's track and scores it: the one
// skeleton of every track's episodes. It builds the episode
// ([Track.NewEpisode]), makes its agent (newAgent, seeded by
// [AgentSeed]) and plays it ([PlayEpisode]). Failures of the agent are
// part of the record (its Error field); the error return is for a
// cancelled context or an episode that could not be built.
func RunEpisode(ctx context.Context, job Job, opts Options) (results.Record, error) {
	if opts.Track == nil {
		return results.Record{}, fmt.Errorf("no track (have %v)", TrackNames())
	}
	if job.Track == "" {
		job.Track = opts.Track.Name()
	}
	start := time.Now()
	ep, err := opts.Track.NewEpisode(ctx, job, opts)
	if err != nil {
		return results.Record{}, err
	}
	_, seed := agentOf(job, ep)
	a, err := newAgentFunc(job, opts, ep)(seed...)
	if err != nil {
		return results.Record{}, err
	}
	return playEpisode(ctx, job, opts, ep, a, start)
}

// PlayEpisode plays an episode with an agent made already (a track's own
// training loop, whose agent is no registered one) and scores it as
// [RunEpisode] does.
func PlayEpisode(ctx context.Context, job Job, opts Options, ep Episode, a agents.Agent) (results.Record, error) {
	if job.Track == "" && opts.Track != nil {
		job.Track = opts.Track.Name()
	}
	return playEpisode(ctx, job, opts, ep, a, time.Now())
}

func playEpisode(ctx context.Context, job Job, opts Options, ep Episode, a agents.Agent, start time.Time) (results.Record, error) {
	env, err := ep.Env(a, newAgentFunc(job, opts, ep))
	if err != nil {
		return results.Record{}, err
	}
	ctx, tally := EpisodeContext(ctx, job, opts)
	if c, ok := ep.(ContextEpisode); ok {
		ctx = c.Context(ctx)
	}
	runErr, err := playAgent(ctx, a, env, fmt.Sprintf("%s/%s episode %d, agent %s", job.Family, job.Perturbation, job.Index, job.Agent))
	if err != nil {
		return results.Record{}, err
	}
	rec := newRecord(job, opts)
	rec.WallMS = float64(time.Since(start).Microseconds()) / 1000
	if runErr != nil {
		rec.Error = runErr.Error()
	}
	ep.Score(&rec, runErr)
	finishRecord(&rec, runErr, tally)
	return rec, nil
}

// agentOf is the Config and the seed parts of ep's agent (AgentEpisode).
func agentOf(job Job, ep Episode) (agents.Config, []any) {
	if a, ok := ep.(AgentEpisode); ok {
		return a.Agent()
	}
	return agents.Config{}, []any{job.Track, job.Family, job.Perturbation, job.Index, job.Agent}
}

// newAgentFunc makes the agents of ep's job: ep's Config, seeded by
// AgentSeed with the parts given.
func newAgentFunc(job Job, opts Options, ep Episode) NewAgentFunc {
	return func(seed ...any) (agents.Agent, error) {
		cfg, _ := agentOf(job, ep)
		cfg.Seed = AgentSeed(job, opts, seed...)
		return newAgent(job, opts, cfg)
	}
}

// newAgent makes the job's agent for the track: known, playing it, with
// a model if it needs one. cfg's Model and Members are the run's.
func newAgent(job Job, opts Options, cfg agents.Config) (agents.Agent, error) {
	info, ok := agents.Lookup(job.Agent)
	switch {
	case !ok:
		return nil, fmt.Errorf("unknown agent %q (have %v)", job.Agent, agents.Names())
	case !info.Plays(job.Track):
		return nil, fmt.Errorf("agent %s does not play the %s track", job.Agent, job.Track)
	case info.UsesModel && opts.Model == nil:
		return nil, fmt.Errorf("agent %s needs a model", job.Agent)
	}
	cfg.Model, cfg.Members = opts.Model, opts.Members
	a, err := info.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("agent %s: %w", job.Agent, err)
	}
	return a, nil
}

// EpisodeContext names the job's episode in ctx, for transcripts and
// cassette misses, marks its repeat (llm.WithRepeat) when above 0, and counts its model calls in a tally of its own,
// which finishRecord reads.
func EpisodeContext(ctx context.Context, job Job, opts Options) (context.Context, *llm.Tally) {
	tally := &llm.Tally{}
	ctx = llm.WithEpisode(ctx, job.Key(opts.Seed, opts.ModelFor(job.Agent)))
	if job.Repeat > 0 {
		ctx = llm.WithRepeat(ctx, job.Repeat)
	}
	return llm.WithTally(ctx, tally), tally
}

// playAgent runs an agent on its env and sorts what went wrong: the
// agent's failure (runErr), or the provider's, belongs in its record (see
// finishRecord); a cancelled context (stop) ends the run, and the episode
// is not recorded, so that a resumed run plays it again. where names the
// episode in the latter.
//
// A model call refused because the run is stopping (ErrStopped) stops the
// episode too, unrecorded, even when the workflow carried on after it:
// what followed was not the agent meeting the task.
func playAgent(ctx context.Context, a agents.Agent, env agents.Env, where string) (runErr, stop error) {
	runErr = a.Run(ctx, env)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	if errors.Is(runErr, ErrStopped) {
		return nil, fmt.Errorf("%s: %w", where, runErr)
	}
	if t := llm.TallyFrom(ctx); t != nil {
		for _, err := range t.Failures() {
			if errors.Is(err, ErrStopped) {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
		}
	}
	return runErr, nil
}

// newRecord starts the record of a job: the fields every track fills the
// same way.
func newRecord(job Job, opts Options) results.Record {
	return results.Record{
		Schema:       results.SchemaVersion,
		Track:        job.Track,
		Family:       job.Family,
		Perturbation: job.Perturbation,
		Agent:        job.Agent,
		Model:        opts.ModelFor(job.Agent),
		Seed:         opts.Seed,
		Episode:      job.Index,
		Repeat:       job.Repeat,
	}
}

// Refused is the result of a tool call an env does not carry out: the
// agent reads why, and the call counts as its error.
func Refused(format string, a ...any) agents.Result {
	msg := fmt.Sprintf(format, a...)
	return agents.Result{Text: "error: " + msg, Error: msg}
}
