package tabletop

import (
	"context"
	"fmt"
	"github.com/ambibench/ambibench/agents/internal/agenttest"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/program"
	"github.com/ambibench/ambibench/scenes"
)

// textModel replies with scripted texts, in order, and keeps the requests.
type textModel struct {
	replies []string
	reqs    []llm.Request
}

func (m *textModel) Name() string { return "text" }

func (m *textModel) Generate(_ context.Context, req llm.Request) (llm.Reply, error) {
	m.reqs = append(m.reqs, req)
	if len(m.reqs) > len(m.replies) {
		return llm.Reply{}, fmt.Errorf("text model: call %d, script has %d", len(m.reqs), len(m.replies))
	}
	return llm.Reply{Text: m.replies[len(m.reqs)-1], FinishReason: llm.FinishStop}, nil
}

// progTable is a one-robot table with two red blocks and a blue bowl. Each
// accepted pick_and_place drops the block at the next landing point,
// wherever it was sent; ask answers with answer.
type progTable struct {
	objs    []scenes.Object
	landing []mgl64.Vec2
	answer  string
	log     []string
}

func newProgTable(landing ...mgl64.Vec2) *progTable {
	return &progTable{objs: []scenes.Object{
		scenes.NewBlock("red block 1", "red", -0.2, -0.3),
		scenes.NewBlock("red block 2", "red", 0.2, -0.3),
		scenes.NewBowl("blue bowl 1", "blue", 0, -0.6),
	}, landing: landing, answer: "I mean red block 2."}
}

var (
	inBowl   = mgl64.Vec2{0, -0.6}
	nearBowl = mgl64.Vec2{0.15, -0.6} // beside the bowl, outside its rim
)

func (e *progTable) Instruction() string  { return "Put the red block in the blue bowl." }
func (e *progTable) Robot() string        { return scenes.Robot1 }
func (e *progTable) Partner() string      { return "" }
func (e *progTable) Tools() []agents.Tool { return agents.Tools(false) }

func (e *progTable) Call(_ context.Context, c agents.ToolCall) (agents.Result, error) {
	args, err := agents.DecodeArgs(c)
	if err != nil {
		return agents.Result{Text: "error: " + err.Error(), Error: err.Error()}, nil
	}
	e.log = append(e.log, c.Name)
	switch a := args.(type) {
	case *agents.PickAndPlaceArgs:
		e.log[len(e.log)-1] += " " + a.Pick
		i := slices.IndexFunc(e.objs, func(o scenes.Object) bool { return o.ID == a.Pick })
		if i < 0 || len(e.landing) == 0 {
			msg := fmt.Sprintf("no object %q in view", a.Pick)
			return agents.Result{Text: "error: " + msg, Error: msg}, nil
		}
		p := e.landing[0]
		e.landing = e.landing[1:]
		e.objs[i].Pose = mgl64.Vec3{p.X(), p.Y(), e.objs[i].Pose.Z()}
		return agents.Result{Text: "robot1 put " + a.Pick + " at " + a.Place + "."}, nil
	case *agents.AskArgs:
		return agents.Result{Text: e.answer}, nil
	case *agents.NoArgs:
		if c.Name == agents.ToolDone {
			return agents.Result{Text: "The episode is over.", Ended: true}, nil
		}
		return lookResult(c.Name, e.objs), nil
	}
	return agents.Result{Text: "ok"}, nil
}

var moveRed2 = program.Program{Body: program.Move("red block 2", "blue bowl 1")}.String()

func TestProgPromptRun(t *testing.T) {
	for _, tc := range []struct {
		why     string
		replies []string
		landing []mgl64.Vec2
		want    []string
	}{
		{"the move lands in the bowl: the assertion holds and the else step is skipped",
			[]string{moveRed2}, []mgl64.Vec2{inBowl},
			[]string{"detect_objects", "pick_and_place red block 2", "detect_objects", "done"}},
		{"the move lands beside the bowl: the assertion fails and the recovery moves it again",
			[]string{moveRed2}, []mgl64.Vec2{nearBowl, inBowl},
			[]string{"detect_objects", "pick_and_place red block 2", "detect_objects", "pick_and_place red block 2", "done"}},
		{"a recovery that fails too is not retried: the else step runs once",
			[]string{moveRed2}, []mgl64.Vec2{nearBowl, nearBowl, inBowl},
			[]string{"detect_objects", "pick_and_place red block 2", "detect_objects", "pick_and_place red block 2", "done"}},
		{"a question ends the program (the move after it is dropped); the next program acts on the reply",
			[]string{"    ask(\"multiplicity\", \"Which red block?\")\n    pick_and_place(\"red block 1\", \"blue bowl 1\")\n", moveRed2},
			[]mgl64.Vec2{inBowl},
			[]string{"detect_objects", "ask", "detect_objects", "pick_and_place red block 2", "detect_objects", "done"}},
		{"a malformed program is sent back once with its error, then the fixed one runs",
			[]string{"I will put the red block in the bowl.", moveRed2}, []mgl64.Vec2{inBowl},
			[]string{"detect_objects", "pick_and_place red block 2", "detect_objects", "done"}},
	} {
		env := newProgTable(tc.landing...)
		m := &textModel{replies: tc.replies}
		if err := (&progprompt{model: m}).Run(context.Background(), env); err != nil {
			t.Errorf("%s: %v", tc.why, err)
		}
		if !slices.Equal(env.log, tc.want) {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.why, env.log, tc.want)
		}
		if len(m.reqs) != len(tc.replies) {
			t.Errorf("%s: %d model calls, want %d", tc.why, len(m.reqs), len(tc.replies))
		}
	}
}

// The prompt after a question carries its reply twice: as a comment under
// the question in the task function, and in the block's exchanges.
func TestProgPromptRepromptCarriesTheReply(t *testing.T) {
	env := newProgTable(inBowl)
	m := &textModel{replies: []string{"    ask(\"multiplicity\", \"Which red block?\")\n", moveRed2}}
	if err := (&progprompt{model: m}).Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	second := m.reqs[1].Messages[0].Text
	want := "def put_the_red_block_in_the_blue_bowl():\n    ask(\"multiplicity\", \"Which red block?\")\n    # reply: I mean red block 2.\n"
	if !strings.Contains(second, want) {
		t.Errorf("the second prompt lacks the question and its reply:\n%s", second)
	}
	b, err := agenttest.ContextOf(m.reqs[1])
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Exchanges) != 1 || b.Exchanges[0] != (llm.Exchange{Kind: "ask", Tag: "multiplicity", Text: "Which red block?", Reply: "I mean red block 2."}) ||
		b.Format != llm.FormatProgram || len(b.Done) != 0 {
		t.Errorf("block: %+v", b)
	}
}

// Two malformed programs in a row fail the episode with the parse error,
// which names the line; the episode is closed with done first.
func TestProgPromptMalformedTwice(t *testing.T) {
	env := newProgTable()
	m := &textModel{replies: []string{"pick_and_place(\"red block 2\")", "    # fine\n    jump(\"red block 2\")"}}
	err := (&progprompt{model: m}).Run(context.Background(), env)
	if err == nil || !strings.Contains(err.Error(), `line 2: unknown action "jump"`) {
		t.Errorf("got %v; want the second reply's error with its line", err)
	}
	if fix := m.reqs[1].Messages; len(fix) != 3 || !strings.Contains(fix[2].Text, "line 1: pick_and_place(pick, place) takes 2 argument(s), got 1") {
		t.Errorf("the re-prompt does not carry the first parse error: %+v", fix)
	}
	if !slices.Equal(env.log, []string{"detect_objects", "done"}) {
		t.Errorf("tools: %q", env.log)
	}
}

func TestAssertionHolds(t *testing.T) {
	objs := []scenes.Object{
		scenes.NewBlock("red block 1", "red", 0, -0.6),
		scenes.NewBowl("blue bowl 1", "blue", 0, -0.6),
		scenes.NewBlock("green block 1", "green", 0.2, -0.3),
		scenes.NewBlock("cyan block 1", "cyan", 0.2, -0.3),
		scenes.NewBlock("pink block 1", "pink", -0.25, -0.25),
	}
	objs[3].Pose[2] += scenes.BlockSize // the cyan block rests on the green one
	g := scenes.BuildGraph(objs)
	shared := scenes.Node{ID: "gray block 1", Attributes: map[string]string{scenes.AttrWorkspace: scenes.RegionShared}}
	g.Nodes = append(g.Nodes, shared)
	for _, tc := range []struct {
		why       string
		a         program.Assert
		lastPlace string
		want      bool
	}{
		{"inside the bowl", program.Assert{Object: "red block 1", Relation: program.In, Target: "blue bowl 1"}, "", true},
		{"the relation word is not what counts: in a bowl written as on", program.Assert{Object: "red block 1", Relation: program.On, Target: "blue bowl 1"}, "", true},
		{"stacked on a block", program.Assert{Object: "cyan block 1", Relation: program.On, Target: "green block 1"}, "", true},
		{"the bottom block is not on the top one", program.Assert{Object: "green block 1", Relation: program.On, Target: "cyan block 1"}, "", false},
		{"a block elsewhere is not in the bowl", program.Assert{Object: "green block 1", Relation: program.In, Target: "blue bowl 1"}, "", false},
		{"an object not in view fails", program.Assert{Object: "silver block 1", Relation: program.In, Target: "blue bowl 1"}, "", false},
		{"the shared workspace is read from the workspace attribute", program.Assert{Object: "gray block 1", Relation: program.At, Target: scenes.SharedPlace}, "", true},
		{"a block outside the shared workspace", program.Assert{Object: "pink block 1", Relation: program.At, Target: scenes.SharedPlace}, "", false},
		{"a named place: last put there and resting on nothing", program.Assert{Object: "pink block 1", Relation: program.At, Target: "top left corner"}, "top left corner", true},
		{"a named place it was never put at", program.Assert{Object: "pink block 1", Relation: program.At, Target: "top left corner"}, "middle", false},
		{"a named place, but the block sits in a bowl", program.Assert{Object: "red block 1", Relation: program.At, Target: "middle"}, "middle", false},
	} {
		if got := assertionHolds(g, tc.a, tc.lastPlace); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.why, got, tc.want)
		}
	}
}

// progPromptGolden is the data of the golden prompts: a two-robot table
// after one question, or a one-robot table at the start.
func progPromptGolden(t *testing.T, partner bool) progPromptData {
	t.Helper()
	objs := []scenes.Object{
		scenes.NewBlock("red block 1", "red", -0.2, -0.3),
		scenes.NewBowl("blue bowl 1", "blue", 0.1, -0.6),
	}
	env := &goldenEnv{}
	st := &progState{}
	if partner {
		env.partner = scenes.Robot2
		objs[0].Region, objs[1].Region = scenes.RegionRobot2, scenes.RegionRobot1
		st.exchanges = []llm.Exchange{{Kind: agents.ToolAskRobot, Text: "Please put red block 1 in the shared workspace.", Reply: "I put red block 1 in the shared workspace."}}
		st.soFar = []string{`ask_robot("Please put red block 1 in the shared workspace.")`, "# reply: I put red block 1 in the shared workspace."}
	}
	data, _ := (&progprompt{}).prompt(env, &look{ds: detections(objs)}, st)
	return data
}

// progAnswerGolden is the data of the helper robot's program prompt.
func progAnswerGolden(t *testing.T) progPromptData {
	t.Helper()
	objs := []scenes.Object{scenes.NewBlock("red block 1", "red", 0.2, -0.3), scenes.NewBowl("blue bowl 1", "blue", -0.15, -0.6)}
	objs[0].Region, objs[1].Region = scenes.RegionRobot2, scenes.RegionRobot1
	d := progObjects(listed(detections(objs)), frameNote)
	d.promptData = promptData{Robot: scenes.Robot2, Partner: scenes.Robot1, Message: "Please put red block 1 in the shared workspace.", Places: d.Places}
	d.Imports, d.FuncName = program.PickAndPlace, "answer_"+program.FuncName(scenes.Robot1)
	return d
}

type goldenEnv struct{ partner string }

func (e *goldenEnv) Instruction() string  { return "Put the red block in the blue bowl." }
func (e *goldenEnv) Robot() string        { return scenes.Robot1 }
func (e *goldenEnv) Partner() string      { return e.partner }
func (e *goldenEnv) Tools() []agents.Tool { return agents.Tools(e.partner != "") }
func (e *goldenEnv) Call(context.Context, agents.ToolCall) (agents.Result, error) {
	return agents.Result{}, fmt.Errorf("goldenEnv only renders prompts")
}

// progPromptFixGolden is the data of the re-prompt after a malformed
// program.
func progPromptFixGolden(t *testing.T) progPromptData {
	d := progPromptGolden(t, false)
	_, err := program.Parse("THOUGHT: I will act now.")
	d.Error = err.Error()
	return d
}

// The prompt's example functions are programs the parser reads: the model
// is shown only what the workflow can run.
func TestProgPromptExamplesParse(t *testing.T) {
	user, err := render("progprompt_user.tmpl", progPromptGolden(t, true))
	if err != nil {
		t.Fatal(err)
	}
	examples := 0
	for _, chunk := range strings.Split(user, "\n\n") {
		if !strings.HasPrefix(chunk, "def ") || strings.HasPrefix(chunk, "def put_the_red_block_in_the_blue_bowl") {
			continue
		}
		p, err := program.Parse(chunk)
		if err != nil || len(p.Body) == 0 {
			t.Errorf("example %q: %v, %d statements", chunk, err, len(p.Body))
		}
		examples++
	}
	if examples != 3 {
		t.Errorf("%d example functions, want 3", examples)
	}
}
