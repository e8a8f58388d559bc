package household

import (
	"context"
	"github.com/ambibench/ambibench/agents/internal/agenttest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/dyref"
	"github.com/ambibench/ambibench/agents/llm"
)

// failTwice scripts a model that fails two trials the same way (goes to
// the fridge twice, which the repeat detector stops) and wins the third.
func failTwice() []llm.Reply {
	return []llm.Reply{
		act("go to fridge 1"), act("go to fridge 1"),
		act("go to fridge 1"), act("go to fridge 1"),
		act("go to countertop 1"), act("take apple 1 from countertop 1"), act("go to fridge 1"), act("put apple 1 in/on fridge 1"),
	}
}

// The toolkit runs the routed tools in the toolkit's order, then plan
// over the failed trial and their outputs; each call's block names its
// tool and holds what that tool reads, and the reflection sums the calls'
// tokens.
func TestDyRefRunsTheRoutedToolsThenPlan(t *testing.T) {
	model := &houseModel{plans: failTwice(), reflects: []string{"rule 1", "lesson 1", "plan 1", "rule 2", "lesson 2", "plan 2"}}
	sub := dyref.Subset(dyref.KeyRules | dyref.Lesson)
	var seen [][]float64
	var tried []dyref.Subset
	a, err := NewDyRef(model, DyRefOptions{Route: func(x []float64, t dyref.Subset) dyref.Subset {
		seen, tried = append(seen, x), append(tried, t)
		return sub
	}})
	if err != nil {
		t.Fatal(err)
	}
	env := newFakeHouse(5)
	if err := a.Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	if !env.won || env.trial != 3 {
		t.Fatalf("won %v on trial %d, want a win on trial 3", env.won, env.trial)
	}
	var tools []string
	for _, req := range model.reqs {
		b, _ := agenttest.ContextOf(req)
		if b.Role != llm.CallReflect {
			continue
		}
		tools = append(tools, b.Tool)
		switch b.Tool {
		case agents.ReflectKeyRules:
			if len(b.Case) == 0 || len(b.Trajectory) != 0 {
				t.Errorf("key_rules block: %d case steps, %d trajectory steps; want the case alone", len(b.Case), len(b.Trajectory))
			}
		case agents.ReflectLesson:
			if len(b.Trajectory) != 2 || !strings.Contains(req.Messages[0].Text, lessonPool[0]) {
				t.Errorf("lesson: %d trajectory steps, pool shown %v", len(b.Trajectory), strings.Contains(req.Messages[0].Text, lessonPool[0]))
			}
		case agents.ReflectPlan:
			if len(b.Trajectory) != 2 || len(b.Reflections) != 2 {
				t.Errorf("plan block: %d trajectory steps, outputs %q; want the failed trial and the two outputs", len(b.Trajectory), b.Reflections)
			}
		}
	}
	want := []string{agents.ReflectKeyRules, agents.ReflectLesson, agents.ReflectPlan, agents.ReflectKeyRules, agents.ReflectLesson, agents.ReflectPlan}
	if !slices.Equal(tools, want) {
		t.Errorf("reflection calls %v, want %v", tools, want)
	}
	rs := a.Reflections()
	if len(rs) != 2 || rs[0].Text != "plan 1" || !slices.Equal(rs[0].Tools, want[:3]) ||
		rs[0].Tokens != 3*100+len("rule 1")+len("lesson 1")+len("plan 1") || rs[0].PlanChanged || !rs[1].PlanChanged {
		t.Errorf("reflections %+v", rs)
	}
	if len(a.Routes()) != 2 || len(seen) != 2 || !reflect.DeepEqual(a.Routes()[0].Factors.Vector(), seen[0]) {
		t.Errorf("routes %+v, router saw %d vectors", a.Routes(), len(seen))
	}
	if !slices.Equal(tried, []dyref.Subset{0, sub}) {
		t.Errorf("the route was told the tools tried %v, want none then %v", tried, sub)
	}
	// The next trial's prompt carries the plan, not the analyses.
	var lastPlan llm.CallContext
	for _, req := range model.reqs {
		if b, _ := agenttest.ContextOf(req); b.Role == llm.CallPlan {
			lastPlan = b
		}
	}
	if !slices.Equal(lastPlan.Reflections, []string{"plan 1", "plan 2"}) {
		t.Errorf("trial 3 carries %q", lastPlan.Reflections)
	}
}

// An empty subset skips the reflection: no call, no record, the same
// notes; no-reflect never builds a graph.
func TestDyRefEmptySubsetAndNoReflect(t *testing.T) {
	for _, tc := range []struct {
		why   string
		route func([]float64, dyref.Subset) dyref.Subset
	}{
		{"the router chose no tool", func([]float64, dyref.Subset) dyref.Subset { return 0 }},
		{"no-reflect has no router", nil},
	} {
		model := &houseModel{plans: failTwice()}
		a, err := NewDyRef(model, DyRefOptions{Route: tc.route})
		if err != nil {
			t.Fatal(err)
		}
		env := newFakeHouse(5)
		if err := a.Run(context.Background(), env); err != nil {
			t.Fatalf("%s: %v", tc.why, err)
		}
		if !env.won || len(a.Reflections()) != 0 || slices.Contains(model.roles, llm.CallReflect) {
			t.Errorf("%s: won %v, %d reflections, roles %v", tc.why, env.won, len(a.Reflections()), model.roles)
		}
		if (tc.route == nil) != (len(a.Routes()) == 0) {
			t.Errorf("%s: %d routes", tc.why, len(a.Routes()))
		}
	}
}

// The registered agents: reflect-all runs the paper's three tools, dyref
// and dyref-ambiguity load their shipped routers, no-reflect reflects
// never, and all need a model.
func TestToolkitAgentsRegistered(t *testing.T) {
	for _, name := range []string{"dyref", "dyref-ambiguity", "reflect-all", "no-reflect"} {
		info, ok := agents.Lookup(name)
		if !ok || !info.Plays(agents.TrackHousehold) || info.Plays(agents.TrackTabletop) {
			t.Fatalf("%s: registered %v, household only %v", name, ok, ok && info.Plays(agents.TrackHousehold))
		}
		if _, err := info.New(agents.Config{}); err == nil || !strings.Contains(err.Error(), "needs a model") {
			t.Errorf("%s without a model: %v", name, err)
		}
	}
	model := &houseModel{plans: failTwice(), reflects: strings.Fields("a b c d e f g h i j")}
	a, err := agenttest.Workflow(t, "reflect-all", model)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Run(context.Background(), newFakeHouse(2)); err != nil {
		t.Fatal(err)
	}
	rs := a.(agents.Reflective).Reflections()
	if len(rs) != 1 || !slices.Equal(rs[0].Tools, append(slices.Clone(agents.ReflectionTools[:dyref.PaperTools]), agents.ReflectPlan)) {
		t.Errorf("reflect-all reflected %+v", rs)
	}
	for _, name := range []string{"dyref", "dyref-ambiguity"} {
		if info, _ := agents.Lookup(name); !info.UsesRouter {
			t.Errorf("%s does not take the run's router", name)
		}
	}
}

// dyref routes among the paper's tools only: its router's subsets are the
// eight of the toolkit's tools less ambiguity, and dyref-ambiguity's the
// sixteen of them all; a run's router over the other set is refused. The
// tool lists are the toolkit's (agents.ReflectionTools), so a tool added
// there shows up here.
func TestRouterSubsets(t *testing.T) {
	var paper []string
	for _, tool := range agents.ReflectionTools {
		if tool != agents.ReflectAmbiguity {
			paper = append(paper, tool)
		}
	}
	three, err := dyref.Default()
	if err != nil {
		t.Fatal(err)
	}
	four, err := dyref.DefaultAmbiguity()
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, len(dyref.VectorNames()))
	for _, c := range []struct {
		agent  string
		router *dyref.Router
		tools  []string
		other  *dyref.Router
	}{
		{"dyref", three, paper, four},
		{"dyref-ambiguity", four, agents.ReflectionTools, three},
	} {
		var names []string
		for _, tool := range c.router.Tools().Tools() {
			names = append(names, tool.Name())
		}
		if !slices.Equal(names, c.tools) {
			t.Errorf("%s: the router chooses among %q, want %q", c.agent, names, c.tools)
		}
		if n := len(c.router.Scores(x)); n != 1<<len(c.tools) {
			t.Errorf("%s: %d subsets, want %d", c.agent, n, 1<<len(c.tools))
		}
		info, _ := agents.Lookup(c.agent)
		if _, err := info.New(agents.Config{Model: &houseModel{}, Router: c.other}); err == nil || !strings.Contains(err.Error(), "this agent routes among") {
			t.Errorf("%s with the other router: %v", c.agent, err)
		}
		if _, err := info.New(agents.Config{Model: &houseModel{}, Router: c.router}); err != nil {
			t.Errorf("%s with its router: %v", c.agent, err)
		}
		// The harness passes its *dyref.Router field as is: nil is none.
		if _, err := info.New(agents.Config{Model: &houseModel{}, Router: (*dyref.Router)(nil)}); err != nil {
			t.Errorf("%s with a nil *dyref.Router: %v", c.agent, err)
		}
		if _, err := info.New(agents.Config{Model: &houseModel{}, Router: namedRouter("mine")}); err == nil || !strings.Contains(err.Error(), "routes with a dyref router") {
			t.Errorf("%s with a router that is not dyref's: %v", c.agent, err)
		}
	}
	// Played through escalation to every tool it may choose, dyref never
	// calls ambiguity.
	model := &houseModel{plans: slices.Repeat([]llm.Reply{act("go to fridge 1")}, 10), reflects: slices.Repeat([]string{"x"}, 40)}
	a, err := agenttest.Workflow(t, "dyref", model)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Run(context.Background(), newFakeHouse(5)); err != nil {
		t.Fatal(err)
	}
	for _, r := range a.(agents.Reflective).Reflections() {
		if slices.Contains(r.Tools, agents.ReflectAmbiguity) {
			t.Errorf("dyref ran ambiguity: %v", r.Tools)
		}
	}
}

// The toolkit's prompts as a model reads them, for a failed trial of the
// fake house; rewrite with -update.
func TestToolkitPromptsGolden(t *testing.T) {
	model := &houseModel{reflects: []string{"The rule.", "What was useful.", "The lesson.", "It was clear.", "The plan."}}
	kit, err := newToolkit(model)
	if err != nil {
		t.Fatal(err)
	}
	env := newFakeHouse(5)
	tr := trialRecord{Trial: 1, Opening: env.Opening(), End: endRepeat, Steps: []householdStep{
		{Tool: agents.ToolAct, Command: "go to fridge 1", Result: "You arrive at loc 5. The fridge 1 is closed."},
		{Tool: agents.ToolAct, Command: "go to fridge 1", Result: "You arrive at loc 5. The fridge 1 is closed."},
	}}
	if _, err := kit.reflect(context.Background(), env, tr, agents.ReflectionTools); err != nil {
		t.Fatal(err)
	}
	for i, tool := range append(slices.Clone(agents.ReflectionTools), agents.ReflectPlan) {
		got := model.reqs[i].Messages[0].Text
		path := filepath.Join("testdata", "dyref_"+tool+".txt")
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update)", err)
		}
		if got != string(want) {
			t.Errorf("%s prompt differs from %s:\n%s", tool, path, got)
		}
		if strings.Contains(got, "<no value>") {
			t.Errorf("%s: a template field is missing", tool)
		}
	}
}

// Escalate keeps the router's choice while it adds a tool, and once the
// game's earlier reflections ran every tool it would choose, takes the
// best subset that adds one.
func TestEscalate(t *testing.T) {
	r, err := dyref.Default()
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, len(dyref.VectorNames()))
	first := r.Route(x)
	route := Escalate(r)
	if got := route(x, 0); got != first {
		t.Errorf("nothing tried: %v, want the router's %v", got, first)
	}
	all := r.Tools()
	tried := first
	for range dyref.PaperTools {
		got := route(x, tried)
		if tried != all && got&^tried == 0 {
			t.Fatalf("after %v the route %v adds no tool", tried, got)
		}
		if got&^all != 0 {
			t.Fatalf("the route %v leaves the router's tools %v", got, all)
		}
		tried |= got
	}
	if tried != all {
		t.Errorf("three escalations tried %v, want every tool", tried)
	}
	if got := route(x, all); got != all {
		t.Errorf("everything tried: %v, want every tool again", got)
	}
}

// The next trial's notes hold each plan once, the latest last, none
// empty, at most three.
func TestDyRefMemory(t *testing.T) {
	a := &DyRef{reflections: []agents.ReflectionRecord{{Text: "a"}, {Text: "b"}, {Text: ""}, {Text: "c"}, {Text: "b"}, {Text: "b"}}}
	var got []string
	for _, r := range a.memory() {
		got = append(got, r.Text)
	}
	if want := []string{"a", "c", "b"}; !slices.Equal(got, want) {
		t.Errorf("memory %q, want %q", got, want)
	}
}

// The toolkit's tool names are the router's, in the same order, the
// paper's three first.
func TestReflectionToolsAreTheRoutersTools(t *testing.T) {
	var names []string
	for _, tool := range dyref.AllTools {
		names = append(names, tool.Name())
	}
	if !slices.Equal(names, agents.ReflectionTools) {
		t.Errorf("router tools %q, toolkit tools %q", names, agents.ReflectionTools)
	}
}

// Without a solved game of the task's type key_rules is not called: it
// would have nothing to read, and its call would cost for nothing.
func TestKeyRulesNeedsACase(t *testing.T) {
	model := &houseModel{reflects: []string{"The plan."}}
	kit, err := newToolkit(model)
	if err != nil {
		t.Fatal(err)
	}
	kit.cases = map[string][]SolvedCase{}
	env := newFakeHouse(5)
	r, err := kit.reflect(context.Background(), env, trialRecord{Trial: 1, Opening: env.Opening()}, []string{agents.ReflectKeyRules})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Tools, []string{agents.ReflectPlan}) || len(model.reqs) != 1 {
		t.Errorf("tools %v after %d calls, want plan alone", r.Tools, len(model.reqs))
	}
}

// namedRouter is a router that is not dyref's: the harness names it, and
// dyref refuses it.
type namedRouter string

func (r namedRouter) ID() string { return string(r) }
