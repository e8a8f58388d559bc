package household

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/internal/agenttest"
	"github.com/ambibench/ambibench/agents/llm"
)

// Each tool's prompt holds the inputs the DyRef paper's appendix gives
// that tool: key_rules the task type, two worked examples and the solved
// games of the game's type (and not the failed trial, which it does not
// analyse); experience the failed trial and two summaries of solved games
// of the type; lesson the trial, the whole mentor pool, the task type and
// two worked lessons; plan the failed trial, every analysis and two
// example plans. The expectations are read from the toolkit's own data,
// so that a prompt that drops one fails here whatever the data says.
func TestToolkitPromptInputs(t *testing.T) {
	model := &houseModel{reflects: []string{"The rule.", "What was useful.", "The lesson.", "It was clear.", "The plan."}}
	kit, err := newToolkit(model)
	if err != nil {
		t.Fatal(err)
	}
	env := newFakeHouse(5)
	ty := typeOf(env)
	tr := trialRecord{Trial: 1, Opening: env.Opening(), End: endRepeat, Steps: []householdStep{
		{Tool: agents.ToolAct, Command: "go to fridge 1", Result: "You arrive at loc 5. The fridge 1 is closed."},
		{Tool: agents.ToolAct, Command: "go to fridge 1", Result: "You arrive at loc 5. The fridge 1 is closed."},
	}}
	if _, err := kit.reflect(context.Background(), env, tr, agents.ReflectionTools); err != nil {
		t.Fatal(err)
	}
	cases := kit.cases[ty]
	if len(cases) != 2 {
		t.Fatalf("%d solved games of %s, want two", len(cases), ty)
	}
	// The trial as the player saw it, the arrivals cut (asSeen).
	trial := []string{tr.Opening, "> go to fridge 1\nThe fridge 1 is closed.\n> go to fridge 1\nThe fridge 1 is closed.\n", tr.reason()}
	want := map[string][]string{}
	want[agents.ReflectKeyRules] = []string{"Your task type is " + ty + ".", env.Instruction()}
	for _, c := range cases {
		want[agents.ReflectKeyRules] = append(want[agents.ReflectKeyRules], "Task: "+c.Task, "> "+c.Steps[0].Command+"\n"+stripArrival(c.Steps[0].Observation))
	}
	worked := 0
	for _, et := range ruleExampleTypes {
		if et == ty || worked == 2 {
			continue
		}
		worked++
		c := kit.cases[et][0]
		want[agents.ReflectKeyRules] = append(want[agents.ReflectKeyRules], "Task type: "+et, "Solved game, task: "+c.Task, "Rule: "+kit.examples.Rules[et])
	}
	want[agents.ReflectExperience] = append(want[agents.ReflectExperience], trial[:2]...)
	want[agents.ReflectExperience] = append(want[agents.ReflectExperience], "("+ty+")")
	for _, c := range cases {
		s := summarise(c)
		want[agents.ReflectExperience] = append(want[agents.ReflectExperience], "Task: "+s.Task+"\nValuable actions: "+s.Actions)
	}
	want[agents.ReflectLesson] = append(want[agents.ReflectLesson], trial...)
	want[agents.ReflectLesson] = append(want[agents.ReflectLesson], "Your task type is "+ty+".")
	for _, tip := range lessonPool {
		want[agents.ReflectLesson] = append(want[agents.ReflectLesson], "- "+tip+"\n")
	}
	for _, l := range kit.examples.Lessons {
		want[agents.ReflectLesson] = append(want[agents.ReflectLesson], "Task type: "+l.Type+"\n"+l.Attempt+"\nLesson: "+l.Lesson)
	}
	want[agents.ReflectAmbiguity] = trial[:2]
	want[agents.ReflectPlan] = append(want[agents.ReflectPlan], trial...)
	want[agents.ReflectPlan] = append(want[agents.ReflectPlan], "Key rule (key_rules): The rule.", "Valuable experience (experience): What was useful.",
		"Failure lesson (lesson): The lesson.", "What the task left open (ambiguity): It was clear.")
	for _, p := range kit.examples.Plans {
		want[agents.ReflectPlan] = append(want[agents.ReflectPlan], "Task: "+p.Task+"\nPlan:\n"+p.Plan)
	}
	if len(kit.examples.Lessons) != 2 || len(kit.examples.Plans) != 2 || worked != 2 {
		t.Errorf("%d worked lessons, %d example plans, %d worked rules; want two of each", len(kit.examples.Lessons), len(kit.examples.Plans), worked)
	}
	for i, req := range model.reqs {
		b, _ := agenttest.ContextOf(req)
		text := req.Messages[0].Text
		for _, w := range want[b.Tool] {
			if !strings.Contains(text, w) {
				t.Errorf("call %d, %s: the prompt lacks %q", i, b.Tool, w)
			}
		}
		if b.Tool == agents.ReflectKeyRules && strings.Contains(text, tr.Opening) {
			t.Errorf("key_rules shows the failed trial")
		}
		if got := strings.Count(text, "--- Example ---"); b.Tool != agents.ReflectAmbiguity && got != 2 {
			t.Errorf("%s: %d examples, want 2", b.Tool, got)
		}
	}
	if len(model.reqs) != len(want) {
		t.Errorf("%d calls, want %d", len(model.reqs), len(want))
	}
}

// key_rules shows the solved games in the text the trials are read in:
// arrivals cut by default, as the live observations are, and whole under
// --keep-arrival.
func TestSolvedCasesReadAsTrials(t *testing.T) {
	for _, tc := range []struct {
		why      string
		keep     bool
		arrivals bool
	}{
		{"by default a case's arrivals are cut like the trial's", false, false},
		{"--keep-arrival shows them whole, like the trial's", true, true},
	} {
		model := &houseModel{reflects: []string{"The rule.", "The plan."}}
		kit, err := newToolkit(model)
		if err != nil {
			t.Fatal(err)
		}
		house := newFakeHouse(5)
		var env agents.Env = house
		if tc.keep {
			env = keepingHouse{house}
		}
		raw := 0
		for _, c := range kit.cases[typeOf(env)] {
			for _, s := range c.Steps {
				raw += strings.Count(s.Observation, arrivalPrefix)
			}
		}
		if raw == 0 {
			t.Fatalf("the solved games of %s have no arrival to cut: the test shows nothing", typeOf(env))
		}
		step := householdStep{Tool: agents.ToolAct, Command: "go to fridge 1", Result: "The fridge 1 is closed."}
		tr := trialRecord{Trial: 1, Opening: house.Opening(), End: endRepeat, Steps: []householdStep{step, step}}
		if _, err := kit.reflect(context.Background(), env, tr, []string{agents.ReflectKeyRules}); err != nil {
			t.Fatal(err)
		}
		text := model.reqs[0].Messages[0].Text
		if got := strings.Contains(text, arrivalPrefix); got != tc.arrivals {
			t.Errorf("%s: arrivals in the key_rules prompt: %v, want %v", tc.why, got, tc.arrivals)
		}
		b, err := agenttest.ContextOf(model.reqs[0])
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range b.Case {
			if strings.HasPrefix(s.Result, arrivalPrefix) != tc.arrivals && strings.Contains(s.Command, "go to") && !strings.HasPrefix(s.Result, "Nothing") {
				t.Errorf("%s: the context's case step %q reads %q", tc.why, s.Command, s.Result)
			}
		}
	}
}

// Every tip of the lesson pool begins with the task types it holds for:
// a type of the household, or "any type".
func TestLessonPoolTipsNameTheirType(t *testing.T) {
	kit, err := newToolkit(&houseModel{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tip := range lessonPool {
		head, _, ok := strings.Cut(tip, ": ")
		if !ok || head != "any type" && len(kit.cases[head]) == 0 {
			t.Errorf("tip %q does not begin with a task type", tip)
		}
	}
	for ty := range kit.cases {
		if kit.examples.Rules[ty] == "" {
			t.Errorf("no worked rule for %s", ty)
		}
	}
}

// Each toolkit tool that reads the failed trial reads it as the ReAct
// player saw it, byte for byte: without the arrivals' "You arrive at loc
// N. " by default, whole under --keep-arrival, never the one without the
// other.
func TestToolkitReadsTheTrialAsThePlayerSawIt(t *testing.T) {
	for _, keep := range []bool{false, true} {
		house := newFakeHouse(2)
		var env agents.Env = house
		if keep {
			env = keepingHouse{house}
		}
		model := &houseModel{plans: acts(append([]string{"go to countertop 1", "go to fridge 1", "go to fridge 1"}, winning...)...),
			reflects: []string{"The rule.", "What was useful.", "The lesson.", "The plan."}}
		agent, err := agenttest.Workflow(t, "reflect-all", model)
		if err != nil {
			t.Fatal(err)
		}
		if err := agent.Run(context.Background(), env); err != nil {
			t.Fatal(err)
		}
		// The player's last prompt of trial 1 shows the trial up to the
		// repeated call, which stopped it.
		first := slices.Index(model.roles, llm.CallReflect)
		if first < 1 {
			t.Fatalf("keep %v: no reflection after a planning call: %v", keep, model.roles)
		}
		seen := userText(model.reqs[first-1])
		start, end := strings.Index(seen, "> go to countertop 1\n"), strings.Index(seen, "\nYour next step")
		if start < 0 || end < start {
			t.Fatalf("keep %v: the player's prompt holds no trial:\n%s", keep, seen)
		}
		block := seen[start:end]
		_, fridge, _ := strings.Cut(block, "> go to fridge 1\n")
		want := block + "> go to fridge 1\n" + fridge
		if got := strings.Contains(want, arrivalPrefix); got != keep {
			t.Fatalf("keep %v: the player saw arrivals: %v\n%s", keep, got, want)
		}
		read := 0
		for i := first; i < len(model.reqs); i++ {
			b, _ := agenttest.ContextOf(model.reqs[i])
			if b.Role != llm.CallReflect || b.Tool == agents.ReflectKeyRules {
				continue
			}
			read++
			if text := userText(model.reqs[i]); !strings.Contains(text, want) {
				t.Errorf("keep %v: %s does not show the trial as the player saw it,\n%s\nin\n%s", keep, b.Tool, want, text)
			}
			for _, s := range b.Trajectory {
				if strings.Contains(s.Result, arrivalPrefix) != (keep && strings.HasPrefix(s.Command, "go to")) {
					t.Errorf("keep %v: %s's context reads %q after %q", keep, b.Tool, s.Result, s.Command)
				}
			}
		}
		if read != 3 {
			t.Errorf("keep %v: %d tools read the trial, want experience, lesson and plan", keep, read)
		}
	}
}
