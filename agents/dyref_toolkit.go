package agents

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents/housework"
	"github.com/ambibench/ambibench/agents/llm"
)

// DyRef's reflection toolkit (paper 002): four analyses of a failed trial,
// each one model call with a prompt of its own, and a fifth call that
// combines the chosen analyses into the plan for the next trial. Which
// analyses run is the caller's choice: the dyref agent asks its router,
// reflect-all runs them all.

// Reflection tool names, as ReflectionRecord.Tools and the records carry
// them.
const (
	ReflectKeyRules   = "key_rules"  // the rule of the task type, from a solved game of that type
	ReflectExperience = "experience" // what the failed trial found and did that the next can reuse
	ReflectLesson     = "lesson"     // the one constraint of the lesson pool the trial broke
	ReflectAmbiguity  = "ambiguity"  // whether the instruction left something open, and what to ask
	ReflectPlan       = "plan"       // the chosen analyses combined into the next trial's plan
)

// ReflectionTools are the four analyses in the order the toolkit runs
// them, which is dyref.AllTools' order (a test holds the names equal);
// plan comes after whichever ran.
var ReflectionTools = []string{ReflectKeyRules, ReflectExperience, ReflectLesson, ReflectAmbiguity}

// lessonPool are the constraints of the household that the lesson tool
// chooses from: one for each way the track's trials usually fail.
var lessonPool = []string{
	"An object the task wants hot, cold or clean must be heated with the microwave, cooled with the fridge or cleaned in the sinkbasin before it is put at its destination.",
	"A command that changed nothing will change nothing when sent again; send another.",
	"When the task says \"the X\" and there are several, ask which one is meant before taking any.",
	"When the user has said which one is meant, take that one and no other; examine them first if the answer names a colour or an owner.",
	"When no X is anywhere, ask the user what to use instead rather than choosing a substitute.",
	"When the task does not say what to use, ask what is meant rather than guessing.",
	"Closed receptacles hide their contents: open every one before calling an object missing.",
	"A question must carry the tag of what is unclear: absence, multiplicity or underspecified.",
	"Look first where an object of that kind is usually kept, and do not revisit places already searched.",
}

// SolvedCase is a solved game of one task type, shown to key_rules.
type SolvedCase struct {
	Type  string     `json:"type"`
	Task  string     `json:"task"`
	Steps []CaseStep `json:"steps"`
}

// CaseStep is one command of a solved case and what it gave.
type CaseStep struct {
	Command     string `json:"command"`
	Observation string `json:"observation"`
}

// solvedCasesJSON holds the first game of each task type of the
// training split, solved by the expert; bench's
// TestSolvedCasesAreTheTrainingSplits rewrites it with -update.
//
//go:embed dyref_cases.json
var solvedCasesJSON []byte

// SolvedCases returns the embedded solved cases, one per task type.
func SolvedCases() ([]SolvedCase, error) {
	var out []SolvedCase
	if err := json.Unmarshal(solvedCasesJSON, &out); err != nil {
		return nil, fmt.Errorf("agents/dyref_cases.json: %w", err)
	}
	return out, nil
}

// toolkit runs the reflection tools on failed trials.
type toolkit struct {
	model llm.Model
	cases map[string]SolvedCase
}

func newToolkit(model llm.Model) (*toolkit, error) {
	cs, err := SolvedCases()
	if err != nil {
		return nil, err
	}
	k := &toolkit{model: model, cases: map[string]SolvedCase{}}
	for _, c := range cs {
		k.cases[c.Type] = c
	}
	return k, nil
}

// caseFor returns the solved game of the task's type, if one is at hand.
func (k *toolkit) caseFor(env Env) (SolvedCase, bool) {
	t, err := housework.ParseInstruction(env.Instruction())
	if err != nil {
		return SolvedCase{}, false
	}
	c, ok := k.cases[t.Type]
	return c, ok
}

// toolPrompt is the data of the dyref_*.tmpl prompts.
type toolPrompt struct {
	Instruction, Opening, Reason, Tags string
	CaseTask                           string
	Case                               []CaseStep
	Steps                              []stepView
	Lessons                            []string
	Outputs                            []toolOutput
}

type toolOutput struct{ Tool, Text string }

// reflect runs the analyses named in tools, in ReflectionTools order,
// then plan over their outputs; the plan is the reflection's text.
func (k *toolkit) reflect(ctx context.Context, env Env, tr trialRecord, tools []string) (ReflectionRecord, error) {
	rec := ReflectionRecord{Trial: tr.Trial}
	var outputs []toolOutput
	_, haveCase := k.caseFor(env)
	for _, name := range ReflectionTools {
		if !slices.Contains(tools, name) || name == ReflectKeyRules && !haveCase {
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
	text, tokens, err := k.call(ctx, env, tr, ReflectPlan, outputs)
	if err != nil {
		return rec, err
	}
	rec.Tools = append(rec.Tools, ReflectPlan)
	rec.Tokens += tokens
	rec.Text = text
	return rec, nil
}

// call runs one tool. Each prompt carries only what its tool reads: the
// solved case and the task for key_rules, the failed trial for the
// analyses, the room and the analyses for plan, which therefore does not
// pay for the trial twice.
func (k *toolkit) call(ctx context.Context, env Env, tr trialRecord, tool string, outputs []toolOutput) (string, int, error) {
	data := toolPrompt{Instruction: env.Instruction(), Opening: tr.Opening, Tags: strings.Join(AskTags, ", ")}
	var cc *llm.CallContext
	switch tool {
	case ReflectKeyRules:
		cc = &llm.CallContext{Role: llm.CallReflect, Track: TrackHousehold, Instruction: env.Instruction(), Format: llm.FormatText}
		if c, ok := k.caseFor(env); ok {
			data.CaseTask, data.Case = c.Task, c.Steps
			for _, s := range c.Steps {
				cc.Case = append(cc.Case, llm.HouseStep{Tool: ToolAct, Command: s.Command, Result: s.Observation})
			}
		}
	case ReflectPlan:
		cc = &llm.CallContext{Role: llm.CallReflect, Track: TrackHousehold, Instruction: env.Instruction(), Opening: tr.Opening, Format: llm.FormatText}
		data.Outputs = outputs
		for _, o := range outputs {
			cc.Reflections = append(cc.Reflections, o.Text)
		}
	default:
		cc = householdContext(env, llm.CallReflect, llm.FormatText, tr.Opening, tr.Trial, tr.Steps, nil)
		data.Steps, data.Reason = views(tr.Steps), tr.reason()
		if tool == ReflectLesson {
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
