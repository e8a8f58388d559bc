package bench

import (
	"context"
	"errors"
	"fmt"
	"github.com/ambibench/ambibench/agents/dyref"
	"time"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks"
	tsm "github.com/ambibench/ambibench/tasks/semmap"
)

// DefaultStepLimit is the number of tool calls, by both robots, after which
// an episode ends.
const DefaultStepLimit = 40

// Job is one episode of one cell for one agent.
type Job struct {
	Cell
	Agent string
	Index int
	// Track is the job's track; "" is the tabletop.
	Track string
}

func (j Job) track() string {
	if j.Track == "" {
		return Track
	}
	return j.Track
}

// Key identifies the job's record, as results.Record.Key does.
func (j Job) Key(seed uint64, model string) string {
	return results.Record{Track: j.track(), Family: j.Family, Perturbation: j.Perturbation, Agent: j.Agent, Model: model, Seed: seed, Episode: j.Index, SceneSize: j.Size}.Key()
}

// EpisodeOptions are the settings every episode of a run shares.
type EpisodeOptions struct {
	Seed      uint64
	StepLimit int // DefaultStepLimit if zero
	// Model drives the workflows (agents registered with
	// RegisterWorkflow); the reference agents use none. Open it with
	// models.Open, which also counts its calls.
	Model llm.Model
	// Members are the models an agent with agents.Info.UsesMembers (the
	// ensemble) samples its answers from; Model makes its other calls.
	// Empty: Model alone. Open them as Model is opened, so that their
	// calls are counted in the episode's record too.
	Members []llm.Model
	// Trials is how many times a household episode may play its game
	// (DefaultTrials if zero); agents that do not reflect play once.
	Trials int
	// Grammar and Feedback select the household texts (see
	// sim/household.Options).
	Grammar, Feedback string
	// Dataset is the semmap track's dataset: maps, queries and their
	// annotated answers.
	Dataset *tsm.Dataset
	// Calibration is the calibration split agents fit thresholds on; Run
	// makes one for the run if nil, RunEpisode one per episode.
	Calibration *Calibration
	// Router is dyref's routing policy; nil means the shipped one.
	Router *dyref.Router
}

// ModelFor returns the model name an agent's records carry: the model's
// for a workflow, "" for a reference agent, for an agent that samples
// from Members, agents.MembersModelName, and for one that routes with a
// Router of the run's own, agents.RouterModelName.
func (o EpisodeOptions) ModelFor(agent string) string {
	info, ok := agents.Lookup(agent)
	switch {
	case !ok || !info.UsesModel || o.Model == nil:
		return ""
	case info.UsesMembers && len(o.Members) > 0:
		return agents.MembersModelName(o.Model, o.Members)
	case info.UsesRouter && o.Router != nil:
		return agents.RouterModelName(o.Model, o.Router)
	}
	return o.Model.Name()
}

// RunEpisode plays one job and scores it. Failures of the agent are part of
// the record (its Error field); the error return is for a cancelled
// context or an episode that could not be built.
func RunEpisode(ctx context.Context, job Job, opts EpisodeOptions) (results.Record, error) {
	switch job.track() {
	case HouseholdTrack:
		return runHouseholdEpisode(ctx, job, opts)
	case SemmapTrack:
		return runSemmapEpisode(ctx, job, opts)
	}
	start := time.Now()
	ep, err := MakeEpisodeSized(opts.Seed, job.Family, job.Perturbation, job.Index, job.Size)
	if err != nil {
		return results.Record{}, err
	}
	info, ok := agents.Lookup(job.Agent)
	if !ok {
		return results.Record{}, fmt.Errorf("unknown agent %q (have %v)", job.Agent, agents.Names())
	}
	objects := len(ep.Objects)
	world, err := NewWorld(ep)
	if err != nil {
		return results.Record{}, fmt.Errorf("%s/%s episode %d: %w", job.Family, job.Perturbation, job.Index, err)
	}
	limit := opts.StepLimit
	if limit <= 0 {
		limit = DefaultStepLimit
	}
	st := &episodeState{ep: ep, world: world, limit: limit, toolCalls: map[string]int{}}
	truth := truthOf(ep)
	agentSeed := func(robot string) uint64 {
		return EpisodeSeed(opts.Seed, Track, job.Family, job.Perturbation, job.Index, job.Agent, robot)
	}
	newEnv := func(a agents.Agent, robot, partner, instruction string) agents.Env {
		e := &robotEnv{st: st, robot: robot, partner: partner, instruction: instruction, tools: agents.Tools(partner != "")}
		return envFor(a, e, truth)
	}
	if !info.Plays(Track) {
		return results.Record{}, fmt.Errorf("agent %s does not play the %s track", job.Agent, Track)
	}
	if info.UsesModel && opts.Model == nil {
		return results.Record{}, fmt.Errorf("agent %s needs a model", job.Agent)
	}
	ctx, tally := episodeContext(ctx, job, opts)
	calib := opts.Calibration
	if calib == nil {
		calib = NewCalibration(opts.Seed, 0)
	}
	lead, err := info.New(agents.Config{Seed: agentSeed(scenes.Robot1), Model: opts.Model, Calibration: calib, Members: opts.Members})
	if err != nil {
		return results.Record{}, fmt.Errorf("agent %s: %w", job.Agent, err)
	}
	partner := ""
	if ep.TwoRobots {
		partner = scenes.Robot2
	}
	env := newEnv(lead, scenes.Robot1, partner, ep.Instruction())
	if ep.TwoRobots {
		helper, err := info.New(agents.Config{Seed: agentSeed(scenes.Robot2), Model: opts.Model, Calibration: calib, Members: opts.Members})
		if err != nil {
			return results.Record{}, fmt.Errorf("agent %s: %w", job.Agent, err)
		}
		re := unwrap(env)
		re.partnerEnv = newEnv(helper, scenes.Robot2, scenes.Robot1, "")
		if r, ok := helper.(agents.Responder); ok {
			re.partnerAgent = r
		}
	}
	runErr, err := runAgent(ctx, lead, env, fmt.Sprintf("%s/%s episode %d, agent %s", job.Family, job.Perturbation, job.Index, job.Agent))
	if err != nil {
		return results.Record{}, err
	}
	rec := score(job, opts, ep, st, runErr, time.Since(start))
	rec.SceneSize, rec.Objects = job.Size, objects
	recordOutcome(&rec, runErr, tally)
	return rec, nil
}

// envFor hands the ground truth to agents that declare they read it, and
// to no other.
func envFor(a agents.Agent, e *robotEnv, truth *agents.Truth) agents.Env {
	if _, reads := a.(agents.TruthReader); reads {
		return truthEnv{e, truth}
	}
	return e
}

// episodeContext names the job's episode in ctx, for transcripts and
// cassette misses, and counts its model calls in a tally of its own.
func episodeContext(ctx context.Context, job Job, opts EpisodeOptions) (context.Context, *llm.Tally) {
	tally := &llm.Tally{}
	return llm.WithTally(llm.WithEpisode(ctx, job.Key(opts.Seed, opts.ModelFor(job.Agent))), tally), tally
}

// runAgent runs an agent on its env and sorts what went wrong: the
// agent's failure (runErr), or the provider's, belongs in its record (see
// recordOutcome); a cancelled context (stop) ends the run, and the episode
// is not recorded, so that a resumed run plays it again. where names the
// episode in the latter.
//
// A model call refused because the run is stopping (ErrStopped) stops the
// episode too, unrecorded, even when the workflow carried on after it:
// what followed was not the agent meeting the task.
func runAgent(ctx context.Context, a agents.Agent, env agents.Env, where string) (runErr, stop error) {
	runErr = a.Run(ctx, env)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	if errors.Is(runErr, ErrStopped) {
		return nil, fmt.Errorf("%s: %w", where, runErr)
	}
	if t := llm.TallyFrom(ctx); t != nil {
		failures := t.Failures()
		for _, err := range failures {
			if errors.Is(err, ErrStopped) {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
		}
	}
	return runErr, nil
}

func truthOf(ep *tasks.Episode) *agents.Truth {
	t := &agents.Truth{Label: ep.Label}
	for _, s := range ep.Plan() {
		t.Plan = append(t.Plan, agents.PlanStep{Robot: s.Robot, Action: s.Action, Tag: s.Tag, Pick: s.Pick, Place: s.Place})
	}
	return t
}

// score turns the final state into a record, after DESIGN.md's metric
// definitions.
func score(job Job, opts EpisodeOptions, ep *tasks.Episode, st *episodeState, runErr error, wall time.Duration) results.Record {
	goalHolds, _ := ep.Goal().Holds(st.world.Objects())
	success := goalHolds && !st.wrongTag
	var ada bool
	switch ep.Label {
	case tasks.LabelNone:
		ada = success && !st.asked
	case tasks.LabelPartialObservability:
		ada = st.askedRobot
	default:
		ada = st.asked
	}
	rec := results.Record{
		Schema:       results.SchemaVersion,
		Suite:        SuiteVersion,
		Track:        Track,
		Family:       job.Family,
		Perturbation: job.Perturbation,
		Label:        ep.Label,
		Agent:        job.Agent,
		Model:        opts.ModelFor(job.Agent),
		Seed:         opts.Seed,
		Episode:      job.Index,
		Instruction:  ep.Instruction(),
		Asked:        st.asked || (ep.Label == tasks.LabelPartialObservability && st.askedRobot),
		Tag:          st.firstTag,
		Questions:    st.questions,
		TagCorrect:   st.tagCorrect,
		Success:      success,
		ADA:          ada,
		Steps:        st.steps,
		ToolCalls:    st.toolCalls,
		Messages:     st.messages,
		ActedBy:      st.actedBy,
		WallMS:       float64(wall.Microseconds()) / 1000,
	}
	switch {
	case runErr != nil:
		rec.Error = runErr.Error()
	case st.partnerErr != nil:
		rec.Error = "partner: " + st.partnerErr.Error()
	}
	return rec
}
