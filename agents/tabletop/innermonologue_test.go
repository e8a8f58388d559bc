package tabletop

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/ambibench/ambibench/agents/internal/agenttest"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// scriptedModel replies from a script, in order, and keeps the requests.
type scriptedModel struct {
	replies [][]llm.ToolCall
	reqs    []llm.Request
}

func (m *scriptedModel) Name() string { return "scripted" }

func (m *scriptedModel) Generate(_ context.Context, req llm.Request) (llm.Reply, error) {
	m.reqs = append(m.reqs, req)
	if len(m.reqs) > len(m.replies) {
		return llm.Reply{}, fmt.Errorf("scripted model: call %d, script has %d", len(m.reqs), len(m.replies))
	}
	return llm.Reply{ToolCalls: m.replies[len(m.reqs)-1], FinishReason: llm.FinishToolCalls}, nil
}

// scriptedTable is a one-robot table where each accepted pick_and_place
// puts the block at the next scripted landing point, wherever it was
// sent, and refuses blocks it does not hold.
type scriptedTable struct {
	objs    []scenes.Object
	landing []mgl64.Vec2
	log     []string
}

func (e *scriptedTable) Instruction() string  { return "Put the red block in the blue bowl." }
func (e *scriptedTable) Robot() string        { return scenes.Robot1 }
func (e *scriptedTable) Partner() string      { return "" }
func (e *scriptedTable) Tools() []agents.Tool { return agents.Tools(false) }

func (e *scriptedTable) Call(_ context.Context, c agents.ToolCall) (agents.Result, error) {
	args, err := agents.DecodeArgs(c)
	if err != nil {
		return agents.Result{Text: "error: " + err.Error(), Error: err.Error()}, nil
	}
	e.log = append(e.log, c.Name)
	switch a := args.(type) {
	case *agents.PickAndPlaceArgs:
		e.log[len(e.log)-1] += " " + a.Pick
		i := slices.IndexFunc(e.objs, func(o scenes.Object) bool { return o.ID == a.Pick })
		if i < 0 {
			msg := fmt.Sprintf("no object %q in view", a.Pick)
			return agents.Result{Text: "error: " + msg, Error: msg}, nil
		}
		p := e.landing[0]
		e.landing = e.landing[1:]
		e.objs[i].Pose = mgl64.Vec3{p.X(), p.Y(), e.objs[i].Pose.Z()}
		return agents.Result{Text: "robot1 put " + a.Pick + " at " + a.Place + "."}, nil
	case *agents.NoArgs:
		if c.Name == agents.ToolDone {
			return agents.Result{Text: "The episode is over.", Ended: true}, nil
		}
		return lookResult(c.Name, e.objs), nil
	}
	return agents.Result{Text: "ok"}, nil
}

func pp(id, pick, place string) llm.ToolCall {
	return llm.ToolCall{ID: id, Name: agents.ToolPickAndPlace, Args: json.RawMessage(fmt.Sprintf(`{"pick":%q,"place":%q}`, pick, place))}
}

func doneCall(id string) llm.ToolCall {
	return llm.ToolCall{ID: id, Name: agents.ToolDone, Args: json.RawMessage(`{}`)}
}

// The closed loop: a move that misses is reported "Success: no." with
// where the block went, the calls sent after it in the same reply are
// answered "Skipped" without reaching the table, a refused move skips the
// rest too, and a move that lands is reported "Success: yes.".
func TestInnerMonologueFeedbackLoop(t *testing.T) {
	bowl := scenes.NewBowl("blue bowl 1", "blue", 0.1, -0.6)
	env := &scriptedTable{
		objs: []scenes.Object{
			scenes.NewBlock("red block 1", "red", -0.2, -0.3),
			scenes.NewBlock("green block 1", "green", 0.2, -0.3),
			bowl,
			scenes.NewBowl("green bowl 2", "green", -0.15, -0.65),
		},
		// The first move lands beside the green bowl, 11 cm from its
		// centre: near it, not in it. The second lands in the blue bowl.
		landing: []mgl64.Vec2{{-0.2, -0.75}, {bowl.Pose.X(), bowl.Pose.Y()}},
	}
	model := &scriptedModel{replies: [][]llm.ToolCall{
		{pp("c0", "red block 1", "blue bowl 1"), pp("c1", "green block 1", "blue bowl 1"), doneCall("c2")},
		{pp("c3", "silver block 1", "blue bowl 1"), doneCall("c4")},
		{pp("c5", "red block 1", "blue bowl 1")},
		{doneCall("c6")},
	}}
	agent, err := agenttest.Workflow(t, "inner-monologue", model)
	if err != nil {
		t.Fatal(err)
	}
	if err := agent.Run(context.Background(), env); err != nil {
		t.Fatalf("run: %v", err)
	}

	wantLog := []string{"detect_objects", "pick_and_place red block 1", "detect_objects",
		"pick_and_place silver block 1", "pick_and_place red block 1", "detect_objects", "done"}
	if !slices.Equal(env.log, wantLog) {
		t.Errorf("the table saw\n%q\nwant\n%q", env.log, wantLog)
	}
	if len(model.reqs) != 4 {
		t.Fatalf("%d model calls, want 4", len(model.reqs))
	}
	results := map[string]string{}
	for _, m := range model.reqs[3].Messages {
		if m.Role == llm.RoleTool {
			results[m.ToolCallID] = m.Text
		}
	}
	skipped := `Skipped: not run, because pick_and_place {"pick":"red block 1","place":"blue bowl 1"} did not succeed. Decide again from its result.`
	for _, tc := range []struct{ id, want, why string }{
		{"c0", "Success: no. The red block 1 is now on the table near the green bowl 2.", "the block missed its bowl"},
		{"c1", skipped, "planned before the miss"},
		{"c2", skipped, "done after a miss must not end the episode"},
		{"c3", `error: no object "silver block 1" in view`, "a refused move keeps the table's reason"},
		{"c4", `Skipped: not run, because pick_and_place {"pick":"silver block 1","place":"blue bowl 1"} did not succeed. Decide again from its result.`, "a refusal is a failure too"},
		{"c5", "Success: yes. The red block 1 is now in the blue bowl 1.", "the retry landed"},
	} {
		if got, ok := results[tc.id]; !ok || got != tc.want {
			t.Errorf("%s (%s): result %q, want %q", tc.id, tc.why, got, tc.want)
		}
	}
	// Every call of every reply has its result, as OpenAI requires.
	var ids []string
	for _, m := range model.reqs[3].Messages {
		for _, tc := range m.ToolCalls {
			ids = append(ids, tc.ID)
		}
	}
	if len(ids) != 6 || len(results) != 6 {
		t.Errorf("calls %v, %d results; want every call answered", ids, len(results))
	}

	b, err := agenttest.ContextOf(model.reqs[0])
	if err != nil {
		t.Fatal(err)
	}
	if b.Role != llm.CallPlan || b.Format != llm.FormatToolCalls || b.Graph != nil || len(b.Detections) != 4 ||
		b.Instruction != env.Instruction() {
		t.Errorf("context %+v; want a planning context with the starting object list, no graph, and the instruction", b)
	}
	var offered []string
	for _, d := range model.reqs[0].Tools {
		offered = append(offered, d.Name)
	}
	if !slices.Equal(offered, []string{agents.ToolPickAndPlace, agents.ToolAsk, agents.ToolDone}) {
		t.Errorf("tools offered alone at the table: %v", offered)
	}
}

// Turns are bounded: a model that never finishes gets done called for it
// and the run reports the limit.
func TestInnerMonologueTurnLimit(t *testing.T) {
	env := &scriptedTable{objs: []scenes.Object{scenes.NewBowl("blue bowl 1", "blue", 0.1, -0.6)}}
	model := &scriptedModel{}
	for i := range imMaxTurns {
		model.replies = append(model.replies, []llm.ToolCall{pp(fmt.Sprint("c", i), "silver block 1", "blue bowl 1")})
	}
	agent, err := agenttest.Workflow(t, "inner-monologue", model)
	if err != nil {
		t.Fatal(err)
	}
	err = agent.Run(context.Background(), env)
	if err == nil || !strings.Contains(err.Error(), "no end after 16 model calls") {
		t.Errorf("run error %v; want the turn limit named", err)
	}
	if len(model.reqs) != imMaxTurns || env.log[len(env.log)-1] != agents.ToolDone {
		t.Errorf("%d model calls, last table call %q; want %d and done", len(model.reqs), env.log[len(env.log)-1], imMaxTurns)
	}
}

// Feedback, read off two graphs, for the destinations a move can have.
func TestFeedback(t *testing.T) {
	red := scenes.NewBlock("red block 1", "red", -0.2, -0.3)
	blue := scenes.NewBlock("blue block 1", "blue", 0.2, -0.3)
	bowl := scenes.NewBowl("blue bowl 1", "blue", 0.0, -0.6)
	yellowIn := scenes.NewBlock("yellow block 1", "yellow", 0.0, -0.6)
	at := func(o scenes.Object, x, y, z float64) scenes.Object {
		o = o.Clone()
		o.Pose = mgl64.Vec3{x, y, z}
		return o
	}
	ws := func(o scenes.Object, twoRobots bool) scenes.Object {
		o.Region = scenes.RegionAt(twoRobots, o.Pose.X(), o.Pose.Y())
		return o
	}
	for _, tc := range []struct {
		why           string
		before, after []scenes.Object
		place         string
		twoRobots     bool
		want          string
	}{
		{"stacking is on_top_of the target block",
			[]scenes.Object{red, blue}, []scenes.Object{at(red, 0.2, -0.3, 0.06), blue}, "blue block 1", false,
			"Success: yes. The red block 1 is now on the blue block 1."},
		{"beside a block is not on it",
			[]scenes.Object{red, blue}, []scenes.Object{at(red, 0.26, -0.3, 0.02), blue}, "blue block 1", false,
			"Success: no. The red block 1 is now on the table near the blue block 1."},
		{"a block knocked out of the bowl is reported too",
			[]scenes.Object{red, bowl, yellowIn}, []scenes.Object{at(red, 0, -0.6, 0.02), bowl, at(yellowIn, 0.1, -0.75, 0.02)}, "blue bowl 1", false,
			"Success: yes. The red block 1 is now in the blue bowl 1. The yellow block 1 is now on the table near the red block 1 and the blue bowl 1."},
		{"the moved block can fall out of view",
			[]scenes.Object{red, bowl}, []scenes.Object{bowl}, "blue bowl 1", false,
			"Success: no. The red block 1 is now out of view."},
		{"the shared workspace is judged by the workspace attribute",
			[]scenes.Object{ws(red, true)}, []scenes.Object{ws(at(red, 0, -0.5, 0.02), true)}, scenes.SharedPlace, true,
			"Success: yes. The red block 1 is now on the table in the shared workspace."},
		{"short of the shared workspace",
			[]scenes.Object{ws(red, true)}, []scenes.Object{ws(at(red, -0.15, -0.5, 0.02), true)}, scenes.SharedPlace, true,
			"Success: no. The red block 1 is now on the table in robot1's workspace."},
		{"a bowl standing in the shared workspace catches the block, which is still there",
			[]scenes.Object{ws(red, true), ws(bowl, true)}, []scenes.Object{ws(at(red, 0, -0.6, 0.02), true), ws(bowl, true)}, scenes.SharedPlace, true,
			"Success: yes. The red block 1 is now in the blue bowl 1."},
		{"a named place at a two-robot table is judged by its workspace",
			[]scenes.Object{ws(red, true)}, []scenes.Object{ws(at(red, 0.05, -0.25, 0.02), true)}, "top left corner", true,
			"Success: no. The red block 1 is now on the table in the shared workspace."},
		{"a one-robot table has no workspaces: a named place passes anywhere in view",
			[]scenes.Object{red, bowl}, []scenes.Object{at(red, -0.25, -0.25, 0.02), bowl}, "top left corner", false,
			"Success: yes. The red block 1 is now on the table."},
	} {
		got, ok := Feedback(scenes.BuildGraph(tc.before), scenes.BuildGraph(tc.after), "red block 1", tc.place, tc.twoRobots)
		if got != tc.want || ok != strings.HasPrefix(tc.want, "Success: yes.") {
			t.Errorf("%s:\n got %q (%v)\nwant %q", tc.why, got, ok, tc.want)
		}
	}
	// Without an earlier look, everything in view is news.
	after := scenes.BuildGraph([]scenes.Object{at(red, 0, -0.6, 0.02), bowl, blue})
	if got, ok := Feedback(nil, after, "red block 1", "blue bowl 1", false); !ok || got != "Success: yes. The red block 1 is now in the blue bowl 1. The blue bowl 1 is now on the table. The blue block 1 is now on the table." {
		t.Errorf("no earlier look: %q (%v)", got, ok)
	}
}
