package household

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/internal/agenttest"
	"github.com/ambibench/ambibench/agents/llm"
)

// hintedHouse is a fakeHouse run with the household track's --hints.
type hintedHouse struct{ *fakeHouse }

func (hintedHouse) Hints() bool { return true }

// playOnHouse is a fakeHouse run with the household track's
// --play-on-repeat.
type playOnHouse struct{ *fakeHouse }

func (playOnHouse) PlayOnRepeat() bool { return true }

// houseFacts are the rules of the house that ambibench's hints state
// (react_system.tmpl's house_rules), one pattern a fact: each matches any
// wording of its fact this project's prompts have used, and only such.
var houseFacts = []struct {
	fact string
	re   *regexp.Regexp
}{
	{"a microwave heats", regexp.MustCompile(`(?i)microwave`)},
	{"a fridge cools", regexp.MustCompile(`(?i)fridge`)},
	{"a sinkbasin cleans", regexp.MustCompile(`(?i)sink`)},
	{"a lamp is switched on with use", regexp.MustCompile(`(?i)lamp`)},
	{"a closed receptacle is opened first", regexp.MustCompile(`(?i)\bclosed\b|\bopened\b|\bopen (it|them)\b|\bopen\b[^.]*\bfirst\b`)},
	{"one object at a time", regexp.MustCompile(`(?i)\bone (object|thing|item) at a time|\b(carry|carries|hold|holds) (only )?one\b|\bone at a time\b|hands? (is|are) full`)},
	{"not every receptacle takes every object", regexp.MustCompile(`(?i)not (every|all|each|any) receptacle|receptacles? (can ?not|can't|does not|doesn't|do not|don't|won't|will not) (hold|take|contain|accept)|takes? every object`)},
	{"the same command twice in a row never helps", regexp.MustCompile(`(?i)\bhelps?\b|futile|pointless|no use|\b(twice|again)\b[^.]*\b(never|nothing)\b`)},
	{"the game is won when the goal holds, with no command to declare it", regexp.MustCompile(`(?i)declare|won the moment|no command (to|that)`)},
	{"\"Nothing happens.\" means the command failed", regexp.MustCompile(`Nothing happens`)},
	{"the steps are limited", regexp.MustCompile(`(?i)limited number|step limit|steps? (is|are) limited|number of steps`)},
	{"some receptacles stand at one place", regexp.MustCompile(`(?i)\bone place\b|stand here`)},
	{"a thought counts as a step", regexp.MustCompile(`(?i)counts? as a step`)},
}

// instructionParts are the instructions of the household prompts of the
// ReAct player and of Reflexion's reflection, without what they show of
// games (the worked games and attempts, the room, the trial): every text
// of a template's own. hinted renders them with --hints.
func instructionParts(t *testing.T, hinted bool) map[string]string {
	t.Helper()
	tags := strings.Join(agents.AskTags, ", ")
	note := []agents.ReflectionRecord{{Trial: 1, Text: "A note."}}
	var endings []string
	for _, end := range []trialEnd{endWorld, endRepeat, endMalformed, endCalls} {
		tr := trialRecord{End: end, Steps: []householdStep{{Tool: agents.ToolAct, Command: "look"}}}
		endings = append(endings, tr.status(), tr.reason())
		tr.text = true
		endings = append(endings, tr.status(), tr.reason())
	}
	parts := map[string]string{"trial endings (status and reason)": strings.Join(endings, "\n")}
	for name, data := range map[string]struct {
		template string
		data     any
	}{
		"react system text":             {"react_system.tmpl", reactPrompt{Tags: tags, Hints: hinted}},
		"react-text instructions":       {"react_text_system.tmpl", reactPrompt{Tags: tags, Hints: hinted, Text: true}},
		"react user prompt":             {"react_user.tmpl", reactPrompt{Reflections: reflectionViews(note, false), Trial: 2}},
		"react user prompt, retry":      {"react_user.tmpl", reactPrompt{Reflections: reflectionViews(note, false), Trial: 2, Retry: true}},
		"react-text user prompt":        {"react_user.tmpl", reactPrompt{Reflections: reflectionViews(note, true), Trial: 2, Text: true}},
		"react-text user prompt, retry": {"react_user.tmpl", reactPrompt{Reflections: reflectionViews(note, true), Trial: 2, Text: true, Retry: true}},
		"reflection prompt":             {"reflexion_reflect.tmpl", reflectPrompt{Status: "The attempt failed.", Reflections: reflectionViews(note, false)}},
		"reflection prompt, text shape": {"reflexion_reflect.tmpl", reflectPrompt{Status: "The attempt failed.", Reflections: reflectionViews(note, true), Text: true}},
	} {
		text, err := render(data.template, data.data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		parts[name] = text
	}
	return parts
}

// By default no instruction of a household prompt states a rule of the
// house: the Reflexion authors' prompt gives a one-line instruction, two
// solved games of the task type and the task, and ambibench adds only its
// interface (tools, describe, ask and its tags). The worked games may
// show the rules being followed; the instructions may not state them.
// Each fact is checked on its own, in every part.
func TestDefaultPromptsStateNoHouseRule(t *testing.T) {
	for part, text := range instructionParts(t, false) {
		for _, f := range houseFacts {
			if loc := f.re.FindStringIndex(text); loc != nil {
				t.Errorf("%s states %q by default: …%s…", part, f.fact, text[max(0, loc[0]-60):min(len(text), loc[1]+60)])
			}
		}
	}
}

// With --hints both shapes' instructions state every fact, so the
// patterns above see each of them when it is there.
func TestHintsStateEveryHouseRule(t *testing.T) {
	parts := instructionParts(t, true)
	for _, part := range []string{"react system text", "react-text instructions"} {
		for _, f := range houseFacts {
			if !f.re.MatchString(parts[part]) {
				t.Errorf("%s with --hints does not state %q", part, f.fact)
			}
		}
	}
	if !strings.Contains(parts["react system text"], "admissible commands costs no step") || strings.Contains(parts["react-text instructions"], "admissible") {
		t.Error("the hint about listing the admissible commands belongs to the tool shape alone")
	}
}

// Whichever the option, the ask tool and its tags are in the prompt of
// every cell: the instructions name the three tags, and the tool shape
// offers ask.
func TestAskInEveryPrompt(t *testing.T) {
	for _, hinted := range []bool{false, true} {
		parts := instructionParts(t, hinted)
		for _, part := range []string{"react system text", "react-text instructions"} {
			for _, tag := range agents.AskTags {
				if !strings.Contains(parts[part], tag) {
					t.Errorf("%s (hints %v) does not name the tag %s", part, hinted, tag)
				}
			}
		}
	}
	model := &houseModel{plans: acts("look", "look")}
	agent, err := agenttest.Workflow(t, "react", model)
	if err != nil {
		t.Fatal(err)
	}
	if err := agent.Run(context.Background(), newFakeHouse(1)); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(model.reqs[0].Tools, func(d llm.ToolDecl) bool { return d.Name == agents.ToolAsk }) {
		t.Error("react does not offer ask")
	}
}

// The players' prompts carry the rules of the house exactly when the Env
// asks for them (--hints), in both shapes and for every workflow on the
// player.
func TestHintsReachThePrompt(t *testing.T) {
	const rule = "You carry one object at a time."
	for _, name := range []string{"react", "react-text", "reflexion", "reflexion-text", "reflect-all", "no-reflect"} {
		for _, hinted := range []bool{false, true} {
			house := newFakeHouse(1)
			var env agents.Env = house
			if hinted {
				env = hintedHouse{house}
			}
			model := &textModel{houseModel: houseModel{plans: acts(winning...)}, lines: winning}
			var m llm.Model = &model.houseModel
			if strings.HasSuffix(name, "-text") {
				m = model
			}
			agent, err := agenttest.Workflow(t, name, m)
			if err != nil {
				t.Fatal(err)
			}
			if err := agent.Run(context.Background(), env); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			req := model.reqs[0]
			if got := strings.Contains(req.System+userText(req), rule); got != hinted {
				t.Errorf("%s, hints %v: the prompt states the rules of the house: %v", name, hinted, got)
			}
		}
	}
}

// A trial ends when the same call comes twice in a row, as the authors'
// loop ends it: react and react-text stop there with a failure (and play
// on with --play-on-repeat, as ambibench's react once did); the agents
// that reflect treat the stopped trial as a failed one, reflect on it
// when they reflect (the prompt shows the call twice), and play the game
// again, with the option or without.
func TestRepeatEndsTheTrial(t *testing.T) {
	before := []string{"go to countertop 1", "take apple 1 from countertop 1", "go to fridge 1", "go to fridge 1"}
	after := []string{"open fridge 1", "put apple 1 in/on fridge 1"}
	played := append(slices.Clone(before), after...)
	const shown = "> go to fridge 1\nThe fridge 1 is closed.\n> go to fridge 1\nThe fridge 1 is closed.\n"
	for _, tc := range []struct {
		agent    string
		playOn   bool
		trial1   []string // the commands of trial 1
		won      bool
		trials   int // trials played
		reflects int // reflection calls; -1: as the router chooses
	}{
		{"react", false, before, false, 1, 0},
		{"react", true, played, true, 1, 0},
		{"react-text", false, before, false, 1, 0},
		{"react-text", true, played, true, 1, 0},
		{"reflexion", false, before, true, 2, 1},
		{"reflexion", true, before, true, 2, 1},
		{"reflexion-text", false, before, true, 2, 1},
		{"reflexion-text", true, before, true, 2, 1},
		{"reflect-all", false, before, true, 2, 4},
		{"reflect-all", true, before, true, 2, 4},
		{"dyref", false, before, true, 2, -1},
		{"no-reflect", false, before, true, 2, 0},
		{"no-reflect", true, before, true, 2, 0},
	} {
		house := newFakeHouse(3)
		var env agents.Env = house
		if tc.playOn {
			env = playOnHouse{house}
		}
		script := append(slices.Clone(before), winning...)
		if tc.trials == 1 {
			script = append(slices.Clone(before), after...)
		}
		model := &textModel{houseModel: houseModel{plans: acts(script...), reflects: []string{"r1", "r2", "r3", "r4"}}, lines: script}
		var m llm.Model = &model.houseModel
		if strings.HasSuffix(tc.agent, "-text") {
			m = model
		}
		agent, err := agenttest.Workflow(t, tc.agent, m)
		if err != nil {
			t.Fatal(err)
		}
		name := tc.agent
		if tc.playOn {
			name += " --play-on-repeat"
		}
		if err := agent.Run(context.Background(), env); err != nil {
			t.Errorf("%s: run error %v; a repeat is a failure, not an error", name, err)
		}
		if !slices.Equal(house.log[0], tc.trial1) || len(house.log) != tc.trials || house.won != tc.won {
			t.Errorf("%s: trials %q, won %v; want trial 1 %q, %d trials, won %v", name, house.log, house.won, tc.trial1, tc.trials, tc.won)
		}
		var reflects []string
		for i, role := range model.roles {
			if role == llm.CallReflect {
				reflects = append(reflects, userText(model.reqs[i]))
			}
		}
		if tc.reflects >= 0 && len(reflects) != tc.reflects {
			t.Errorf("%s: %d reflection calls, want %d", name, len(reflects), tc.reflects)
		}
		if tc.reflects < 0 {
			if routes := agent.(*DyRef).Routes(); len(routes) != 1 || routes[0].Trial != 1 {
				t.Errorf("%s: routes %+v; want the router asked once, about trial 1", name, routes)
			}
		}
		for _, text := range reflects {
			if strings.Contains(text, "Your task type is") && !strings.Contains(text, "call by call") {
				continue // key_rules reads solved games, not the trial
			}
			if !strings.Contains(text, shown) {
				t.Errorf("%s: a reflection prompt does not show the call twice:\n%s", name, text)
			}
		}
	}
}
