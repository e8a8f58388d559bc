package household

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/housework"
	"github.com/ambibench/ambibench/agents/llm"
)

// DyRef's reflection toolkit (the DyRef paper): four analyses of a failed
// trial, each one model call with a prompt of its own, and a fifth call
// that combines the chosen analyses into the plan for the next trial. Which
// analyses run is the caller's choice: the dyref agent asks its router,
// reflect-all runs them all.

// lessonPool are the constraints of the household that the lesson tool
// chooses from: one for each way the track's trials usually fail.
var lessonPool = []string{
	"An object the task wants hot, cold or clean must be heated with the microwave, cooled with the fridge or cleaned in the sinkbasin before it is put at its destination.",
	"A command that changed nothing will change nothing when sent again; send another.",
	"When the task says \"that X\" and there are several, ask which one is meant before taking any.",
	"When the user has said which one is meant, take that one and no other; describe them first if the answer names a colour or an owner.",
	"When no X is anywhere, ask the user what to use instead rather than choosing a substitute.",
	"When the task does not say what to use, ask what is meant rather than guessing.",
	"Closed receptacles hide their contents: open every one before calling an object missing.",
	"A question must carry the tag of what is unclear: absence, multiplicity or underspecified.",
	"Look first where an object of that kind is usually kept, and do not revisit places already searched.",
}

// toolkit runs the reflection tools on failed trials.
type toolkit struct {
	model llm.Model
	cases map[string]agents.SolvedCase
}

func newToolkit(model llm.Model) (*toolkit, error) {
	cs, err := agents.SolvedCases()
	if err != nil {
		return nil, err
	}
	k := &toolkit{model: model, cases: map[string]agents.SolvedCase{}}
	for _, c := range cs {
		k.cases[c.Type] = c
	}
	return k, nil
}

// caseFor returns the solved game of the task's type, if one is at hand.
func (k *toolkit) caseFor(env agents.Env) (agents.SolvedCase, bool) {
	t, err := housework.ParseInstruction(env.Instruction())
	if err != nil {
		return agents.SolvedCase{}, false
	}
	c, ok := k.cases[t.Type]
	return c, ok
}

// toolPrompt is the data of the dyref_*.tmpl prompts.
type toolPrompt struct {
	Instruction, Opening, Reason, Tags string
	CaseTask                           string
	Case                               []agents.CaseStep
	Steps                              []stepView
	Lessons                            []string
	Outputs                            []toolOutput
}

type toolOutput struct{ Tool, Text string }

// reflect runs the analyses named in tools, in ReflectionTools order,
// then plan over their outputs; the plan is the reflection's text.
func (k *toolkit) reflect(ctx context.Context, env agents.Env, tr trialRecord, tools []string) (agents.ReflectionRecord, error) {
	rec := agents.ReflectionRecord{Trial: tr.Trial}
	var outputs []toolOutput
	_, haveCase := k.caseFor(env)
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
		outputs = append(outputs, toolOutput{Tool: name, Text: text})
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

// call runs one tool. Each prompt carries only what its tool reads: the
// solved case and the task for key_rules, the failed trial for the
// analyses, the room and the analyses for plan, which therefore does not
// pay for the trial twice.
func (k *toolkit) call(ctx context.Context, env agents.Env, tr trialRecord, tool string, outputs []toolOutput) (string, int, error) {
	data := toolPrompt{Instruction: env.Instruction(), Opening: tr.Opening, Tags: strings.Join(agents.AskTags, ", ")}
	var cc *llm.CallContext
	switch tool {
	case agents.ReflectKeyRules:
		cc = &llm.CallContext{Role: llm.CallReflect, Track: agents.TrackHousehold, Instruction: env.Instruction(), Format: llm.FormatText}
		if c, ok := k.caseFor(env); ok {
			data.CaseTask, data.Case = c.Task, c.Steps
			for _, s := range c.Steps {
				cc.Case = append(cc.Case, llm.HouseStep{Tool: agents.ToolAct, Command: s.Command, Result: s.Observation})
			}
		}
	case agents.ReflectPlan:
		cc = &llm.CallContext{Role: llm.CallReflect, Track: agents.TrackHousehold, Instruction: env.Instruction(), Opening: tr.Opening, Format: llm.FormatText}
		data.Outputs = outputs
		for _, o := range outputs {
			cc.Reflections = append(cc.Reflections, o.Text)
		}
	default:
		cc = householdContext(env, llm.CallReflect, llm.FormatText, tr.Opening, tr.Trial, tr.Steps, nil)
		data.Steps, data.Reason = views(tr.Steps), tr.reason()
		if tool == agents.ReflectLesson {
			data.Lessons = lessonPool
		}
	}
	cc.Tool = tool
	text, err := render("dyref_"+tool+".tmpl", data)
	if err != nil {
		return "", 0, err
	}
	reply, err := k.model.Generate(ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: text}}, Context: cc})
	if err != nil {
		return "", 0, fmt.Errorf("model %s: reflection tool %s on trial %d: %w", k.model.Name(), tool, tr.Trial, err)
	}
	return strings.TrimSpace(reply.Text), reply.InputTokens + reply.OutputTokens, nil
}
