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

// The ReAct player: one trial of a household game, one command per
// model call. react plays one trial with it; reflexion and the DyRef
// toolkit agents play several (playTrials).

const (
	// reactMaxCalls bounds the model calls of one trial. The world's step
	// limit (49) bounds the commands; listing the admissible commands and
	// asking cost no step, so a model that only did those would otherwise
	// never stop.
	reactMaxCalls = 100
	// reactRetries is how many replies without a tool call a trial
	// forgives before it ends.
	reactRetries = 1
)

// householdStep is one call of a trial and what came back.
type householdStep struct {
	Tool string // act, admissible_commands or ask
	// Command is act's command; for ask, the tag; for a call whose
	// arguments did not decode, the raw arguments.
	Command  string
	Question string // ask's question
	Result   string // the observation, the list, or the user's answer
	// Undecoded is set when the arguments did not decode and Command
	// holds them raw.
	Undecoded bool
	// TextForm writes an ask as the text shape's players write it,
	// "ask TAG: question".
	TextForm bool
}

// key is what the repeat detector compares: the call as the world would
// read it, so "Go to fridge 1." repeats "go to fridge 1".
func (s householdStep) key() string {
	k := s.Tool + "\x00" + housework.NormalCommand(s.Command)
	if s.Tool == agents.ToolAsk {
		k += "\x00" + housework.NormalCommand(s.Question)
	}
	return k
}

// trialEnd says why a trial stopped.
type trialEnd int

const (
	endWorld     trialEnd = iota // the world ended it: won, step limit, or a wrong question
	endRepeat                    // the same call twice in a row
	endMalformed                 // replies without a tool call
	endCalls                     // reactMaxCalls model calls
)

// trialRecord is a played trial.
type trialRecord struct {
	Trial   int
	Opening string
	Steps   []householdStep
	End     trialEnd
	// Last is the reply that ended a malformed trial.
	Last string
	text bool // played in the text shape
}

// err is the error a trial that the model broke off reports to the
// harness; agent names the workflow. A trial the world ended, or one
// stopped for repeating itself, is a failure but not an error.
func (t trialRecord) err(agent string) error {
	switch t.End {
	case endMalformed:
		what := "no tool call"
		if t.text {
			what = "no line"
		}
		return fmt.Errorf("%s: %d replies in a row had %s; last: %.200q", agent, reactRetries+1, what, t.Last)
	case endCalls:
		return fmt.Errorf("%s: the trial did not end after %d model calls", agent, reactMaxCalls)
	}
	return nil
}

// reason says, for the DyRef toolkit's prompts, why the trial stopped.
// It states what happened, not what to make of it.
func (t trialRecord) reason() string {
	switch t.End {
	case endRepeat:
		return fmt.Sprintf("you sent the same call twice in a row (%s), so the attempt was stopped.", t.Steps[len(t.Steps)-1].call())
	case endMalformed:
		if t.text {
			return "your replies held no command, so the attempt was stopped."
		}
		return "your replies had no tool call, so the attempt was stopped."
	case endCalls:
		return fmt.Sprintf("you made %d calls without completing the task.", reactMaxCalls)
	}
	return "the game ended the attempt before the task was complete."
}

// status is the reflection prompt's line after the failed attempt. As in
// the Reflexion authors' trial log, it says that the attempt failed and
// no more when the attempt's text shows how it ended (the goal not
// reached by the step limit, a question refused, the same call twice in
// a row); it names the cause only when the text cannot show it: replies
// with no command, or the call bound.
func (t trialRecord) status() string {
	switch t.End {
	case endMalformed, endCalls:
		return "The attempt failed: " + t.reason()
	}
	return "The attempt failed."
}

// reactPlayer plays trials of a household game with a model.
type reactPlayer struct {
	model  llm.Model
	env    agents.Env
	tools  []llm.ToolDecl
	system string
	// tails are the prompt's last lines, after a reply with a tool call
	// and after one without; they never change.
	tails [2]string
	// keepArrival passes the world's "You arrive at loc N. " through;
	// by default it is cut (arrival.go).
	keepArrival bool
	// text is the authors' plain-completion shape (textshape.go): no
	// tools, one user message that ends in "> ", a reply's first line is
	// the action.
	text bool
	// hints adds ambibench's rules of the house to the prompt (--hints;
	// options.go).
	hints bool
}

func newReactPlayer(model llm.Model, env agents.Env) *reactPlayer {
	return &reactPlayer{model: model, env: env, tools: agents.ToolDecls(env, agents.ToolAct, agents.ToolAdmissible, agents.ToolAsk),
		keepArrival: keepsArrival(env), hints: hints(env)}
}

// newTextPlayer is the player in the text shape.
func newTextPlayer(model llm.Model, env agents.Env) *reactPlayer {
	return &reactPlayer{model: model, env: env, keepArrival: keepsArrival(env), text: true, hints: hints(env)}
}

// reactPrompt is the data of the react templates.
type reactPrompt struct {
	Instruction string
	Opening     string
	Steps       []stepView
	Reflections []reflectionView
	Tags        string
	// Examples are the worked games of the game's task type (examples.go).
	Examples string
	// Retry is set when the previous reply had no tool call.
	Retry bool
	// Text is the text shape's prompt (textshape.go).
	Text bool
	// Hints adds the rules of the house (react_system.tmpl's
	// house_rules; --hints).
	Hints bool
	// Trial is the attempt's number, which the tool shape's prompt
	// states when it shows reflections on earlier attempts.
	Trial int
}

// stepView is a step as the prompt writes it: "> go to fridge 1" and the
// observation on the next line.
type stepView struct{ Call, Result string }

type reflectionView struct {
	Trial int
	Text  string
}

// call writes a step's call the way the trajectory shows it.
func (s householdStep) call() string {
	if s.Undecoded {
		return "(" + s.Tool + " " + s.Command + ")"
	}
	switch s.Tool {
	case agents.ToolAct:
		return s.Command
	case agents.ToolAsk:
		if s.TextForm {
			return fmt.Sprintf("ask %s: %s", s.Command, s.Question)
		}
		return fmt.Sprintf("(ask, %s) %s", s.Command, s.Question)
	case agents.ToolAdmissible:
		return "(admissible_commands)"
	}
	if s.Command == "" {
		return "(" + s.Tool + ")"
	}
	return "(" + s.Tool + " " + s.Command + ")"
}

// views writes the trajectory for a prompt. Only the latest list of
// admissible commands is shown in full: an earlier one is stale, and
// fifty of them would swamp the prompt.
func views(steps []householdStep) []stepView {
	out := make([]stepView, len(steps))
	lastList := -1
	for i, s := range steps {
		if s.Tool == agents.ToolAdmissible {
			lastList = i
		}
	}
	for i, s := range steps {
		out[i] = view(s, i == lastList)
	}
	return out
}

// view writes one step for a prompt; latest says, of a list of the
// admissible commands, that no later list follows it.
func view(s householdStep, latest bool) stepView {
	r := s.Result
	switch {
	case s.Tool == agents.ToolAdmissible && !latest:
		r = fmt.Sprintf("[%d commands, listed then; the list has changed since]", strings.Count(r, "\n")+1)
	case s.Tool == agents.ToolAdmissible:
		r = "Admissible now:\n" + r
	case s.Tool == agents.ToolAsk:
		r = "User: " + r
	}
	return stepView{Call: s.call(), Result: r}
}

// reflectionViews writes the notes a prompt shows, each under the trial
// it was written after; in the text shape (text) under its place among
// the notes shown, from 0, as the Reflexion authors' prompts number their
// memory (env_history.py and generate_reflections.py).
func reflectionViews(rs []agents.ReflectionRecord, text bool) []reflectionView {
	var out []reflectionView
	for i, r := range rs {
		n := r.Trial
		if text {
			n = i
		}
		out = append(out, reflectionView{Trial: n, Text: strings.TrimSpace(r.Text)})
	}
	return out
}

// householdContext is the context of a household call: the task, the
// trial's acts and asks, and the reflections the prompt holds; for a
// planning call with reflections, whose prompt then says which attempt
// it is, the trial's number too. Listings of the admissible commands are left out: the
// prompt shows only the latest in full, and the simulated model reads
// none of them.
func householdContext(env agents.Env, role, format, opening string, trial int, steps []householdStep, reflections []agents.ReflectionRecord) *llm.CallContext {
	var house []llm.HouseStep
	for _, s := range steps {
		if s.Tool != agents.ToolAdmissible {
			house = append(house, llm.HouseStep{Tool: s.Tool, Command: s.Command, Question: s.Question, Result: s.Result})
		}
	}
	var notes []string
	for _, r := range reflections {
		notes = append(notes, strings.TrimSpace(r.Text))
	}
	return houseCallContext(env, role, format, opening, trial, house, notes)
}

// houseCallContext is householdContext over a trajectory and notes
// already restated, as a transcript keeps them.
func houseCallContext(env agents.Env, role, format, opening string, trial int, house []llm.HouseStep, reflections []string) *llm.CallContext {
	b := &llm.CallContext{Role: role, Track: agents.TrackHousehold, Instruction: env.Instruction(), Format: format}
	b.Opening = opening
	// The tool shape's prompt says which attempt this is; the text shape's,
	// as the reference's, only shows the notes of the attempts before it.
	if role == llm.CallPlan && len(reflections) > 0 && format != llm.FormatText {
		b.Trial = trial
	}
	b.Trajectory, b.Reflections = house, reflections
	return b
}

// play runs trial number trial from opening until the world ends it, the model
// fails to answer, or (with stopOnRepeat) the same call comes twice in a
// row. reflections are the notes shown to the model. The error return is
// for a broken model or harness; a trial that stopped for the model's
// fault is a trialRecord with End set.
func (p *reactPlayer) play(ctx context.Context, opening string, trial int, reflections []agents.ReflectionRecord, stopOnRepeat bool) (trialRecord, error) {
	tr := trialRecord{Opening: opening, Trial: trial, text: p.text}
	if p.system == "" {
		s, err := p.instructions(ctx)
		if err != nil {
			return tr, err
		}
		p.system = s
	}
	// The tool shape sends the instructions as the system text; the text
	// shape, as the authors' one completion prompt, in front of the rest.
	system, preamble := p.system, ""
	if p.text {
		system, preamble = "", p.system
	}
	t, err := newTranscript(ctx, preamble, opening, trial, reflections, p.text)
	if err != nil {
		return tr, err
	}
	malformed := 0
	for range reactMaxCalls {
		// The context's slices are the transcript's, cut to what it holds
		// now: a later step is appended past their end.
		// The context holds the opening as the prompt shows it: the text
		// shape writes the room and the task on consecutive lines.
		format, shown := llm.FormatToolCalls, opening
		if p.text {
			format, shown = llm.FormatText, textOpening(opening)
		}
		cc := houseCallContext(p.env, llm.CallPlan, format, shown, trial, slices.Clip(t.house), slices.Clip(t.reflections))
		tail, err := p.tail(ctx, malformed > 0)
		if err != nil {
			return tr, err
		}
		user := t.prompt(tail)
		reply, err := p.model.Generate(ctx, llm.Request{System: system, Messages: []llm.Message{{Role: llm.RoleUser, Text: user}}, Tools: p.tools, Context: cc})
		if err != nil {
			return tr, fmt.Errorf("model %s: %w", p.model.Name(), err)
		}
		calls := reply.ToolCalls
		if p.text {
			// Tools were not offered: the text is the action.
			calls = nil
			if tc, ok := textAction(reply.Text); ok {
				calls = []llm.ToolCall{tc}
			}
		}
		if len(calls) == 0 {
			malformed++
			if malformed > reactRetries {
				tr.End, tr.Last = endMalformed, reply.Text
				return tr, nil
			}
			continue
		}
		malformed = 0
		// One command per call: the prompt asks for one, and a second one
		// would be planned before the first one's observation.
		tc := calls[0]
		r, err := p.env.Call(ctx, agents.ToolCall{Name: tc.Name, Args: tc.Args})
		if err != nil {
			return tr, err
		}
		if tc.Name == agents.ToolAct && !p.keepArrival {
			r.Text = stripArrival(r.Text)
		}
		s := stepOf(tc, r)
		s.TextForm = p.text
		tr.Steps = append(tr.Steps, s)
		if r.Ended {
			tr.End = endWorld
			return tr, nil
		}
		if stopOnRepeat && repeated(tr.Steps) {
			tr.End = endRepeat
			return tr, nil
		}
		if err := t.add(tr.Steps[len(tr.Steps)-1]); err != nil {
			return tr, err
		}
	}
	tr.End = endCalls
	return tr, nil
}

// instructions is the text in front of every prompt of the player: the
// instruction, ask, the rules of the house with --hints, and the two
// worked games of the game's task type.
func (p *reactPlayer) instructions(ctx context.Context) (string, error) {
	name, examples := "react_system.tmpl", examplesFor
	if p.text {
		name, examples = "react_text_system.tmpl", textExamplesFor
	}
	ex, err := examples(taskTypeOf(p.env))
	if err != nil {
		return "", err
	}
	return renderIn(ctx, name, reactPrompt{Tags: strings.Join(agents.AskTags, ", "), Examples: ex, Hints: p.hints, Text: p.text})
}

// tail is the end of a prompt: retry says the previous reply had no
// tool call.
func (p *reactPlayer) tail(ctx context.Context, retry bool) (string, error) {
	i := 0
	if retry {
		i = 1
	}
	if p.tails[i] == "" {
		s, err := renderIn(ctx, "react_user_tail", reactPrompt{Retry: retry, Text: p.text})
		if err != nil {
			return "", err
		}
		p.tails[i] = s
	}
	return p.tails[i], nil
}

// stepOf records a call and its result. A refused call keeps its raw
// arguments, so that the model sees what it sent.
func stepOf(tc llm.ToolCall, r agents.Result) householdStep {
	s := householdStep{Tool: tc.Name, Result: r.Text}
	args, err := agents.DecodeArgs(agents.ToolCall{Name: tc.Name, Args: tc.Args})
	switch a := args.(type) {
	case *agents.ActArgs:
		s.Command = a.Command
	case *agents.AskArgs:
		s.Command, s.Question = a.Tag, a.Question
	case *agents.NoArgs:
	default:
		if err != nil {
			s.Command, s.Undecoded = strings.TrimSpace(string(tc.Args)), true
		}
	}
	if s.Result == "" && r.Error != "" {
		s.Result = "error: " + r.Error
	}
	return s
}
