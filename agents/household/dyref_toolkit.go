package household

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/housework"
	"github.com/ambibench/ambibench/agents/llm"
)

// DyRef's reflection toolkit (the DyRef paper): analyses of a failed
// trial, each one model call with a prompt of its own, and a last call
// that combines the chosen analyses into the plan for the next trial.
// Each prompt gets the inputs the paper's appendix gives its tool, in the
// project's own words and examples:
//
//   - key_rules: the task type, two worked examples (a solved game of
//     another type and the rule it shows) and the solved games of the
//     game's own type;
//   - experience: the failed trial and two summaries of the type's solved
//     games, as examples of the summary's form;
//   - lesson: the failed trial, the mentor lesson pool, the task type
//     (the tip must be one that names it) and two worked lessons;
//   - plan: the failed trial, the chosen analyses and two example plans.
//
// ambiguity, this project's extension, reads the failed trial alone.
// Which analyses run is the caller's choice: the dyref agent asks its
// router, reflect-all runs the paper's three.

// lessonPool is the mentor lesson pool: the constraints of the household
// that trials usually break, each beginning with the task types it holds
// for, so that the lesson tool can keep to those of the game's type.
var lessonPool = []string{
	"pick_heat_then_place: the object must be heated with the microwave before it is put at its destination.",
	"pick_cool_then_place: the object must be cooled with the fridge before it is put at its destination.",
	"pick_clean_then_place: the object must be cleaned with the sinkbasin before it is put at its destination.",
	"look_at_obj_in_light: hold the object while you use the lamp; a lamp used empty-handed does not count.",
	"pick_two_obj_and_place: both objects must end at the destination, carried one at a time.",
	"any type: a command that changed nothing will change nothing when sent again; send another.",
	"any type: when the task says \"that X\" and there are several, ask which one is meant before taking any.",
	"any type: when the user has said which one is meant, take that one and no other; describe them first if the answer names a colour or an owner.",
	"any type: when no X is anywhere, ask the user what to use instead rather than choosing a substitute.",
	"any type: when the task does not say what to use, ask what is meant rather than guessing.",
	"any type: closed receptacles hide their contents; open every one before calling an object missing.",
	"any type: a question must carry the tag of what is unclear: absence, multiplicity or underspecified.",
	"any type: look first where an object of that kind is usually kept, and do not revisit places already searched.",
}

// toolkitExamples are the worked examples of the prompts
// (dyref_examples.json): the rule each task type follows, stated as
// key_rules should state it; two worked lessons; two example plans.
type toolkitExamples struct {
	Rules   map[string]string `json:"rules"`
	Lessons []lessonExample   `json:"lessons"`
	Plans   []planExample     `json:"plans"`
}

//go:embed dyref_examples.json
var toolkitExamplesJSON []byte

// ruleExampleTypes are the types whose solved games key_rules shows as
// worked examples, the first two that are not the game's own: the
// paper's pair (clean, cool), and heat in place of either, so that no
// example gives the answer for the game's type away.
var ruleExampleTypes = []string{"pick_clean_then_place", "pick_cool_then_place", "pick_heat_then_place"}

// toolkit runs the reflection tools on failed trials.
type toolkit struct {
	model    llm.Model
	cases    map[string][]SolvedCase // by type, in the split's order
	examples toolkitExamples
}

func newToolkit(model llm.Model) (*toolkit, error) {
	k, err := sharedToolkit()
	if err != nil {
		return nil, err
	}
	c := *k
	c.model = model
	return &c, nil
}

// sharedToolkit is a toolkit's solved cases and examples, read from their
// files once: each episode of a toolkit agent makes a toolkit, and reading
// them was a twentieth of a household run's CPU. Nothing changes them
// (casesAsRead copies a case before it cuts the arrivals), so every
// toolkit shares them.
var sharedToolkit = sync.OnceValues(func() (*toolkit, error) {
	cs, err := SolvedCases()
	if err != nil {
		return nil, err
	}
	k := &toolkit{cases: map[string][]SolvedCase{}}
	for _, c := range cs {
		k.cases[c.Type] = append(k.cases[c.Type], c)
	}
	if err := json.Unmarshal(toolkitExamplesJSON, &k.examples); err != nil {
		return nil, fmt.Errorf("dyref_examples.json: %w", err)
	}
	return k, nil
})

// casesAsRead returns the solved cases of a task type as the workflow
// shows them: with each arrival's "You arrive at loc N. " cut, as the
// live observations are, unless the Env keeps the arrivals whole. A case
// recorded in one text and a trial read in another would teach the model
// a sentence it never sees.
func (k *toolkit) casesAsRead(env agents.Env, ty string) []SolvedCase {
	cs := k.cases[ty]
	if keepsArrival(env) {
		return cs
	}
	out := make([]SolvedCase, len(cs))
	for i, c := range cs {
		c.Steps = slices.Clone(c.Steps)
		for j := range c.Steps {
			c.Steps[j].Observation = stripArrival(c.Steps[j].Observation)
		}
		out[i] = c
	}
	return out
}

// typeOf is the task type of the game, "" when the instruction does not
// parse.
func typeOf(env agents.Env) string {
	t, err := housework.ParseInstruction(env.Instruction())
	if err != nil {
		return ""
	}
	return t.Type
}

// toolPrompt is the data of the dyref_*.tmpl prompts.
type toolPrompt struct {
	Instruction, Opening, Reason, Tags string
	Type                               string
	Steps                              []stepView
	// RuleExamples are key_rules' worked examples, Cases the solved
	// games of the game's type.
	RuleExamples []ruleExample
	Cases        []SolvedCase
	// Summaries are experience's examples.
	Summaries []caseSummary
	// Pool is the mentor lesson pool, LessonExamples lesson's examples.
	Pool           []string
	LessonExamples []lessonExample
	PlanExamples   []planExample
	Outputs        []toolOutput
}

type lessonExample struct{ Type, Attempt, Lesson string }

type planExample struct{ Task, Plan string }

type ruleExample struct {
	Type string
	Case SolvedCase
	Rule string
}

type caseSummary struct{ Task, Actions string }

type toolOutput struct{ Tool, Label, Text string }

// outputLabels are the headings under which plan reads each analysis.
var outputLabels = map[string]string{
	agents.ReflectKeyRules:   "Key rule",
	agents.ReflectExperience: "Valuable experience",
	agents.ReflectLesson:     "Failure lesson",
	agents.ReflectAmbiguity:  "What the task left open",
}

// reflect runs the analyses named in tools, in ReflectionTools order,
// then plan over their outputs; the plan is the reflection's text.
func (k *toolkit) reflect(ctx context.Context, env agents.Env, tr trialRecord, tools []string) (agents.ReflectionRecord, error) {
	// Each tool reads the failed trial as the player saw it: the cases
	// of key_rules are cut the same way (casesAsRead).
	tr = asSeen(env, tr)
	rec := agents.ReflectionRecord{Trial: tr.Trial}
	var outputs []toolOutput
	haveCase := len(k.cases[typeOf(env)]) > 0
	for _, name := range agents.ReflectionTools {
		if !slices.Contains(tools, name) || name == agents.ReflectKeyRules && !haveCase {
			// Without a solved game of the type there is no rule to read.
			continue
		}
		text, tokens, err := k.call(ctx, env, tr, name, nil)
		if err != nil {
			return rec, err
		}
		rec.Tools = append(rec.Tools, name)
		rec.Tokens += tokens
		outputs = append(outputs, toolOutput{Tool: name, Label: outputLabels[name], Text: text})
	}
	text, tokens, err := k.call(ctx, env, tr, agents.ReflectPlan, outputs)
	if err != nil {
		return rec, err
	}
	rec.Tools = append(rec.Tools, agents.ReflectPlan)
	rec.Tokens += tokens
	rec.Text = text
	return rec, nil
}

// prompt is what a tool's prompt holds, and the context that mirrors it.
// key_rules reads solved games and not the trial, which it does not
// analyse; every other tool reads the failed trial.
func (k *toolkit) prompt(env agents.Env, tr trialRecord, tool string, outputs []toolOutput) (toolPrompt, *llm.CallContext) {
	ty := typeOf(env)
	data := toolPrompt{Instruction: env.Instruction(), Opening: tr.Opening, Tags: strings.Join(agents.AskTags, ", "), Type: ty}
	if tool == agents.ReflectKeyRules {
		cc := &llm.CallContext{Role: llm.CallReflect, Track: agents.TrackHousehold, Instruction: env.Instruction(), Format: llm.FormatText, Tool: tool}
		for _, t := range ruleExampleTypes {
			if cs := k.casesAsRead(env, t); t != ty && len(cs) > 0 && len(data.RuleExamples) < 2 {
				data.RuleExamples = append(data.RuleExamples, ruleExample{Type: t, Case: cs[0], Rule: k.examples.Rules[t]})
			}
		}
		data.Cases = k.casesAsRead(env, ty)
		for _, c := range data.Cases {
			for _, s := range c.Steps {
				cc.Case = append(cc.Case, llm.HouseStep{Tool: agents.ToolAct, Command: s.Command, Result: s.Observation})
			}
		}
		return data, cc
	}
	cc := householdContext(env, llm.CallReflect, llm.FormatText, tr.Opening, tr.Trial, tr.Steps, nil)
	cc.Tool = tool
	data.Steps, data.Reason = views(tr.Steps), tr.reason()
	switch tool {
	case agents.ReflectExperience:
		for _, c := range k.cases[ty] {
			data.Summaries = append(data.Summaries, summarise(c))
		}
	case agents.ReflectLesson:
		data.Pool, data.LessonExamples = lessonPool, k.examples.Lessons
	case agents.ReflectPlan:
		data.PlanExamples, data.Outputs = k.examples.Plans, outputs
		for _, o := range outputs {
			cc.Reflections = append(cc.Reflections, o.Text)
		}
	}
	return data, cc
}

// call runs one tool.
func (k *toolkit) call(ctx context.Context, env agents.Env, tr trialRecord, tool string, outputs []toolOutput) (string, int, error) {
	data, cc := k.prompt(env, tr, tool, outputs)
	text, err := renderIn(ctx, "dyref_"+tool+".tmpl", data)
	if err != nil {
		return "", 0, err
	}
	reply, err := k.model.Generate(ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: text}}, Context: cc})
	if err != nil {
		return "", 0, fmt.Errorf("model %s: reflection tool %s on trial %d: %w", k.model.Name(), tool, tr.Trial, err)
	}
	return strings.TrimSpace(reply.Text), reply.InputTokens + reply.OutputTokens, nil
}

// summarise is a solved game as experience summarises a trial: its
// commands in order, the place where the task's object came into sight
// marked. It is derived from the game rather than written, so it is in
// the world's own text and stays true when the cases are rewritten.
func summarise(c SolvedCase) caseSummary {
	kind := ""
	if t, err := housework.ParseInstruction(c.Task); err == nil {
		kind = t.Kind
	}
	var acts []string
	seen := false
	for _, s := range c.Steps {
		a := s.Command
		if !seen && kind != "" && strings.Contains(s.Observation, " "+kind+" ") {
			a += fmt.Sprintf(" (a %s was there)", kind)
			seen = true
		}
		acts = append(acts, a)
	}
	return caseSummary{Task: c.Task, Actions: strings.Join(acts, ", ") + "."}
}
