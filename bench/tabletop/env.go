package tabletop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/ambibench/ambibench/bench"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/sim/physics"
	"github.com/ambibench/ambibench/tasks"
)

// episodeState is what both robots of an episode share: the world, the
// user, and the tallies the record is made of.
type episodeState struct {
	ep    *tasks.Episode
	world *physics.World
	limit int

	steps int
	ended bool
	bench.User
	askedRobot bool
	toolCalls  map[string]int
	messages   []results.Message
	actedBy    []string
	partnerErr error
	// misperceived is what the lead robot's own perception got wrong, as
	// its workflow reported it (ReportPerception, perception_errors.go).
	misperceived perceptionErrors
	// views keeps each robot's perceived graph while the table is
	// unchanged (see perceive).
	views map[string]*view
	// table is the world's objects while the table is unchanged, once
	// asked for (objects).
	table []scenes.Object
	// The episode's name (episodeName) and the moves made on its table,
	// which name a camera image of it (sceneName).
	episode string
	moves   []string
	// seeing is set when the lead robot's workflow names what it sees in
	// its camera image: the user then says which object is meant by where
	// it stands (answerSeen), when that still names it alone on the table.
	seeing     bool
	answerSeen string
}

// robotEnv is one robot's view of an episode.
type robotEnv struct {
	st          *episodeState
	robot       string
	partner     string
	instruction string
	tools       []agents.Tool
	// partnerAgent answers ask_robot; partnerEnv is its view.
	partnerAgent agents.Responder
	partnerEnv   agents.Env
	// responding is set while this robot answers its partner: it may act
	// and look, but not talk to the user or message back.
	responding bool
}

func (e *robotEnv) Instruction() string  { return e.instruction }
func (e *robotEnv) Robot() string        { return e.robot }
func (e *robotEnv) Partner() string      { return e.partner }
func (e *robotEnv) Tools() []agents.Tool { return e.tools }
func (e *robotEnv) graph() *scenes.Graph { g, _ := e.perceive(); return g }

// truthEnv is the view of an agent that reads the ground truth.
type truthEnv struct {
	*robotEnv
	truth *agents.Truth
}

func (e truthEnv) Truth() *agents.Truth { return e.truth }

func (e *robotEnv) Call(ctx context.Context, call agents.ToolCall) (agents.Result, error) {
	if err := ctx.Err(); err != nil {
		return agents.Result{}, err
	}
	if r, ok := e.Tally(call); !ok {
		return r, nil
	}
	st := e.st
	args, err := agents.DecodeArgs(call)
	if err != nil {
		return bench.Refused("%v", err), nil
	}
	switch a := args.(type) {
	case *agents.NoArgs:
		if call.Name == agents.ToolDone {
			if e.responding {
				return bench.Refused("done: only the robot given the instruction ends the episode"), nil
			}
			st.ended = true
			return agents.Result{Text: "The episode is over.", Ended: true}, nil
		}
		if call.Name == agents.ToolDetectObjects {
			return agents.Result{Text: e.detectObjects()}, nil
		}
		g, text := e.graphJSON()
		return agents.Result{Text: text, Graph: g}, nil
	case *agents.RetrieveNodeArgs:
		q := scenes.NodeQuery{Name: a.Name}
		if a.AttrKey != "" {
			q.Attrs = map[string]string{a.AttrKey: a.AttrVal}
		}
		ids := e.graph().RetrieveNode(q)
		return agents.Result{Text: jsonList(ids), Items: ids}, nil
	case *agents.RetrieveEdgeArgs:
		edges := e.graph().RetrieveEdge(scenes.EdgeQuery{Source: a.Source, Target: a.Target, Relation: a.Relation})
		items := make([]string, len(edges))
		for i, ed := range edges {
			items[i] = ed.String()
		}
		return agents.Result{Text: jsonList(items), Items: items, Edges: edges}, nil
	case *agents.PickAndPlaceArgs:
		if a.PickAt != nil || a.PlaceAt != nil {
			return e.pickAndPlaceAt(a)
		}
		pick, place := e.actual(a.Pick), e.actual(a.Place)
		if _, err := st.world.PickAndPlace(e.robot, pick, place); err != nil {
			var ae *physics.ActionError
			if errors.As(err, &ae) {
				return bench.Refused("%s", e.perceived(ae.Reason, a.Pick, a.Place)), nil
			}
			return agents.Result{}, err
		}
		st.changed()
		st.actedBy = append(st.actedBy, e.robot)
		st.moves = append(st.moves, e.robot+" "+pick+" > "+place)
		return agents.Result{Text: fmt.Sprintf("%s put %s at %s.", e.robot, a.Pick, a.Place)}, nil
	case *agents.AskArgs:
		if e.responding {
			return bench.Refused("ask: only the robot given the instruction talks with the user"), nil
		}
		return st.ask(a), nil
	case *agents.AskRobotArgs:
		return e.askRobot(ctx, a.Message)
	}
	return agents.Result{}, fmt.Errorf("bench: no handler for tool %q", call.Name)
}

// Tally counts a call: it takes a step and counts in the record's tool
// calls. Call begins with it, and a workflow that answers a call itself,
// from a scene graph of its own making (SG-CoT's retrievals over the
// graph its perception call wrote), calls it alone. ok is false when the
// episode is over, or ends now at the step limit; r then says so.
func (e *robotEnv) Tally(call agents.ToolCall) (r agents.Result, ok bool) {
	st := e.st
	if st.ended {
		return agents.Result{Text: "The episode is over.", Ended: true}, false
	}
	st.steps++
	st.toolCalls[call.Name]++
	if st.steps > st.limit {
		st.ended = true
		return agents.Result{Text: fmt.Sprintf("The step limit of %d is reached; the episode is over.", st.limit), Ended: true}, false
	}
	return agents.Result{}, true
}

// ask puts a question to the simulated user; a wrong tag ends the
// episode.
func (st *episodeState) ask(a *agents.AskArgs) agents.Result {
	answer := st.ep.Answer
	if st.seeing && st.answerSeen != "" {
		answer = st.answerSeen
	}
	r := st.Answer(a.Tag, st.ep.Label, answer)
	st.ended = st.ended || r.Ended
	return r
}

func (e *robotEnv) askRobot(ctx context.Context, msg string) (agents.Result, error) {
	st := e.st
	switch {
	case e.partner == "":
		return bench.Refused("ask_robot: there is no other robot at this table"), nil
	case e.responding:
		return bench.Refused("ask_robot: cannot message back while answering a message"), nil
	case e.partnerAgent == nil:
		return bench.Refused("ask_robot: the other robot cannot answer messages"), nil
	}
	if st.ep.Label == tasks.LabelPartialObservability {
		// Under partial observability asking the partner is the
		// clarification that counts.
		st.Questions++
		st.TagCorrect++
		if !st.askedRobot && !st.Asked {
			st.FirstTag = tasks.LabelPartialObservability
		}
	}
	st.askedRobot = true
	pe := unwrap(e.partnerEnv)
	pe.responding = true
	reply, err := e.partnerAgent.Respond(ctx, e.partnerEnv, msg)
	pe.responding = false
	if err != nil {
		if ctx.Err() != nil {
			return agents.Result{}, ctx.Err()
		}
		st.partnerErr = err
		reply = "(the other robot failed: " + err.Error() + ")"
	}
	st.messages = append(st.messages, results.Message{From: e.robot, To: e.partner, Text: msg, Reply: reply})
	if st.ended {
		return agents.Result{Text: reply, Ended: true}, nil
	}
	return agents.Result{Text: reply}, nil
}

func unwrap(e agents.Env) *robotEnv {
	switch v := e.(type) {
	case *robotEnv:
		return v
	case truthEnv:
		return v.robotEnv
	}
	panic("bench: foreign Env")
}

func jsonList(items []string) string {
	if len(items) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(items)
	return strings.TrimSpace(string(b))
}
