package tabletop

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/internal/agenttest"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/llmtest"
	"github.com/ambibench/ambibench/agents/llm/simmodel"
	"github.com/ambibench/ambibench/scenes"
)

// relTable is a one-robot spatial table: a bowl at the middle, blocks in
// two directions of it, and a second bowl; its graph holds every kind of
// directional relation and near.
type relTable struct {
	objs []scenes.Object
}

func newRelTable() *relTable {
	return &relTable{objs: []scenes.Object{
		scenes.NewBowl("brown bowl 1", "brown", 0, -0.5),
		scenes.NewBlock("red block 1", "red", -0.18, -0.47),
		scenes.NewBlock("green block 1", "green", 0.04, -0.31),
		scenes.NewBowl("yellow bowl 1", "yellow", 0.2, -0.7),
	}}
}

func (e *relTable) Instruction() string {
	return "Pick up the block to the left of the brown bowl and place it in the yellow bowl."
}
func (e *relTable) Robot() string        { return scenes.Robot1 }
func (e *relTable) Partner() string      { return "" }
func (e *relTable) Tools() []agents.Tool { return agents.Tools(false) }

func (e *relTable) Call(_ context.Context, c agents.ToolCall) (agents.Result, error) {
	args, err := agents.DecodeArgs(c)
	if err != nil {
		return agents.Result{Text: "error: " + err.Error(), Error: err.Error()}, nil
	}
	switch a := args.(type) {
	case *agents.PickAndPlaceArgs:
		for i, o := range e.objs {
			if o.ID != a.Pick {
				continue
			}
			for _, d := range e.objs {
				if d.ID == a.Place {
					e.objs[i].Pose = d.Pose
					e.objs[i].Pose[2] = scenes.BlockSize / 2
				}
			}
			return agents.Result{Text: "robot1 put " + a.Pick + " at " + a.Place + "."}, nil
		}
		return agents.Result{Text: "error: no such block", Error: "no such block"}, nil
	case *agents.NoArgs:
		if c.Name == agents.ToolDone {
			return agents.Result{Text: "The episode is over.", Ended: true}, nil
		}
		return lookResult(c.Name, e.objs), nil
	}
	return agents.Result{Text: "ok"}, nil
}

// sentText is every prompt text of a request: the system prompt and the
// user messages (tool results are the table's replies, not the prompt).
func sentText(req llm.Request) string {
	var b strings.Builder
	b.WriteString(req.System)
	for _, m := range req.Messages {
		if m.Role == llm.RoleUser {
			b.WriteString("\n" + m.Text)
		}
	}
	return b.String()
}

// What each tabletop baseline is shown: CLARA, Inner Monologue and
// ProgPrompt see the detected objects with their attributes and positions
// and no relation — no edge sentence, no relation name, no graph JSON —
// in any prompt they send; direct, the full-graph ablation, sees every
// relation. The context of each call carries no graph either, so the
// simulated model cannot read relations the prompt does not show.
func TestBaselinePromptsHoldObjectsNotRelations(t *testing.T) {
	start := newRelTable()
	g := scenes.BuildGraph(start.objs)
	if g.NumEdges() == 0 {
		t.Fatal("the table has no relations to keep out")
	}
	for _, tc := range []struct {
		workflow  string
		relations bool // the prompt must show the graph's relations
	}{
		{"clara", false},
		{"inner-monologue", false},
		{"progprompt", false},
		{"direct", true},
	} {
		m := &llmtest.Recorder{Model: simmodel.New(simmodel.Perfect, "sim:perfect")}
		agent, err := agenttest.Workflow(t, tc.workflow, m)
		if err != nil {
			t.Fatal(err)
		}
		if err := agent.Run(context.Background(), newRelTable()); err != nil {
			t.Fatalf("%s: %v", tc.workflow, err)
		}
		if len(m.Requests()) == 0 {
			t.Fatalf("%s made no model call", tc.workflow)
		}
		for i, req := range m.Requests() {
			text := sentText(req)
			where := fmt.Sprintf("%s call %d", tc.workflow, i)
			if tc.relations {
				for _, e := range g.Edges() {
					if !strings.Contains(text, fmt.Sprintf("%q:%q", "relation", e.Relation)) && !strings.Contains(text, e.Relation) {
						t.Errorf("%s: relation %s of the graph is not in the prompt", where, e.Relation)
					}
				}
				if !strings.Contains(text, `"edges"`) {
					t.Errorf("%s: the prompt holds no graph edges", where)
				}
				continue
			}
			for _, e := range g.Edges() {
				if strings.Contains(text, e.String()) {
					t.Errorf("%s: the prompt shows the relation %q", where, e.String())
				}
			}
			// The relation names only a graph writes, standing alone (a
			// ProgPrompt function may be named ..._left_of_...; "above",
			// "below" and "near" are English words the frame note uses).
			for _, rel := range scenes.Relations {
				if !strings.Contains(rel, "_") {
					continue
				}
				if strings.Contains(text, " "+rel+" ") || strings.Contains(text, `"`+rel+`"`) {
					t.Errorf("%s: the prompt names the relation %q", where, rel)
				}
			}
			if strings.Contains(text, `"edges"`) || strings.Contains(text, `"relation"`) {
				t.Errorf("%s: the prompt holds scene-graph JSON", where)
			}
			for _, o := range start.objs {
				pos := fmt.Sprintf("(%.3f, %.3f)", o.Pose.X(), o.Pose.Y())
				if !strings.Contains(text, o.ID) || !strings.Contains(text, pos) {
					t.Errorf("%s: object %s or its position %s is not in the prompt", where, o.ID, pos)
				}
			}
			if tc.workflow != "progprompt" {
				for _, o := range start.objs {
					if attrs := o.Color() + " " + o.Class; !strings.Contains(text, "("+attrs+")") {
						t.Errorf("%s: the attributes (%s) of %s are not in the prompt", where, attrs, o.ID)
					}
				}
			}
			if req.Context == nil || req.Context.Graph != nil || len(req.Context.Detections) != len(start.objs) {
				t.Errorf("%s: the context holds a graph or not the %d detected objects: %+v", where, len(start.objs), req.Context)
			}
		}
	}
}
