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
// trial ends the episode (see playTrials). A repeat always ends its
// trial here (--play-on-repeat is react's alone): the authors' loop ends
// it so, and a trial that can only repeat itself is one to reflect on.
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

// memory is the reflections the next trial's prompt carries, the last
// three. An empty reflection has nothing to say and takes no place,
// except in the text shape, whose memory is the authors' list of every
// reflection written (generate_reflections.py, update_memory).
func (a *reflexion) memory() []agents.ReflectionRecord {
	var out []agents.ReflectionRecord
	for _, r := range a.reflections {
		if r.Text != "" || a.text {
			out = append(out, r)
		}
	}
	return out[max(0, len(out)-reflexionMemory):]
}

// reflectPrompt is the data of reflexion_reflect.tmpl.
type reflectPrompt struct {
	Instruction string
	// Worked are the two worked attempts with their notes
	// (reflexion_worked).
	Worked string
	// Opening and Steps are the failed attempt as its player saw it,
	// Status the line after it (trialRecord.status).
	Opening     string
	Steps       []stepView
	Status      string
	Reflections []reflectionView
	// Text is the text shape: the openings as textOpening writes them,
	// the notes numbered by their place.
	Text bool
}

// newReflectPrompt is the reflection prompt's data for a failed trial
// and the notes before it; text is the text shape. The worked attempts
// are the run's (ctx) reflexion_worked.
func newReflectPrompt(ctx context.Context, env agents.Env, tr trialRecord, past []agents.ReflectionRecord, text bool) (reflectPrompt, error) {
	worked, err := renderIn(ctx, "reflexion_worked", nil)
	if err != nil {
		return reflectPrompt{}, err
	}
	tr = asSeen(env, tr)
	p := reflectPrompt{Instruction: env.Instruction(), Worked: worked, Opening: tr.Opening, Steps: views(tr.Steps), Status: tr.status(),
		Reflections: reflectionViews(past, text), Text: text}
	if text {
		p.Worked, p.Opening = textOpening(p.Worked), textOpening(p.Opening)
	}
	return p, nil
}

// reflect asks the model what went wrong in a failed trial. An empty
// reply is still a reflection that ran and cost its tokens; it is kept
// (with no text) so the harness counts it.
func (a *reflexion) reflect(ctx context.Context, env agents.Env, tr trialRecord) (agents.ReflectionRecord, error) {
	past := a.memory()
	shown := tr.Opening
	if a.text {
		shown = textOpening(shown) // as the text shape's prompt shows it
	}
	cc := householdContext(env, llm.CallReflect, llm.FormatText, shown, tr.Trial, tr.Steps, past)
	data, err := newReflectPrompt(ctx, env, tr, past, a.text)
	if err != nil {
		return agents.ReflectionRecord{}, err
	}
	text, err := renderIn(ctx, "reflexion_reflect.tmpl", data)
	if err != nil {
		return agents.ReflectionRecord{}, err
	}
	reply, err := a.model.Generate(ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: text}}, Context: cc})
	if err != nil {
		return agents.ReflectionRecord{}, fmt.Errorf("model %s: reflection on trial %d: %w", a.model.Name(), tr.Trial, err)
	}
	return agents.ReflectionRecord{Trial: tr.Trial, Text: strings.TrimSpace(reply.Text), Tokens: reply.InputTokens + reply.OutputTokens}, nil
}
