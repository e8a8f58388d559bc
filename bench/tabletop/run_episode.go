package tabletop

import (
	"context"
	"fmt"
	"github.com/ambibench/ambibench/agents/grounding"
	"strings"

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

// episode is one tabletop job's episode: the table built in the physics
// engine, the state its robots change, and its truth.
type episode struct {
	t       *Track
	job     bench.Job
	ep      *tasks.Episode
	st      *episodeState
	truth   *agents.Truth
	objects int // on the table as built, before the agents move any
	calib   *Calibration
}

// NewEpisode builds the table in the physics engine. Its agents each get
// an [agents.Env] over their robot's own view; the simulated user answers
// them, ask_robot messages go to the partner robot's agent, and the step
// limit ends the episode, whose final state is scored.
func (t *Track) NewEpisode(_ context.Context, job bench.Job, opts bench.Options) (bench.Episode, error) {
	ep, err := MakeEpisodeSized(opts.Seed, job.Family, job.Perturbation, job.Index, job.Size)
	if err != nil {
		return nil, err
	}
	world, err := NewWorld(ep)
	if err != nil {
		return nil, fmt.Errorf("%s/%s episode %d: %w", job.Family, job.Perturbation, job.Index, err)
	}
	st := &episodeState{ep: ep, world: world, limit: t.stepLimit(), toolCalls: map[string]int{},
		episode: episodeName(opts.Seed, job.Family, job.Perturbation, job.Index, job.Size),
		seeing:  t.perception() == agents.PerceptionImage && perceivesImage(job.Agent)}
	if st.seeing {
		st.answerSeen = answerByPlace(ep, st.objects())
	}
	return &episode{t: t, job: job, ep: ep, st: st, truth: truthOf(ep), objects: len(ep.Objects),
		calib: t.calibration(opts.Seed, opts.Concurrency)}, nil
}

// Agent gives each robot's agent the calibration split, the perception
// and the two-robot ordering of the run; a robot's name ends its seed.
func (e *episode) Agent() (agents.Config, []any) {
	j := e.job
	return agents.Config{Calibration: e.calib, Perception: e.t.perception(), AskRobotFirst: e.t.AskRobotFirst},
		[]any{Name, j.Family, j.Perturbation, j.Index, j.Agent, scenes.Robot1}
}

// Env is the lead robot's view; on a two-robot table, more makes the
// partner robot's agent, which answers the lead's ask_robot messages
// from its own view.
func (e *episode) Env(lead agents.Agent, more bench.NewAgentFunc) (agents.Env, error) {
	j := e.job
	newEnv := func(a agents.Agent, robot, partner, instruction string) agents.Env {
		re := &robotEnv{st: e.st, robot: robot, partner: partner, instruction: instruction, tools: agents.Tools(partner != "")}
		return envFor(a, re, e.truth)
	}
	if !e.ep.TwoRobots {
		return newEnv(lead, scenes.Robot1, "", e.ep.Instruction()), nil
	}
	env := newEnv(lead, scenes.Robot1, scenes.Robot2, e.ep.Instruction())
	helper, err := more(Name, j.Family, j.Perturbation, j.Index, j.Agent, scenes.Robot2)
	if err != nil {
		return nil, err
	}
	re := unwrap(env)
	re.partnerEnv = newEnv(helper, scenes.Robot2, scenes.Robot1, "")
	if r, ok := helper.(agents.Responder); ok {
		re.partnerAgent = r
	}
	return env, nil
}

// Context has a model that builds the scene graph itself (SG-CoT's
// perceive call) err as the table's perceiver does, when the model is
// simulated.
func (e *episode) Context(ctx context.Context) context.Context {
	return llm.WithPerceptionNoise(ctx, e.ep.ViewNoise)
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

// Score scores the final state, after the metric definitions of
// docs/metrics.md.
func (e *episode) Score(rec *results.Record, _ error) {
	ep, st := e.ep, e.st
	goalHolds, _ := ep.Goal().Holds(st.objects())
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
	st.misperceived.put(rec) // zeros unless the lead's workflow reported its perception
	if rec.Error == "" && st.partnerErr != nil {
		rec.Error = "partner: " + st.partnerErr.Error()
	}
	rec.SceneSize, rec.Objects = e.job.Size, e.objects
	if st.seeing {
		rec.Perception = agents.PerceptionImage
	}
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
