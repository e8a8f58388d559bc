package household

import (
	"context"
	"fmt"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
)

func init() {
	agents.RegisterWorkflowOn([]string{agents.TrackHousehold}, "reflexion", "LLM workflow (household): Reflexion; ReAct trials of the same game, up to 10 (the Reflexion authors' count); a trial that fails or repeats a command is reflected on, and the last 3 reflections go into the next trial's prompt",
		func(cfg agents.Config) (agents.Agent, error) {
			return &reflexion{model: cfg.Model, trials: reflexionTrials}, nil
		})
}

// reflexion is Reflexion on the household track: it plays the game with
// react, and when a trial fails — the world ends it without the goal, or
// the model sends the same call twice in a row, or stops answering with a
// tool call — the model writes a reflection on the failed trajectory, and
// the game starts again with the last reflections in the prompt. A won
// trial ends the episode (see playTrials).
type reflexion struct {
	model  llm.Model
	trials int  // at most; the Env may allow fewer
	text   bool // the text shape (reflexion-text)

	reflections []agents.ReflectionRecord
}

// Reflections are the reflections the last Run wrote, in order.
func (a *reflexion) Reflections() []agents.ReflectionRecord { return a.reflections }

func (a *reflexion) Run(ctx context.Context, env agents.Env) error {
	a.reflections = nil
	name, p := "reflexion", newReactPlayer(a.model, env)
	if a.text {
		name, p = "reflexion-text", newTextPlayer(a.model, env)
	}
	if err := householdOnly(name, env); err != nil {
		return err
	}
	return playTrials(ctx, name, env, p, a.trials, &a.reflections, a.memory,
		func(ctx context.Context, tr trialRecord) (*agents.ReflectionRecord, error) {
			r, err := a.reflect(ctx, env, tr)
			if err != nil {
				return nil, err
			}
			return &r, nil
		})
}

// memory is the reflections the next trial's prompt carries.
// An empty reflection has nothing to say and takes no place.
func (a *reflexion) memory() []agents.ReflectionRecord {
	var out []agents.ReflectionRecord
	for _, r := range a.reflections {
		if r.Text != "" {
			out = append(out, r)
		}
	}
	return out[max(0, len(out)-reflexionMemory):]
}

// reflectPrompt is the data of reflexion_reflect.tmpl.
type reflectPrompt struct {
	Instruction string
	Opening     string
	Steps       []stepView
	Reason      string
	Reflections []reflectionView
}

// reflect asks the model what went wrong in a failed trial. An empty
// reply is still a reflection that ran and cost its tokens; it is kept
// (with no text) so the harness counts it.
func (a *reflexion) reflect(ctx context.Context, env agents.Env, tr trialRecord) (agents.ReflectionRecord, error) {
	past := a.memory()
	cc := householdContext(env, llm.CallReflect, llm.FormatText, tr.Opening, tr.Trial, tr.Steps, past)
	text, err := render("reflexion_reflect.tmpl", reflectPrompt{Instruction: env.Instruction(), Opening: tr.Opening,
		Steps: views(tr.Steps), Reason: tr.reason(), Reflections: reflectionViews(past)})
	if err != nil {
		return agents.ReflectionRecord{}, err
	}
	reply, err := a.model.Generate(ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: text}}, Context: cc})
	if err != nil {
		return agents.ReflectionRecord{}, fmt.Errorf("model %s: reflection on trial %d: %w", a.model.Name(), tr.Trial, err)
	}
	return agents.ReflectionRecord{Trial: tr.Trial, Text: strings.TrimSpace(reply.Text), Tokens: reply.InputTokens + reply.OutputTokens}, nil
}
