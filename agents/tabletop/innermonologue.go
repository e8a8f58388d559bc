package tabletop

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

func init() {
	agents.RegisterWorkflow("inner-monologue", "LLM workflow: Inner Monologue; one action per turn in a closed loop, every move answered with success detection and a description of what changed; may ask the person",
		func(cfg agents.Config) (agents.Agent, error) {
			return &innerMonologue{model: cfg.Model, perception: cfg.Perception, askRobotFirst: cfg.AskRobotFirst}, nil
		})
	// Under --perception image it sees the table through the camera image
	// (eyes.go); --perception detector gives it the detector's list.
	agents.SetShowsImages("inner-monologue", "--perception detector")
}

// innerMonologue is Inner Monologue as the SG-CoT paper runs it on the
// tabletop: the model sees the instruction and the objects the robot
// detects (ids, attributes and positions; no relation graph, see
// objects.go) once, then acts one tool call per turn. After each pick_and_place the robot looks
// again, and the tool result is the environment's language feedback —
// whether the block reached its destination, and what changed — so that a
// slipped grasp or a block that landed beside its bowl is seen and can be
// retried. Questions to the person (and to the other robot) are answered in
// the same loop.
type innerMonologue struct {
	model         llm.Model
	perception    string // how it sees the table (eyes)
	askRobotFirst bool   // agents.Config.AskRobotFirst
}

const imMaxTurns = 16 // model calls per episode

func (a *innerMonologue) Run(ctx context.Context, env agents.Env) error {
	eyes := newEyes(a.model, a.perception, env)
	s := &seeing{Env: eyes.acting(env), eyes: eyes}
	req, l, err := listRequest(ctx, eyes, s, true, a.askRobotFirst, "inner_monologue_system.tmpl", "inner_monologue_user.tmpl")
	if err != nil {
		return agents.Finish(err)
	}
	s.seen = l.graph
	loop := &monologue{model: a.model, env: s, req: req}
	return takeTurns(ctx, env, "inner-monologue", imMaxTurns, loop.turn)
}

// Respond answers the partner robot from Inner Monologue's own view: its
// object list, and the same feedback after each move, so that a
// hand-over whose grasp slipped short of the shared workspace is seen and
// retried, where an open-loop helper would report it done and leave the
// block out of reach.
func (a *innerMonologue) Respond(ctx context.Context, env agents.Env, message string) (string, error) {
	return answerFromList(ctx, a.model, a.perception, env, message, true)
}

// monologue is the closed loop. Unlike conversation, it does not run the
// calls that follow a failed one in the same reply.
type monologue struct {
	model     llm.Model
	env       agents.Env // a *seeing, so that moves are answered with feedback
	req       llm.Request
	malformed int
}

// turn makes one model call and runs its tool calls. ended is true when
// the episode is over.
func (m *monologue) turn(ctx context.Context) (ended bool, err error) {
	reply, err := m.model.Generate(ctx, m.req)
	if err != nil {
		return false, fmt.Errorf("model %s: %w", m.model.Name(), err)
	}
	m.req.Messages = append(m.req.Messages, llm.Message{Role: llm.RoleAssistant, Text: reply.Text, ToolCalls: reply.ToolCalls})
	if len(reply.ToolCalls) == 0 {
		m.malformed++
		if m.malformed >= maxMalformed {
			if err := agents.Done(ctx, m.env); err != nil {
				return true, err
			}
			return true, fmt.Errorf("model %s: %d replies in a row without a tool call; last: %.200q", m.model.Name(), m.malformed, reply.Text)
		}
		m.req.Messages = append(m.req.Messages, llm.Message{Role: llm.RoleUser, Text: "Your reply had no tool call. Take the next action with one tool call."})
		return false, nil
	}
	m.malformed = 0
	// The model was asked for one action; when it sends several, each
	// still needs a result, but one planned before a failure is stale.
	failed := ""
	for _, tc := range reply.ToolCalls {
		if failed != "" {
			m.req.Messages = append(m.req.Messages, llm.Message{Role: llm.RoleTool, ToolCallID: tc.ID, Name: tc.Name,
				Text: "Skipped: not run, because " + failed + " did not succeed. Decide again from its result."})
			continue
		}
		r, err := m.env.Call(ctx, agents.ToolCall{Name: tc.Name, Args: tc.Args})
		if err != nil {
			return true, err
		}
		m.req.Messages = append(m.req.Messages, llm.Message{Role: llm.RoleTool, ToolCallID: tc.ID, Name: tc.Name, Text: r.Text})
		if r.Ended {
			return true, nil
		}
		if r.Error != "" || (tc.Name == agents.ToolPickAndPlace && !strings.HasPrefix(r.Text, successYes)) {
			failed = callName(tc)
		}
	}
	return false, nil
}

// callName names a call for the model: `pick_and_place {"pick":…}`.
func callName(tc llm.ToolCall) string {
	args := strings.TrimSpace(string(tc.Args))
	if args == "" || args == "{}" || args == "null" {
		return tc.Name
	}
	return tc.Name + " " + args
}

// seeing is an Env whose robot looks at the table after every move it
// makes, and the scene it sees becomes the Feedback of the move: with
// perception=detector an accepted pick_and_place is followed by
// detect_objects, and the scene is what its boxes give (sceneOf); with
// perception=image the robot takes a new image and the model writes its
// scene graph (a detection call and a scene-graph call, eyes.see), as
// Inner Monologue's scene descriptor and success detector read the
// camera. Refusals and the other tools pass through unchanged.
type seeing struct {
	agents.Env
	eyes *eyes
	// seen is the scene of the last look, against which the next feedback
	// says what changed.
	seen *scenes.Graph
}

func (e *seeing) Call(ctx context.Context, c agents.ToolCall) (agents.Result, error) {
	r, err := e.Env.Call(ctx, c)
	if err != nil || r.Ended || r.Error != "" {
		return r, err
	}
	switch c.Name {
	case agents.ToolDetectObjects:
		if ds, err := parseDetections(r.Text); err == nil {
			e.seen = sceneOf(ds)
		}
		return r, nil
	case agents.ToolPickAndPlace:
	default:
		return r, nil
	}
	// The table accepted the move, so its arguments decode.
	args, err := agents.DecodeArgs(c)
	if err != nil {
		return agents.Result{}, fmt.Errorf("inner-monologue: the table ran a pick_and_place whose arguments do not decode: %w", err)
	}
	pp := args.(*agents.PickAndPlaceArgs)
	if e.eyes != nil && e.eyes.image {
		l, err := e.eyes.see(ctx, true)
		if err != nil {
			return agents.Result{}, fmt.Errorf("inner-monologue: looking after %s: %w", callName(llm.ToolCall{Name: c.Name, Args: c.Args}), err)
		}
		text, _ := Feedback(e.seen, l.graph, pp.Pick, pp.Place, e.Partner() != "")
		e.seen = l.graph
		return agents.Result{Text: text, Graph: l.graph}, nil
	}
	look, err := e.Env.Call(ctx, agents.ToolCall{Name: agents.ToolDetectObjects})
	switch {
	case err != nil:
		return agents.Result{}, err
	case look.Ended:
		// The look hit the step limit: report the move as the table did.
		r.Ended = true
		return r, nil
	case look.Error != "":
		return agents.Result{}, fmt.Errorf("inner-monologue: detect_objects after %s refused: %s", callName(llm.ToolCall{Name: c.Name, Args: c.Args}), look.Error)
	}
	ds, err := parseDetections(look.Text)
	if err != nil {
		return agents.Result{}, fmt.Errorf("inner-monologue: after %s: %w", callName(llm.ToolCall{Name: c.Name, Args: c.Args}), err)
	}
	g := sceneOf(ds)
	text, _ := Feedback(e.seen, g, pp.Pick, pp.Place, e.Partner() != "")
	e.seen = g
	return agents.Result{Text: text, Graph: g}, nil
}

// The feedback's first sentence, which a model (the simulated one too)
// reads as the outcome.
const (
	successYes = "Success: yes."
	successNo  = "Success: no."
)

// Feedback is the language feedback of a move, read off the scene graphs
// before and after it: success detection, "Success: yes." or "Success:
// no.", then a passive description of what changed — where the moved
// block is, and any other object whose place changed. twoRobots says the
// table has workspaces.
//
// The decision follows the scene graph's relations, as the episode's goal
// does: a block is in a bowl when the graph says inside_of, on a block
// when it says on_top_of. The graph carries no coordinates, so a named
// place or the shared workspace is judged by the workspace attribute: at a
// two-robot table the block must lie in the workspace that holds the
// place; at a one-robot table any spot in view passes.
func Feedback(before, after *scenes.Graph, pick, place string, twoRobots bool) (text string, success bool) {
	success = placedAt(after, pick, place, twoRobots)
	var b strings.Builder
	if success {
		b.WriteString(successYes)
	} else {
		b.WriteString(successNo)
	}
	for _, id := range changed(before, after, pick) {
		fmt.Fprintf(&b, " The %s is now %s.", id, situation(after, id))
	}
	return b.String(), success
}

// changed lists the moved block first, then every other object whose
// support differs between the two graphs (knocked out of a bowl, pushed
// to another workspace, out of view), in the order of the graph after and
// then of the graph before, for objects gone from view. Being near other
// objects is not a change: every move changes some of it.
func changed(before, after *scenes.Graph, pick string) []string {
	out := []string{pick}
	add := func(g *scenes.Graph) {
		if g == nil {
			return
		}
		for _, n := range g.Nodes {
			if slices.Contains(out, n.ID) {
				continue
			}
			if support(before, n.ID) != support(after, n.ID) {
				out = append(out, n.ID)
			}
		}
	}
	add(after)
	add(before)
	return out
}

// maxNear bounds the neighbours a description names.
const maxNear = 2

// situation says where an object is by the graph: its support, and for an
// object on the table the objects near it — "in the blue bowl 1", "on the
// table in the shared workspace near the green bowl 2", "out of view".
func situation(g *scenes.Graph, id string) string {
	s := support(g, id)
	if s != "on the table" && !strings.HasPrefix(s, "on the table ") {
		return s
	}
	var near []string
	for _, e := range g.Edges() {
		if e.Source == id && e.Relation == scenes.RelNear && len(near) < maxNear {
			near = append(near, e.Target)
		}
	}
	if len(near) > 0 {
		s += " near the " + strings.Join(near, " and the ")
	}
	return s
}

// support says what holds an object up, by the graph: a bowl, a block, or
// the table (in a workspace, at a two-robot table); or that it is out of
// view.
func support(g *scenes.Graph, id string) string {
	if g == nil {
		return "out of view"
	}
	n, ok := g.Node(id)
	if !ok {
		return "out of view"
	}
	for _, e := range g.Edges() {
		if e.Source != id {
			continue
		}
		switch e.Relation {
		case scenes.RelInsideOf:
			return "in the " + e.Target
		case scenes.RelOnTopOf:
			return "on the " + e.Target
		}
	}
	switch ws := n.Attributes[scenes.AttrWorkspace]; ws {
	case "":
		return "on the table"
	case scenes.RegionShared:
		return "on the table in the shared workspace"
	default:
		return "on the table in " + ws + "'s workspace"
	}
}

// placedAt reports whether block pick is at place in graph g.
func placedAt(g *scenes.Graph, pick, place string, twoRobots bool) bool {
	if g == nil {
		return false
	}
	if _, ok := g.Node(pick); !ok {
		return false
	}
	point, named := scenes.Places[place]
	if place == scenes.SharedPlace || named {
		// A block put at a place may land in a bowl or on a block that
		// stands there, and still be at the place: only the workspace
		// counts. A one-robot table has none, so there the graph cannot
		// tell a named place from anywhere else on the table.
		if !twoRobots {
			return named
		}
		want := scenes.RegionShared
		if named {
			want = scenes.RegionAt(true, point.X(), point.Y())
		}
		n, _ := g.Node(pick)
		return n.Attributes[scenes.AttrWorkspace] == want
	}
	t, ok := g.Node(place)
	if !ok {
		return false
	}
	rel := scenes.RelOnTopOf
	if t.Attributes[scenes.AttrType] == scenes.ClassBowl {
		rel = scenes.RelInsideOf
	}
	for _, e := range g.Edges() {
		if e.Source == pick && e.Target == place && e.Relation == rel {
			return true
		}
	}
	return false
}
