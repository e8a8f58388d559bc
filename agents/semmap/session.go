package semmap

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// What the four semmap workflows of the agentic-workflows paper share:
// fetching the map, the prompts' data, one model call, and the final
// answer. Every prompt is a single fresh user message, as the paper writes
// each step's prompt afresh and carries history (memory) in the prompt
// text, not in a conversation.

// semmapSession is one episode as a workflow plays it.
type semmapSession struct {
	agent string
	model llm.Model
	env   agents.Env
	// mapText is the map as the prompts show it; m the map itself, for
	// the block; mode how mapText shows it.
	mapText string
	m       *scenes.SemanticMap
	mode    string
	// shown is m as the contexts restate it (shownMap), made once: every
	// call of the episode shows the same map, and writing it out again
	// for each cost as much as the call.
	shown *scenes.SemanticMap
}

// semmapOnly refuses an episode of another track before any model call.
func semmapOnly(agent string, env agents.Env) error {
	if tr := agents.TrackOf(env); tr != agents.TrackSemmap {
		return fmt.Errorf("%s: plays the %s track only; this episode is on the %s track", agent, agents.TrackSemmap, tr)
	}
	return nil
}

// openSemmap fetches the map with get_map.
func openSemmap(ctx context.Context, agent string, model llm.Model, env agents.Env) (*semmapSession, error) {
	if err := semmapOnly(agent, env); err != nil {
		return nil, err
	}
	if model == nil {
		return nil, fmt.Errorf("%s: needs a model (--model or AMBIBENCH_MODEL)", agent)
	}
	r, err := agents.Call(ctx, env, agents.ToolGetMap, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: get_map: %w", agent, err)
	}
	if r.Error != "" {
		return nil, fmt.Errorf("%s: get_map refused: %s", agent, r.Error)
	}
	s := &semmapSession{agent: agent, model: model, env: env, mapText: strings.TrimRight(r.Text, "\n")}
	s.m, s.mode = agents.MapOf(env)
	s.shown = shownMap(s.m, s.mode)
	if s.mapText == "" && s.m != nil {
		s.mapText = mapInput(s.m, s.mode)
	}
	if s.mapText == "" {
		return nil, fmt.Errorf("%s: get_map returned neither text nor a map", agent)
	}
	return s, nil
}

// semmapPrompt is the data of the semmap templates.
type semmapPrompt struct {
	Query     string
	Uncertain bool // the map shows class distributions
	Map       string
	// MapName names the map, as its file does ("scene0011_00"): the
	// prompt says which map it shows, and the context names it too.
	MapName string
	// Examples, ReflectExamples and RefineExamples are the in-context
	// examples of the planning, reflection and refinement prompts.
	Examples        []semmapExample
	ReflectExamples []semmapReflectExample
	RefineExamples  []semmapRefineExample
	// History are the earlier rounds a prompt with memory recalls: each
	// answer with the critique of it, oldest first.
	History []semmapRound
	// Answer is the answer to review or revise; Feedback the critique to
	// apply.
	Answer, Feedback string
	// Responses are a choose prompt's options.
	Responses []semmapResponse
	// Near is the distance within which the dataset's truth counts two
	// objects near each other, in metres; "" when the dataset does not
	// say, and then the prompts say nothing of near.
	Near string
}

type semmapRound struct {
	N                int
	Answer, Feedback string
}

type semmapResponse struct{ Letter, Answer string }

// prompt fills the data every template needs, with examples of the step
// the prompt is for (llm.CallPlan, CallReflect or CallRefine), as many as
// counts give.
func (s *semmapSession) prompt(role string, counts ExampleCounts) semmapPrompt {
	name := ""
	if s.m != nil {
		name = s.m.Name
	}
	p := semmapPrompt{Query: s.env.Instruction(), Uncertain: s.mode == agents.ModeUncertainty, Map: s.mapText, MapName: name}
	if ns, ok := s.env.(nearSetter); ok {
		if d, ok := ns.SemmapNear(); ok && d > 0 {
			p.Near = strconv.FormatFloat(d, 'f', -1, 64)
		}
	}
	counts = s.counts(counts)
	switch role {
	case llm.CallPlan:
		p.Examples = planExamples(s.mode, counts.Plan)
	case llm.CallReflect:
		p.ReflectExamples = reflectExamples(s.mode, counts.Reflect)
	case llm.CallRefine:
		p.RefineExamples = refineExamples(s.mode, counts.Refine)
	}
	return p
}

// counts are the workflow's example counts, or the run's when the Env
// sets them (the semmap track's --examples).
func (s *semmapSession) counts(def ExampleCounts) ExampleCounts {
	if es, ok := s.env.(exampleSetter); ok {
		if p, r, f, set := es.SemmapExamples(); set {
			return ExampleCounts{Plan: p, Reflect: r, Refine: f}
		}
	}
	return def
}

// exampleSetter is an Env that sets the example counts of a run, over
// every workflow's own: bench's semmap episodes, from the track's
// --examples flag. set is false when the run leaves them to the
// workflows.
type exampleSetter interface {
	SemmapExamples() (plan, reflect, refine int, set bool)
}

// nearSetter is an Env whose dataset says what near means in its truth:
// bench's semmap episodes, from the dataset's description
// (tasks/mapqueries.Dataset.Near). ok is false when the dataset does not say;
// an Env that is not a nearSetter says nothing either.
type nearSetter interface {
	SemmapNear() (metres float64, ok bool)
}

// attemptsSetter is an Env that sets the run's most attempts at a
// readable JSON answer, over every workflow's own: bench's semmap
// episodes, from the track's --attempts flag. set is false when the run
// leaves them to the workflows.
type attemptsSetter interface {
	SemmapAttempts() (n int, set bool)
}

// attempts are the workflow's attempts (PaperAttempts when def is not
// positive), or the run's when the Env sets them.
func (s *semmapSession) attempts(def int) int {
	if as, ok := s.env.(attemptsSetter); ok {
		if n, set := as.SemmapAttempts(); set && n > 0 {
			return n
		}
	}
	if def <= 0 {
		return PaperAttempts
	}
	return def
}

// context is a call's context for the simulated model. Its map is the
// session's, shared by every call: a reader must not change it.
func (s *semmapSession) context(role, format string, answers, feedback []string) *llm.CallContext {
	return &llm.CallContext{Role: role, Track: agents.TrackSemmap, Instruction: s.env.Instruction(), SemanticMap: s.shown, Mode: s.mode,
		Answers: answers, Feedback: feedback, Format: format}
}

// semmapAnswerSchema is the answer the JSON prompts ask for, offered as
// the request's response schema: a backend sends it as structured output
// only when the model spec asks (schema=1); by default the prompt alone
// asks for it, as in the agentic-workflows paper.
var semmapAnswerSchema = json.RawMessage(`{"type":"object","properties":{"inferred_query":{"type":"string"},"query_achievable":{"type":"boolean"},"relevant_objects":{"type":"array","items":{"type":"string"}},"explanation":{"type":"string"}},"required":["inferred_query","query_achievable","relevant_objects","explanation"]}`)

// shownMap is the map as the prompt's JSON shows it (scenes.SemanticMap.
// RenderJSON in the mode), for the call's context, so that the simulated
// model reads what a real one reads and no more: ids, boxes and
// probabilities at the two decimals the JSON writes, observation counts;
// in the certainty input each object's most probable class alone, at 1,
// in the uncertainty input every class; and the map's name, which the
// prompt gives. The evidence, which the JSON does not show, is left out.
func shownMap(m *scenes.SemanticMap, mode string) *scenes.SemanticMap {
	if m == nil {
		return nil
	}
	out := &scenes.SemanticMap{Name: m.Name, Instances: make([]scenes.Instance, len(m.Instances))}
	for i, in := range m.Instances {
		shown := scenes.Instance{ID: in.ID, Observations: in.Observations}
		for j := range 3 {
			shown.Center[j], shown.Size[j] = asShown(in.Center[j]), asShown(in.Size[j])
		}
		for _, c := range in.Classes {
			if mode != agents.ModeUncertainty {
				shown.Classes = []scenes.ClassScore{{Class: c.Class, P: 1}}
				break
			}
			shown.Classes = append(shown.Classes, scenes.ClassScore{Class: c.Class, P: asShown(c.P)})
		}
		out.Instances[i] = shown
	}
	return out
}

// asShown is x as the map's JSON writes it, to two decimals.
func asShown(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 2, 64), 64) // a formatted float always parses
	return v
}

// generate renders a template and sends it as one user message, at
// temperature, or with temperature nil at the provider's default (unless
// the model spec sets one): the agentic-workflows code sets a temperature
// only for the ensemble's samples.
func (s *semmapSession) generate(ctx context.Context, step, tmpl string, data semmapPrompt, cc *llm.CallContext, temperature *float64, sample int) (llm.Reply, error) {
	text, err := renderIn(ctx, tmpl, data)
	if err != nil {
		return llm.Reply{}, fmt.Errorf("%s: %s prompt: %w", s.agent, step, err)
	}
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: text}}, Sample: sample, Context: cc}
	if temperature != nil {
		req.Temperature = *temperature
	} else {
		req.OmitTemperature = true
	}
	if cc != nil && cc.Format == llm.FormatJSON {
		req.ResponseSchema = semmapAnswerSchema
	}
	reply, err := s.model.Generate(ctx, req)
	if err != nil {
		return llm.Reply{}, fmt.Errorf("%s: %s: model %s: %w", s.agent, step, s.model.Name(), err)
	}
	return reply, nil
}

// PaperAttempts is how many times the workflows ask for a JSON answer
// (a plan, a refinement) before they give up on it: the
// agentic-workflows code asks again when a reply does not parse, up to 10
// times. Each attempt is a model call, counted in the record's calls and
// tokens.
const PaperAttempts = 10

// retryStride spaces the samples of the attempts at one answer: attempt
// a of sample k is sample k + a*retryStride, so that no two draws of an
// episode share a sample number (an ensemble's samples are 1 to 26).
const retryStride = 27

// askJSON sends a prompt that asks for a JSON answer and reads the reply,
// asking again, with the same prompt as a new sample, while the reply
// cannot be read, at most attempts times in all. tokens are every
// attempt's; perr is the last attempt's reason when none could be read
// (then ans is the zero answer); err a failed call.
func (s *semmapSession) askJSON(ctx context.Context, step, tmpl string, data semmapPrompt, cc *llm.CallContext, temperature *float64, sample, attempts int) (ans agents.AnswerArgs, tokens int, perr, err error) {
	attempts = max(attempts, 1)
	for a := range attempts {
		reply, err := s.generate(ctx, step, tmpl, data, cc, temperature, sample+a*retryStride)
		if err != nil {
			return agents.AnswerArgs{}, tokens, nil, err
		}
		tokens += reply.InputTokens + reply.OutputTokens
		if ans, perr = ParseSemmapReply(reply.Text); perr == nil {
			return ans, tokens, nil, nil
		}
	}
	if attempts > 1 {
		perr = fmt.Errorf("%w; %d attempts, none readable", perr, attempts)
	}
	return agents.AnswerArgs{}, tokens, perr, nil
}

// answer ends the episode with a. With parseErr, the reason the final
// reply could not be read, there is no answer to give: the episode ends
// without one, so the harness scores it a miss at every k whatever the
// truth (docs/metrics.md), and parseErr comes back for the record. Answering
// the empty list instead would count as a hit on every query whose truth
// is empty.
func (s *semmapSession) answer(ctx context.Context, a agents.AnswerArgs, parseErr error) error {
	if parseErr != nil {
		return fmt.Errorf("%s: no readable answer: %w", s.agent, parseErr)
	}
	if a.RelevantObjects == nil {
		a.RelevantObjects = []string{}
	}
	r, err := agents.Call(ctx, s.env, agents.ToolAnswer, a)
	if err != nil {
		return fmt.Errorf("%s: answer: %w", s.agent, err)
	}
	if r.Error != "" {
		return fmt.Errorf("%s: answer refused: %s", s.agent, r.Error)
	}
	return nil
}

// sameObjects reports whether two answers list the same objects in the
// same order: the stop condition of the reflection loops.
func sameObjects(a, b []string) bool { return slices.Equal(a, b) }

// mapInput is a map as the prompts show it in a mode: JSON, as paper
// 000's code gives it (scenes.SemanticMap.RenderJSON).
func mapInput(m *scenes.SemanticMap, mode string) string { return m.RenderJSON(mode) }
