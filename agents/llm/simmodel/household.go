package simmodel

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/agents/housework"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// The household track. A household call's context has Track "household",
// the task sentence (Instruction), the game's first observation (Opening),
// and the trial so far; the model rebuilds what it knows, plans with
// housework.Decide (the rules agent's planner) and errs at its profile's
// rates.
//
// What the model reads of the trial, in this order:
//
//   - the context's Trajectory: each act (Command and the observation in
//     Result) and each ask (Command is the tag, Question, Result the
//     answer); admissible_commands steps are skipped;
//   - the conversation after the prompt, for a workflow that keeps one:
//     the assistant's act and ask tool calls with their tool results, or,
//     when the context's Format is "text", each assistant line "> command"
//     with the next user message as its observation ("> ask TAG:
//     QUESTION" for a question).
//
// How it replies to a planning call (Role "plan"):
//
//   - Format "tool_calls" (or unset): one tool call, act {"command": …}
//     or ask {"tag": …, "question": …}. When the planner is stuck it
//     thinks aloud: act {"command": "think: <why>"}, which the world
//     answers "OK." — so a stuck model repeats itself, and a repeat
//     detector ends its trial.
//   - Format "text": one line, "> go to fridge 1", or "> ask absence: I
//     found no apple. What should I use instead?".
//
// To a reflection call (Role "reflect", any format) it replies with text:
// one or two sentences naming what went wrong in the trial and what to do
// next time (housework.Diagnose), such as "I put the egg 1 in the fridge
// 1 without heating it first; next time I will heat the egg with the
// microwave before putting it in the fridge."
//
// Slips, each drawn once per episode for its subject (c.persists), so a
// model that makes one makes it again on the next trial:
//
//   - skip (rate skip): puts the object without heating, cooling or
//     cleaning it; subject: the verb and the kind;
//   - loop (rate loop): sends its previous command again instead of the
//     next one; subject: that command. It keeps doing so, since nothing
//     changes: the trial ends on a repeat or the step limit;
//   - multiplicity: takes one of several "the X" without asking which;
//   - hallucinate: after the user says which X, takes another one;
//   - absence: finds no X and, instead of asking, goes on with another
//     kind it has seen;
//   - vague: guesses what a vague task means instead of asking;
//   - tag: asks with a wrong tag, or tells the user the X is absent when
//     it turns to search closed receptacles.
//
// A slip can be unlearnt: when a reflection in the context names it (holds
// the words housework.Mistake.Keys gives for it), the model heeds it with
// probability heedReflection, drawn afresh each trial (the context's Trial,
// or failing that the reflections themselves, are in the key).
const heedReflection = 0.7

func init() { Teach("household", func(c *Call) llm.Reply { return c.c.household() }) }

// household answers a household call.
func (c *call) household() llm.Reply {
	switch c.cc.Role {
	case llm.CallPlan:
		return c.housePlan()
	case llm.CallReflect:
		if c.cc.Tool != "" {
			return c.houseToolkit()
		}
		return c.houseReflect()
	}
	return llm.Reply{Text: fmt.Sprintf("I do not handle household calls of role %q.", c.cc.Role), FinishReason: llm.FinishStop}
}

// houseState rebuilds the planner's state from the request.
func (c *call) houseState() housework.State {
	return c.houseStateIn(make([]housework.Turn, 0, len(c.cc.Trajectory)))
}

// houseStateIn is houseState with its turns written into turns[:0].
func (c *call) houseStateIn(turns []housework.Turn) housework.State {
	s := housework.State{Instruction: c.cc.Instruction, Opening: c.cc.Opening, Turns: turns[:0]}
	for _, st := range c.cc.Trajectory {
		switch st.Tool {
		case "act":
			s.Turns = append(s.Turns, housework.Turn{Command: st.Command, Observation: st.Result})
		case "ask":
			s.Turns = append(s.Turns, housework.Turn{Tag: st.Command, Question: st.Question, Answer: st.Result})
		}
	}
	return s
}

// conversationTurns reads the turns a kept conversation holds after its
// prompt.
func conversationTurns(req llm.Request, text bool) []housework.Turn {
	var out []housework.Turn
	if text {
		for i, m := range req.Messages {
			if m.Role != llm.RoleAssistant || i+1 >= len(req.Messages) || req.Messages[i+1].Role != llm.RoleUser {
				continue
			}
			cmd, ok := textCommand(m.Text)
			if !ok {
				continue
			}
			obs := req.Messages[i+1].Text
			if tag, q, isAsk := textAsk(cmd); isAsk {
				out = append(out, housework.Turn{Tag: tag, Question: q, Answer: obs})
			} else {
				out = append(out, housework.Turn{Command: cmd, Observation: obs})
			}
		}
		return out
	}
	results := map[string]string{}
	for _, m := range req.Messages {
		if m.Role == llm.RoleTool {
			results[m.ToolCallID] = m.Text
		}
	}
	for _, m := range req.Messages {
		for _, tc := range m.ToolCalls {
			res, ok := results[tc.ID]
			if !ok {
				continue
			}
			var a struct{ Command, Tag, Question string }
			if json.Unmarshal(tc.Args, &a) != nil {
				continue
			}
			switch tc.Name {
			case "act":
				out = append(out, housework.Turn{Command: a.Command, Observation: res})
			case "ask":
				out = append(out, housework.Turn{Tag: a.Tag, Question: a.Question, Answer: res})
			}
		}
	}
	return out
}

// textCommand finds the last line of a reply that starts with "> ".
func textCommand(reply string) (string, bool) {
	lines := strings.Split(reply, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if cmd, ok := strings.CutPrefix(strings.TrimSpace(lines[i]), "> "); ok && strings.TrimSpace(cmd) != "" {
			return strings.TrimSpace(cmd), true
		}
	}
	return "", false
}

// textAsk reads "ask TAG: QUESTION".
func textAsk(cmd string) (tag, question string, ok bool) {
	rest, ok := strings.CutPrefix(cmd, "ask ")
	if !ok {
		return "", "", false
	}
	tag, question, ok = strings.Cut(rest, ":")
	tag = strings.TrimSpace(tag)
	if !ok || !slices.Contains([]string{"absence", "multiplicity", "underspecified"}, tag) {
		return "", "", false
	}
	return tag, strings.TrimSpace(question), true
}

// slipped draws whether the model makes a slip of base rate r about a
// mistake's subject in this episode, and whether a reflection in the
// context talks it out of it this trial.
func (c *call) slipped(r float64, m housework.Mistake) bool {
	key := "household\x00" + m.Kind + "\x00" + m.Subject
	if !c.persists(r, key) {
		return false
	}
	if housework.Mentioned(c.cc.Reflections, m.Keys()) && c.uniform(key+"\x00heed\x00"+c.trialKey()) < heedReflection {
		return false
	}
	return true
}

// trialKey tells trials apart for the draws of heeding a reflection.
func (c *call) trialKey() string {
	if c.cc.Trial > 0 {
		return strconv.Itoa(c.cc.Trial)
	}
	return strconv.Itoa(len(c.cc.Reflections)) + "\x00" + strings.Join(c.cc.Reflections, "\x00")
}

// uniform is a number in [0, 1) fixed by the situation and a key (and the
// sample at temperature > 0), like the draws of persists but unscaled.
func (c *call) uniform(key string) float64 {
	h := c.draw(key)
	return float64(binary.LittleEndian.Uint64(h[:8])>>11) / (1 << 53)
}

// housePlan decides the next command or question, with the profile's
// slips.
func (c *call) housePlan() llm.Reply {
	text := c.cc.Format == llm.FormatText
	pooled := takeTurns()
	s := c.houseStateIn(*pooled)
	s.Turns = append(s.Turns, conversationTurns(c.req, text)...)
	defer func() {
		// The slice as it grew, emptied, so that the pool keeps none of
		// this call's strings alive.
		clear(s.Turns[:cap(s.Turns)])
		*pooled = s.Turns[:0]
		giveTurns(pooled)
	}()
	d := c.houseDecide(s)
	switch {
	case d.Kind == housework.Ask && text:
		return llm.Reply{Text: "> ask " + d.Tag + ": " + d.Question, FinishReason: llm.FinishStop}
	case d.Kind == housework.Ask:
		return c.calls(toolCall("ask", map[string]string{"tag": d.Tag, "question": d.Question}))
	}
	cmd := d.Command
	if d.Kind != housework.Act {
		cmd = "think: I am stuck: " + d.Why
	}
	if text {
		return llm.Reply{Text: "> " + cmd, FinishReason: llm.FinishStop}
	}
	return c.calls(toolCall("act", map[string]string{"command": cmd}))
}

// turnSlices keeps the turns planning calls rebuild from their contexts.
// A household trial's turns are rebuilt at every step, and made afresh
// they cost a call at step 45 several microseconds more than at step 5,
// in allocation and collection. housework keeps no State's slice past the
// call (its memo keeps what the turns taught, and copies of the turns
// themselves to check that a state is the one it kept), so the slice
// serves the next call once this one has replied. It is a free list
// rather than a sync.Pool, which drops what it holds at a collection or
// two: the calls after one then grew their slices afresh, a cost that
// fell on late steps the more often, the more a trial allocates between
// its calls. It holds a few slices a worker, each as long as a trial.
var turnSlices = make(chan *[]housework.Turn, 16)

// takeTurns is an empty slice of turns, from turnSlices when it has one.
func takeTurns() *[]housework.Turn {
	select {
	case p := <-turnSlices:
		return p
	default:
		return new([]housework.Turn)
	}
}

// giveTurns hands an emptied slice back to turnSlices, unless it is full.
func giveTurns(p *[]housework.Turn) {
	select {
	case turnSlices <- p:
	default:
	}
}

// houseDecide is the model's reasoning at a household planning call.
func (c *call) houseDecide(s housework.State) housework.Decision {
	d := housework.Decide(s)
	// A missed absence or vagueness is an answer the model gives itself
	// in place of the question; then it plans on. The guess is not in
	// the conversation, so it is made again, the same, at every call.
	for range 2 {
		if d.Kind != housework.Ask {
			break
		}
		guess := ""
		switch d.Tag {
		case "absence":
			if c.slipped(c.p.Absence, housework.Mistake{Kind: housework.MistakeAbsence, Subject: d.Task.Kind}) {
				if k, ok := c.lookalikeKind(s, d.Task); ok {
					guess = "Use " + k + " instead."
				}
			}
		case "underspecified":
			if c.slipped(c.p.Vague, housework.Mistake{Kind: housework.MistakeVague}) {
				if k, ok := c.guessKind(d.Task); ok {
					guess = "I mean " + k + "."
				}
			}
		}
		if guess == "" {
			break
		}
		s.Turns = append(s.Turns, housework.Turn{Tag: d.Tag, Question: d.Question, Answer: guess})
		d = housework.Decide(s)
	}
	// Slips about the task as the model now reads it.
	t := d.Task
	if t.State != "" && c.slipped(c.p.Skip, housework.Mistake{Kind: housework.MistakeSkip, Subject: t.Verb() + " " + t.Kind}) {
		s.Slips.SkipTreatment = true
	}
	if t.Definite && c.slipped(c.p.Multiplicity, housework.Mistake{Kind: housework.MistakeMultiplicity, Subject: t.Kind}) {
		s.Slips.IgnoreMultiplicity = true
	}
	if t.Definite && c.slipped(c.p.Hallucinate, housework.Mistake{Kind: housework.MistakeInstance, Subject: t.Kind}) {
		s.Slips.WrongInstance = true
	}
	if s.Slips != (housework.Slips{}) {
		d = housework.Decide(s)
	}
	switch {
	case d.Kind == housework.Ask:
		if c.slipped(c.p.Tag, housework.Mistake{Kind: housework.MistakeTag, Subject: d.Tag}) {
			d.Tag = c.otherTag(d.Tag)
		}
	case d.Kind == housework.Act && d.Step == housework.StepSearch && aboutToOpen(s, d) &&
		c.slipped(c.p.Tag, housework.Mistake{Kind: housework.MistakeHidden, Subject: d.Task.Kind}):
		d = housework.Decision{Kind: housework.Ask, Tag: "absence", Step: housework.StepAsk, Task: d.Task,
			Question: fmt.Sprintf("I cannot find a %s anywhere. What should I use instead?", d.Task.Kind)}
	case d.Kind == housework.Act:
		if prev, ok := lastCommand(s); ok && prev != d.Command && c.slipped(c.p.Loop, housework.Mistake{Kind: housework.MistakeLoop, Subject: prev}) {
			d.Command = prev
		}
	}
	return d
}

// lastCommand is the command of the trial's last turn, if it was one.
func lastCommand(s housework.State) (string, bool) {
	if n := len(s.Turns); n > 0 && !s.Turns[n-1].IsAsk() {
		return s.Turns[n-1].Command, true
	}
	return "", false
}

// aboutToOpen reports whether a search that has seen no object of the
// task's kind turns to a receptacle that opens: the moment a hasty model
// calls the object absent instead of looking inside.
func aboutToOpen(s housework.State, d housework.Decision) bool {
	b, _, err := housework.Replay(s)
	if err != nil || d.Task.Kind == "" {
		return false
	}
	for _, it := range b.Items {
		if it.Kind == d.Task.Kind {
			return false
		}
	}
	name, ok := strings.CutPrefix(d.Command, "go to ")
	if !ok {
		name, ok = strings.CutPrefix(d.Command, "open ")
	}
	r, known := b.Receptacle(name)
	if !ok || !known {
		return false
	}
	k, _ := scenes.KindOf(b.Receptacles[r].Kind)
	return b.Receptacles[r].Opens || k.Openable
}

// lookalikeKind is the kind a model that missed an absence takes instead:
// the first kind it has seen that could do for the task.
func (c *call) lookalikeKind(s housework.State, t housework.Task) (string, bool) {
	b, _, err := housework.Replay(s)
	if err != nil {
		return "", false
	}
	placed := map[string]bool{} // kinds with one at the destination already
	for _, it := range b.Items {
		if atDest(b, it, t) {
			placed[it.Kind] = true
		}
	}
	for _, it := range b.Items {
		if it.Kind != t.Kind && serves(it.Kind, t) && !placed[it.Kind] {
			return it.Kind, true
		}
	}
	return "", false
}

// atDest reports whether an item is already where the task puts things:
// no model would pick that one to carry there.
func atDest(b *housework.Belief, it housework.Item, t housework.Task) bool {
	return t.Dest != "" && it.In != housework.Nowhere && b.Receptacles[it.In].Kind == t.Dest
}

// guessKind is the kind a model that missed a vague task takes: one the
// knowledge table says could do, drawn once per episode.
func (c *call) guessKind(t housework.Task) (string, bool) {
	var kinds []string
	for _, k := range scenes.Kinds() {
		if serves(k.Name, t) {
			kinds = append(kinds, k.Name)
		}
	}
	if len(kinds) == 0 {
		return "", false
	}
	return kinds[int(c.uniform("household\x00guess")*float64(len(kinds)))], true
}

// serves reports whether an object kind could be what a task is about: it
// can be carried, treated as the task says, and kept at its destination.
func serves(kind string, t housework.Task) bool {
	k, ok := scenes.KindOf(kind)
	if !ok || !k.Pickupable {
		return false
	}
	switch t.State {
	case housework.StateHot:
		ok = k.Heatable
	case housework.StateCold:
		ok = k.Coolable
	case housework.StateClean:
		ok = k.Cleanable
	}
	return ok && (t.Dest == "" || k.Fits(t.Dest))
}

// otherTag is a wrong tag, drawn once per episode.
func (c *call) otherTag(tag string) string {
	var others []string
	for _, t := range []string{"absence", "multiplicity", "underspecified"} {
		if t != tag {
			others = append(others, t)
		}
	}
	return others[int(c.uniform("household\x00wrong tag\x00"+tag)*float64(len(others)))]
}

// houseReflect says what went wrong in the failed trial the context shows:
// the most telling mistake, and a second one if there was.
func (c *call) houseReflect() llm.Reply {
	s := c.houseState()
	s.Turns = append(s.Turns, conversationTurns(c.req, c.cc.Format == llm.FormatText)...)
	ms := rankedMistakes(s)
	var texts []string
	for _, m := range ms[:min(2, len(ms))] {
		texts = append(texts, m.Text)
	}
	return llm.Reply{Text: strings.Join(texts, " "), FinishReason: llm.FinishStop}
}

// mistakeRank puts the mistakes that decide a trial before their
// symptoms: a skipped step or a wrong object before the loop a stuck
// model ends in, and running out of steps last.
func mistakeRank(kind string) int {
	switch kind {
	case housework.MistakeLoop:
		return 1
	case housework.MistakeSteps:
		return 2
	}
	return 0
}
