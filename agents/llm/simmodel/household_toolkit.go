package simmodel

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents/housework"
	"github.com/ambibench/ambibench/agents/llm"
)

// DyRef's reflection toolkit. A reflect call whose context names a Tool is
// one step of a toolkit reflection, and the model answers what that tool
// asks, from what the context holds:
//
//   - key_rules reads the solved game in the context's Case and states the
//     rule of the task type: where to look (opening closed receptacles if
//     the case did), which appliance treats the object before it is put
//     down, the lamp to use. Without a case it has nothing to extract.
//     It names skipped treatments and hasty absences.
//   - experience sums up the failed trial: what it found and where, what
//     it did that worked, what the user answered, and the commands it
//     sent again for nothing. It names loops and the instance the user
//     meant.
//   - lesson picks the one mistake that explains the failure best (the
//     first of housework.Diagnose, causes before symptoms) and states it
//     as a lesson. It names that mistake, whatever its kind.
//   - ambiguity says whether the failure came from the instruction or
//     the room (several objects, none, a vague task, a wrong tag, an
//     answer not followed) and what to ask; otherwise that the task was
//     clear. It names every such mistake it finds.
//   - plan combines the other tools' outputs (the context's Reflections)
//     into the plan for the next attempt, keeping what each names.
//
// What a tool names, the next trial's planning calls may heed (see
// heedReflection): the toolkit fixes a slip only when a chosen tool names
// it, which is what DyRef's router must learn to choose.
func (c *call) houseToolkit() llm.Reply {
	s := c.houseState()
	var text string
	switch c.cc.Tool {
	case "key_rules":
		text = keyRules(s.Instruction, c.cc.Case)
	case "experience":
		text = experience(s)
	case "lesson":
		text = lesson(s)
	case "ambiguity":
		text = ambiguity(s)
	case "plan":
		text = combinePlan(c.cc.Reflections)
	default:
		text = fmt.Sprintf("I do not know the reflection tool %q.", c.cc.Tool)
	}
	return llm.Reply{Text: text, FinishReason: llm.FinishStop}
}

var treatCommand = regexp.MustCompile(`^(heat|cool|clean) (.+) with (.+)$`)

// keyRules states the rule a solved case of the task's type shows.
func keyRules(instruction string, solved []llm.HouseStep) string {
	if len(solved) == 0 {
		return "No solved case was given, so I have no rule to extract."
	}
	t, err := housework.ParseInstruction(instruction)
	if err != nil {
		return "I cannot read the task, so I cannot say which rule applies."
	}
	var verb, appliance, lamp string
	opened := false
	for _, st := range solved {
		cmd := strings.ToLower(strings.TrimSpace(st.Command))
		switch {
		case treatCommand.MatchString(cmd):
			m := treatCommand.FindStringSubmatch(cmd)
			verb, appliance = m[1], housework.KindOfName(m[3])
		case strings.HasPrefix(cmd, "open "):
			opened = true
		case strings.HasPrefix(cmd, "use "):
			lamp = housework.KindOfName(strings.TrimPrefix(cmd, "use "))
		}
	}
	what := t.Kind
	if what == "" {
		what = "object"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Rule for this kind of task: look for the %s where it is usually kept", what)
	if opened {
		b.WriteString(", and open closed receptacles, since it may be inside")
	}
	fmt.Fprintf(&b, "; take it")
	if verb != "" {
		fmt.Fprintf(&b, "; go to the %s and %s the %s with the %s before you put it anywhere", appliance, verb, what, appliance)
	}
	if lamp != "" {
		fmt.Fprintf(&b, "; go to the %s and use it while you hold the %s", lamp, what)
	}
	if t.Dest != "" {
		fmt.Fprintf(&b, "; then put it in/on the %s", t.Dest)
	}
	if t.Count > 1 {
		fmt.Fprintf(&b, "; do it for %d of them", t.Count)
	}
	b.WriteString(".")
	return b.String()
}

// experience sums up what a failed trial found and did.
func experience(s housework.State) string {
	b, t, err := housework.Replay(s)
	if err != nil {
		return "I cannot read the attempt, so I have no experience to sum up."
	}
	var notes []string
	for _, it := range b.Items {
		if it.Kind == t.Kind && it.In >= 0 && it.In < len(b.Receptacles) {
			notes = append(notes, fmt.Sprintf("the %s was in/on the %s", it.Name, b.Receptacles[it.In].Name))
		}
	}
	var done []string
	prev := ""
	var repeats []string
	// What worked is what changed the world, as the belief reads the
	// observations (in either feedback).
	replay := housework.NewBelief(s.Opening)
	for _, tu := range s.Turns {
		if tu.IsAsk() {
			note := fmt.Sprintf("asked (%s) and the user answered %q", tu.Tag, tu.Answer)
			if tu.Tag == "multiplicity" && t.Kind != "" {
				note += fmt.Sprintf(", which says the %s the user meant", t.Kind)
			}
			notes = append(notes, note)
			prev = ""
			continue
		}
		cmd := strings.TrimSpace(tu.Command)
		if cmd == prev && !slices.Contains(repeats, cmd) {
			repeats = append(repeats, cmd)
		}
		prev = cmd
		verb, _, _ := strings.Cut(cmd, " ")
		if replay.Observe(cmd, tu.Observation).Changed &&
			slices.Contains([]string{"take", "put", "move", "heat", "cool", "clean", "use", "open"}, verb) {
			done = append(done, cmd)
		}
	}
	var out strings.Builder
	out.WriteString("Useful from the last attempt:")
	if len(notes) == 0 && len(done) == 0 {
		out.WriteString(" nothing; it found no object of the task.")
	}
	if len(notes) > 0 {
		out.WriteString(" " + strings.Join(notes, "; ") + ".")
	}
	if len(done) > 0 {
		out.WriteString(" Commands that worked: " + strings.Join(done, ", ") + ".")
	}
	for _, r := range repeats {
		fmt.Fprintf(&out, " Sending %q again changed nothing; do not repeat it.", r)
	}
	return out.String()
}

// lesson is the one mistake that explains the failure best.
func lesson(s housework.State) string {
	ms := rankedMistakes(s)
	if len(ms) == 0 {
		return "No lesson of the pool fits this failure."
	}
	return "Lesson: " + ms[0].Text
}

// ambiguityKinds are the mistakes about what the instruction or the room
// left open and the questions that settle it.
var ambiguityKinds = []string{housework.MistakeMultiplicity, housework.MistakeAbsence, housework.MistakeVague,
	housework.MistakeTag, housework.MistakeHidden, housework.MistakeInstance}

// ambiguity says whether the failure came from an ambiguous instruction.
func ambiguity(s housework.State) string {
	var texts []string
	for _, m := range rankedMistakes(s) {
		if slices.Contains(ambiguityKinds, m.Kind) {
			texts = append(texts, m.Text)
		}
	}
	if len(texts) == 0 {
		return "The task was clear and the room held what it needs; the failure did not come from ambiguity, and no question is needed."
	}
	return "The failure came from what the task left open: " + strings.Join(texts, " ")
}

// rankedMistakes diagnoses a trial, causes before symptoms.
func rankedMistakes(s housework.State) []housework.Mistake {
	ms := housework.Diagnose(s)
	slices.SortStableFunc(ms, func(a, b housework.Mistake) int { return mistakeRank(a.Kind) - mistakeRank(b.Kind) })
	return ms
}

// combinePlan writes the plan for the next attempt from the tools'
// outputs, in the order they came.
func combinePlan(outputs []string) string {
	var parts []string
	for _, o := range outputs {
		if o = strings.TrimSpace(o); o != "" {
			parts = append(parts, o)
		}
	}
	if len(parts) == 0 {
		return "Plan for the next attempt: the same task again, with more care."
	}
	var b strings.Builder
	b.WriteString("Plan for the next attempt:")
	for i, p := range parts {
		fmt.Fprintf(&b, "\n%d. %s", i+1, p)
	}
	return b.String()
}
