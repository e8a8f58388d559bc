package tabletop

import (
	"context"
	"fmt"
	"github.com/ambibench/ambibench/agents/grounding"
	"strings"
	"time"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks"
)

// DefaultStepLimit is the number of tool calls, by both robots, after which
// an episode ends.
const DefaultStepLimit = 40

// RunEpisode builds the table in the physics engine, gives each robot's
// agent an [agents.Env] over its own view, plays the simulated user,
// passes ask_robot messages to the partner robot's agent, enforces the
// step limit, and scores the final state.
func (t *Track) RunEpisode(ctx context.Context, job bench.Job, opts bench.Options) (results.Record, error) {
	start := time.Now()
	ep, err := MakeEpisodeSized(opts.Seed, job.Family, job.Perturbation, job.Index, job.Size)
	if err != nil {
		return results.Record{}, err
	}
	objects := len(ep.Objects)
	world, err := NewWorld(ep)
	if err != nil {
		return results.Record{}, fmt.Errorf("%s/%s episode %d: %w", job.Family, job.Perturbation, job.Index, err)
	}
	st := &episodeState{ep: ep, world: world, limit: t.stepLimit(), toolCalls: map[string]int{},
		episode: episodeName(opts.Seed, job.Family, job.Perturbation, job.Index, job.Size),
		seeing:  t.perception() == agents.PerceptionImage && perceivesImage(job.Agent)}
	if st.seeing {
		st.answerSeen = answerByPlace(ep, world.Objects())
	}
	truth := truthOf(ep)
	agentSeed := func(robot string) uint64 {
		return bench.AgentSeed(job, opts, Name, job.Family, job.Perturbation, job.Index, job.Agent, robot)
	}
	newEnv := func(a agents.Agent, robot, partner, instruction string) agents.Env {
		e := &robotEnv{st: st, robot: robot, partner: partner, instruction: instruction, tools: agents.Tools(partner != "")}
		return envFor(a, e, truth)
	}
	calib := t.calibration(opts.Seed, opts.Concurrency)
	lead, err := bench.NewAgent(job, opts, agents.Config{Seed: agentSeed(scenes.Robot1), Calibration: calib, Perception: t.perception(),
		AskRobotFirst: t.AskRobotFirst})
	if err != nil {
		return results.Record{}, err
	}
	ctx, tally := bench.EpisodeContext(ctx, job, opts)
	// A model that builds the scene graph itself (SG-CoT's perceive call)
	// errs as the table's perceiver does, when the model is simulated.
	ctx = llm.WithPerceptionNoise(ctx, ep.ViewNoise)
	partner := ""
	if ep.TwoRobots {
		partner = scenes.Robot2
	}
	env := newEnv(lead, scenes.Robot1, partner, ep.Instruction())
	if ep.TwoRobots {
		helper, err := bench.NewAgent(job, opts, agents.Config{Seed: agentSeed(scenes.Robot2), Calibration: calib, Perception: t.perception(),
			AskRobotFirst: t.AskRobotFirst})
		if err != nil {
			return results.Record{}, err
		}
		re := unwrap(env)
		re.partnerEnv = newEnv(helper, scenes.Robot2, scenes.Robot1, "")
		if r, ok := helper.(agents.Responder); ok {
			re.partnerAgent = r
		}
	}
	runErr, err := bench.PlayAgent(ctx, lead, env, fmt.Sprintf("%s/%s episode %d, agent %s", job.Family, job.Perturbation, job.Index, job.Agent))
	if err != nil {
		return results.Record{}, err
	}
	rec := score(job, opts, ep, st, runErr, time.Since(start))
	rec.SceneSize, rec.Objects = job.Size, objects
	if t.perception() == agents.PerceptionImage && perceivesImage(job.Agent) {
		rec.Perception = agents.PerceptionImage
	}
	bench.FinishRecord(&rec, runErr, tally)
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

func truthOf(ep *tasks.Episode) *agents.Truth {
	t := &agents.Truth{Label: ep.Label}
	for _, s := range ep.Plan() {
		t.Plan = append(t.Plan, agents.PlanStep{Robot: s.Robot, Action: s.Action, Tag: s.Tag, Pick: s.Pick, Place: s.Place})
	}
	return t
}

// score turns the final state into a record, after the metric
// definitions of docs/metrics.md.
func score(job bench.Job, opts bench.Options, ep *tasks.Episode, st *episodeState, runErr error, wall time.Duration) results.Record {
	goalHolds, _ := ep.Goal().Holds(st.world.Objects())
	success := goalHolds && !st.WrongTag
	var ada bool
	switch ep.Label {
	case tasks.LabelNone:
		ada = success && !st.Asked
	case tasks.LabelPartialObservability:
		ada = st.askedRobot
	default:
		ada = st.Asked
	}
	rec := bench.NewRecord(job, opts)
	rec.Label = ep.Label
	rec.OutOfView = ep.OutOfView
	rec.Instruction = ep.Instruction()
	rec.Asked = st.Asked || (ep.Label == tasks.LabelPartialObservability && st.askedRobot)
	rec.Tag = st.FirstTag
	rec.Questions = st.Questions
	rec.TagCorrect = st.TagCorrect
	rec.Success = success
	rec.ADA = ada
	rec.Steps = st.steps
	rec.ToolCalls = st.toolCalls
	rec.Messages = st.messages
	rec.ActedBy = st.actedBy
	rec.WallMS = float64(wall.Microseconds()) / 1000
	st.misperceived.put(&rec) // zeros unless the lead's workflow reported its perception
	switch {
	case runErr != nil:
		rec.Error = runErr.Error()
	case st.partnerErr != nil:
		rec.Error = "partner: " + st.partnerErr.Error()
	}
	return rec
}

// perceivesImage reports whether an agent shows the model the robot's
// camera image when the run perceives through it.
func perceivesImage(agent string) bool {
	info, ok := agents.Lookup(agent)
	return ok && info.ShowsImages
}

// answerByPlace is the episode's answer by place (tasks.Episode.AnswerSeen)
// if, on the table as built, it still names the object the answer by id
// names and no other: distractors added for a scene size may take its
// anchor's colour or stand in its direction. Otherwise "": the user then
// answers by id.
func answerByPlace(ep *tasks.Episode, objs []scenes.Object) string {
	phrase, ok := strings.CutPrefix(strings.TrimSuffix(ep.AnswerSeen, "."), "I mean ")
	meant, ok2 := strings.CutPrefix(strings.TrimSuffix(ep.Answer, "."), "I mean ")
	if !ok || !ok2 {
		return ""
	}
	ref, err := grounding.ParseRef(phrase)
	if err != nil {
		return ""
	}
	got, err := grounding.Resolve(grounding.GraphView{G: scenes.BuildGraph(objs)}, ref)
	if err != nil || len(got) != 1 || got[0] != meant {
		return ""
	}
	return ep.AnswerSeen
}
