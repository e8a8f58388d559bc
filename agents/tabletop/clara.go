package tabletop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

func init() {
	agents.RegisterWorkflow("clara", "LLM workflow: CLARA; samples several plans from each of several prompts with shuffled context, asks when their pick and place phrases are more diverse than a calibrated threshold, tells infeasible from ambiguous",
		func(cfg agents.Config) (agents.Agent, error) {
			return &clara{model: cfg.Model, calib: cfg.Calibration, prompts: claraPrompts, draws: claraDraws, temperature: claraTemperature, perception: cfg.Perception}, nil
		})
	// Under --perception image it sees the table through the camera image
	// (eyes.go); --perception detector gives it the detector's list.
	agents.SetShowsImages("clara", "--perception detector")
}

// CLARA's sampling, as the authors' code sets it (CLARA-PNP-DEMO,
// llm/chat.py, the tabletop planner's uncertainty: plan_with_unct_type2,
// sample_prompt, inference): 5 prompts (its goal_num), each sampled 3 times
// (its n=3) at temperature 0.8 (top_p 1, the provider's default here),
// each prompt showing from 4 to all 6 of the worked examples, how many
// drawn per prompt (its randrange(4, 7) over its 6 examples), in a drawn
// order, and the objects shuffled. That is 15 sampling calls an episode:
// a Request draws one reply, where the reference asks for n=3 in one call.
const (
	claraPrompts     = 5
	claraDraws       = 3 // samples of each prompt
	claraTemperature = 0.8
	claraShots       = 4 // the fewest worked examples a prompt shows; at most all of claraExamples
	claraMaxTurns    = 8 // model calls after the decision to act or ask
)

// clara is CLARA (the SG-CoT paper's baseline): uncertainty from stochastic
// context sampling, as the authors' code estimates it. Each of several
// prompts shows a random subset of the worked examples and the objects in a
// shuffled order, and is sampled several times at temperature > 0; the
// uncertainty is the diversity of the sampled plans' pick and place phrases
// (planDiversity, clara_diversity.go, with a bag of words standing in for
// the reference's word vectors). Above a threshold, calibrated on episodes
// kept apart from the test episodes, a classifying call tells an
// infeasible instruction (absence) from an ambiguous one and writes the
// question; at or below it, the most common plan is carried out.
type clara struct {
	model       llm.Model
	calib       agents.Calibrator
	prompts     int // sampling prompts, each with its own examples and order
	draws       int // samples of each prompt
	temperature float64
	perception  string // how it sees the table (eyes)
}

// claraExample is a worked example of the sampling prompt.
type claraExample struct{ Objects, Instruction, Answer string }

// claraShot is a worked example before it is written for a prompt: with
// perception=image its objects are listed without positions, as the
// robot's own are.
type claraShot struct {
	objs                []listedObject
	Instruction, Answer string
}

// written are the worked examples as a prompt of that perception lists
// objects.
func written(shots []claraShot, image bool) []claraExample {
	out := make([]claraExample, len(shots))
	for i, sh := range shots {
		objs := slices.Clone(sh.objs)
		for j := range objs {
			objs[j].InImage = image
		}
		out[i] = claraExample{Objects: objectLines(objs), Instruction: sh.Instruction, Answer: sh.Answer}
	}
	return out
}

// claraExamples is the pool the sampling prompts draw their worked
// examples from. Their tables list objects as the real task's does, with
// positions; the spatial one shows the relation read off the coordinates.
var claraExamples = []claraShot{
	{[]listedObject{ex("green block 1", -0.15, -0.40), ex("red bowl 1", 0.10, -0.60), ex("yellow block 1", 0.20, -0.30)},
		"Put the green block in the red bowl.",
		`{"plan": [{"pick": "green block 1", "place": "red bowl 1"}], "explanation": "The green block goes into the red bowl."}`},
	{[]listedObject{ex("blue block 1", -0.10, -0.55), ex("yellow block 1", 0.15, -0.45), ex("pink bowl 1", 0, -0.70)},
		"Stack the blue block on the yellow block.",
		`{"plan": [{"pick": "blue block 1", "place": "yellow block 1"}], "explanation": "The blue block goes on top of the yellow block."}`},
	{[]listedObject{ex("orange block 1", 0.05, -0.35), ex("cyan block 1", -0.20, -0.65), ex("gray bowl 1", 0.20, -0.60)},
		"Put the orange block in the gray bowl and the cyan block in the top right corner.",
		`{"plan": [{"pick": "orange block 1", "place": "gray bowl 1"}, {"pick": "cyan block 1", "place": "top right corner"}], "explanation": "Two moves, in the order given."}`},
	{[]listedObject{ex("purple block 1", -0.18, -0.48), ex("brown block 1", 0.12, -0.30), ex("green bowl 1", 0, -0.50)},
		"Put the block left of the green bowl in the green bowl.",
		`{"plan": [{"pick": "purple block 1", "place": "green bowl 1"}], "explanation": "The purple block is the one left of the green bowl."}`},
	{[]listedObject{ex("red block 1", 0.10, -0.40), ex("blue bowl 1", -0.20, -0.60), ex("blue bowl 2", 0.20, -0.70)},
		"Put the red block in the middle of the table.",
		`{"plan": [{"pick": "red block 1", "place": "middle"}], "explanation": "The middle is a named place."}`},
	{[]listedObject{ex("yellow block 1", -0.10, -0.35), ex("yellow block 2", 0.15, -0.45), ex("white bowl 1", 0, -0.65)},
		"Put the pink block in the white bowl.",
		`{"plan": [{"pick": "yellow block 1", "place": "white bowl 1"}], "explanation": "There is no pink block; a yellow one is the closest match."}`},
}

// ex is an object of a worked example, its attributes read off its id.
func ex(id string, x, y float64) listedObject {
	o := listedObject{ID: id, X: x, Y: y}
	if f := strings.Fields(id); len(f) == 3 {
		o.Color, o.Type = f[0], f[1]
	}
	return o
}

type claraPrompt struct {
	Instruction, Robot, Partner, Objects, Frame, Places, Plans string
	Examples                                                   []claraExample
	Image                                                      bool // the prompt shows the camera image
}

// claraStep is one step of a sampled plan, as the sampling prompt asks
// for it.
type claraStep struct {
	Pick     string `json:"pick,omitempty"`
	Place    string `json:"place,omitempty"`
	AskRobot string `json:"ask_robot,omitempty"`
}

// ParseClaraPlan reads a sampled plan: a JSON object whose "plan" is a
// list of steps, each a pick and a place or an ask_robot message. Text
// around the object (a model's preamble, a code fence) is ignored.
func ParseClaraPlan(text string) ([]claraStep, error) {
	obj, err := jsonObject(text)
	if err != nil {
		return nil, err
	}
	var p struct {
		Plan *[]claraStep `json:"plan"`
	}
	if err := json.Unmarshal([]byte(obj), &p); err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	if p.Plan == nil {
		return nil, errors.New(`plan: no field "plan"`)
	}
	for i, s := range *p.Plan {
		switch {
		case s.AskRobot != "" && (s.Pick != "" || s.Place != ""):
			return nil, fmt.Errorf("plan step %d: both a move and ask_robot", i+1)
		case s.AskRobot == "" && (s.Pick == "" || s.Place == ""):
			return nil, fmt.Errorf("plan step %d: want pick and place, or ask_robot", i+1)
		}
	}
	return *p.Plan, nil
}

// claraClass is the classifying call's answer.
type claraClass struct {
	Feasible  bool   `json:"feasible"`
	Ambiguous bool   `json:"ambiguous"`
	Action    string `json:"action"`
	Tag       string `json:"tag"`
	Question  string `json:"question"`
}

// ParseClaraClass reads the classifying call's answer.
func ParseClaraClass(text string) (claraClass, error) {
	var c claraClass
	obj, err := jsonObject(text)
	if err != nil {
		return c, err
	}
	if err := json.Unmarshal([]byte(obj), &c); err != nil {
		return c, fmt.Errorf("classification: %w", err)
	}
	switch c.Action {
	case "act":
	case "ask":
		if !slices.Contains(agents.AskTags, c.Tag) {
			return c, fmt.Errorf("classification: field \"tag\": %q is not one of %s", c.Tag, strings.Join(agents.AskTags, ", "))
		}
		fallthrough
	case "ask_robot":
		if strings.TrimSpace(c.Question) == "" {
			return c, fmt.Errorf("classification: action %q with an empty \"question\"", c.Action)
		}
	default:
		return c, fmt.Errorf("classification: field \"action\": %q is not ask, ask_robot or act", c.Action)
	}
	return c, nil
}

// jsonObject cuts the outermost JSON object out of a reply.
func jsonObject(text string) (string, error) {
	i, j := strings.Index(text, "{"), strings.LastIndex(text, "}")
	if i < 0 || j < i {
		return "", fmt.Errorf("no JSON object in the reply (%.80q)", text)
	}
	return text[i : j+1], nil
}

// claraView is the scene as CLARA's prompts show it: the detected
// objects, in a shuffled order for a sampling prompt.
type claraView struct {
	objs    []llm.Detection
	objects string
}

func newClaraView(l *look, rng *rand.Rand) claraView {
	objs, lines := slices.Clone(l.context()), l.listed()
	if rng != nil {
		rng.Shuffle(len(objs), func(i, j int) {
			objs[i], objs[j] = objs[j], objs[i]
			lines[i], lines[j] = lines[j], lines[i]
		})
	}
	return claraView{objs: objs, objects: objectLines(lines)}
}

// contentSeed seeds the sampling from what the robot sees, so a given
// episode is sampled alike whether it is a test or a calibration episode,
// and whichever episode started the calibration.
func contentSeed(env agents.Env, objs []llm.Detection) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%s\x00", env.Instruction(), env.Robot())
	for _, o := range objs {
		fmt.Fprintf(h, "%s\x00", o.ID)
	}
	return h.Sum64()
}

// uncertainty samples the plans: a.draws samples of each of a.prompts
// prompts, each prompt with its own draw of worked examples and order of
// objects. It returns their diversity (planDiversity), the most common
// readable plan (nil when no sample could be read), and each distinct plan
// with its count, which the later prompts show. An unreadable sample is
// left out of the diversity and of the choice of plan, as the reference
// leaves out an answer it cannot parse; it is counted among the plans shown.
func (a *clara) uncertainty(ctx context.Context, env agents.Env, l *look) (float64, []claraStep, []string, error) {
	seed := contentSeed(env, l.ds)
	counts := map[string]int{}
	var keys []string
	plans := map[string][]claraStep{}
	var read [][]claraStep
	for k := range a.prompts {
		rng := rand.New(rand.NewPCG(seed, uint64(k)))
		v := newClaraView(l, rng)
		shots := slices.Clone(claraExamples)
		rng.Shuffle(len(shots), func(i, j int) { shots[i], shots[j] = shots[j], shots[i] })
		shots = shots[:claraShots+rng.IntN(len(shots)-claraShots+1)]
		cc := &llm.CallContext{Role: llm.CallPlan, Track: "tabletop", Instruction: env.Instruction(), Robot: env.Robot(),
			Partner: env.Partner(), Detections: v.objs, Format: llm.FormatJSON}
		user, err := renderIn(ctx, "clara_sample.tmpl", claraPrompt{Instruction: env.Instruction(), Robot: env.Robot(),
			Partner: env.Partner(), Objects: v.objects, Frame: l.frame(), Places: strings.Join(scenes.PlaceNames, ", "),
			Examples: written(shots, l.sight != nil), Image: l.sight != nil})
		if err != nil {
			return 0, nil, nil, err
		}
		for m := range a.draws {
			// The episode's draws are numbered 0, 1, … across the prompts,
			// so that no two of them share a sample (and a seed, sent as
			// the base seed plus the sample), whatever their prompts.
			req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: user}}, Temperature: a.temperature,
				Sample: k*a.draws + m, Context: cc}
			l.show(&req)
			reply, err := a.model.Generate(ctx, req)
			if err != nil {
				return 0, nil, nil, fmt.Errorf("model %s: %w", a.model.Name(), err)
			}
			key := "unreadable"
			if steps, err := ParseClaraPlan(reply.Text); err == nil {
				b, _ := json.Marshal(steps)
				key = string(b)
				plans[key] = steps
				read = append(read, steps)
			}
			if counts[key] == 0 {
				keys = append(keys, key)
			}
			counts[key]++
		}
	}
	best := ""
	var shown []string
	for _, k := range keys {
		shown = append(shown, fmt.Sprintf("%d× %s", counts[k], k))
		if _, ok := plans[k]; ok && counts[k] > counts[best] {
			best = k
		}
	}
	return planDiversity(read), plans[best], shown, nil
}

// Score is CLARA's uncertainty on an episode, for calibration.
// It sees the calibration episode as it sees a test episode (eyes).
func (a *clara) Score(ctx context.Context, env agents.Env) (float64, error) {
	l, err := newEyes(a.model, a.perception, env).see(ctx, false)
	if err != nil {
		return 0, err
	}
	s, _, _, err := a.uncertainty(ctx, env, l)
	return s, err
}

// threshold is the calibrated uncertainty above which CLARA asks. With no
// calibration it asks whenever two samples pick or place differently.
func (a *clara) threshold(ctx context.Context) (float64, error) {
	if a.calib == nil {
		return 0, nil
	}
	thr, err := a.calib.Threshold(ctx, "clara/"+a.model.Name(), a.Score)
	if err != nil {
		return 0, fmt.Errorf("clara: calibrating: %w", err)
	}
	return thr, nil
}

// Calibrate fits the threshold now (see Calibrated).
func (a *clara) Calibrate(ctx context.Context) error {
	_, err := a.threshold(ctx)
	return err
}

func (a *clara) Run(ctx context.Context, env agents.Env) error {
	thr, err := a.threshold(ctx)
	if err != nil {
		return err
	}
	eyes := newEyes(a.model, a.perception, env)
	l, err := eyes.see(ctx, false)
	if err != nil {
		return agents.Finish(err)
	}
	env = eyes.acting(env)
	score, plan, shown, err := a.uncertainty(ctx, env, l)
	if err != nil {
		return err
	}
	data := claraPrompt{Instruction: env.Instruction(), Robot: env.Robot(), Partner: env.Partner(),
		Objects: objectLines(l.listed()), Frame: l.frame(), Places: strings.Join(scenes.PlaceNames, ", "),
		Plans: strings.Join(shown, "\n"), Image: l.sight != nil}
	conv, err := a.actConversation(ctx, env, l, data)
	if err != nil {
		return err
	}
	if score <= thr && plan != nil {
		return agents.Finish(a.carryOut(ctx, conv, plan))
	}
	cls, err := a.classify(ctx, env, l, data)
	if err != nil {
		return err
	}
	switch cls.Action {
	case "ask":
		err = conv.step(ctx, agents.ToolAsk, agents.AskArgs{Tag: cls.Tag, Question: cls.Question})
	case "ask_robot":
		err = conv.step(ctx, agents.ToolAskRobot, agents.AskRobotArgs{Message: cls.Question})
	default:
		if plan != nil {
			return agents.Finish(a.carryOut(ctx, conv, plan))
		}
	}
	if err != nil {
		return agents.Finish(err)
	}
	return agents.Finish(conv.loop(ctx, claraMaxTurns))
}

// classify asks the model why the samples disagree.
func (a *clara) classify(ctx context.Context, env agents.Env, l *look, data claraPrompt) (claraClass, error) {
	cc := &llm.CallContext{Role: llm.CallClassify, Track: "tabletop", Instruction: env.Instruction(), Robot: env.Robot(),
		Partner: env.Partner(), Detections: l.context(), Format: llm.FormatJSON}
	user, err := renderIn(ctx, "clara_classify.tmpl", data)
	if err != nil {
		return claraClass{}, err
	}
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: user}}, Context: cc}
	l.show(&req)
	reply, err := a.model.Generate(ctx, req)
	if err != nil {
		return claraClass{}, fmt.Errorf("model %s: %w", a.model.Name(), err)
	}
	c, err := ParseClaraClass(reply.Text)
	if err != nil {
		return c, fmt.Errorf("model %s: %w", a.model.Name(), err)
	}
	return c, nil
}

// actConversation is the tool loop CLARA acts in once it has decided:
// the steps it takes itself are written into it as the model's calls, so
// a model that takes over sees everything done so far.
func (a *clara) actConversation(ctx context.Context, env agents.Env, l *look, data claraPrompt) (*conversation, error) {
	cc := &llm.CallContext{Role: llm.CallPlan, Track: "tabletop", Instruction: env.Instruction(), Robot: env.Robot(),
		Partner: env.Partner(), Detections: l.context(), Format: llm.FormatToolCalls}
	user, err := renderIn(ctx, "clara_act.tmpl", data)
	if err != nil {
		return nil, err
	}
	tools := []string{agents.ToolPickAndPlace, agents.ToolAsk, agents.ToolDone}
	if env.Partner() != "" {
		tools = append(tools, agents.ToolAskRobot)
	}
	conv := &conversation{model: a.model, env: env, req: llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Text: user}}, Tools: agents.ToolDecls(env, tools...), Context: cc,
	}}
	l.show(&conv.req)
	return conv, nil
}

// carryOut runs the common plan. A message to the other robot, or a move
// the table refuses, hands the rest to the model.
func (a *clara) carryOut(ctx context.Context, conv *conversation, plan []claraStep) error {
	for _, s := range plan {
		var err error
		if s.AskRobot != "" {
			if err = conv.step(ctx, agents.ToolAskRobot, agents.AskRobotArgs{Message: s.AskRobot}); err == nil {
				return conv.loop(ctx, claraMaxTurns)
			}
		} else {
			err = conv.step(ctx, agents.ToolPickAndPlace, agents.PickAndPlaceArgs{Pick: s.Pick, Place: s.Place})
		}
		var refused *refusedError
		switch {
		case errors.As(err, &refused):
			return conv.loop(ctx, claraMaxTurns)
		case err != nil:
			return err
		}
	}
	return agents.Done(ctx, conv.env)
}

// Respond answers the partner robot from CLARA's own view of the table:
// its object list, not the scene graph (see answerFromList).
func (a *clara) Respond(ctx context.Context, env agents.Env, message string) (string, error) {
	return answerFromList(ctx, a.model, a.perception, env, message, false)
}
