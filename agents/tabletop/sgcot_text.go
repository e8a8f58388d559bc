package tabletop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/sgcottext"
	"github.com/ambibench/ambibench/scenes"
)

func init() {
	agents.RegisterWorkflow("sgcot-text", "SG-CoT in its paper's text protocol: perceives as sgcot does, then each reply is a THOUGHT and one REQUEST (retrieve_node, retrieve_edge, ask_multiplicity, ask_absence, ask_underspecified, ask_robot, pick_and_place) or the FINAL_DECISIONS as a JSON list; a reply outside the protocol is returned with why",
		sgcotFactory("sgcot-text", sgcotText))
	agents.SetShowsImages("sgcot-text", "--perception detector")
}

// sgcotTextPrompt is the data of the text protocol's prompts: the
// tool-calling SG-CoT's, and the requests the prompt offers.
type sgcotTextPrompt struct {
	sgcotPrompt
	Requests string
}

// textConversation is a conversation in SG-CoT's text protocol: each
// reply is parsed (sgcottext.Parse), its request carried out on the
// table, and the result returned in a user message; a reply the protocol
// refuses is returned with why, and maxMalformed of them in a row end
// the episode as the workflow's error.
type textConversation struct {
	model     llm.Model
	env       agents.Env
	g         *scenes.Graph // for retrieve_node's further filters
	req       llm.Request
	malformed int
	// partner makes the conversation the answer to the other robot: its
	// final decisions end the answer, not the episode.
	partner bool
	thought string // the last reply's thought
}

// turn makes one model call and carries out its reply. ended is true when
// the episode is over (or, for the partner, the answer).
func (c *textConversation) turn(ctx context.Context) (ended bool, err error) {
	reply, err := c.model.Generate(ctx, c.req)
	if err != nil {
		return false, fmt.Errorf("model %s: %w", c.model.Name(), err)
	}
	c.req.Messages = append(c.req.Messages, llm.Message{Role: llm.RoleAssistant, Text: reply.Text})
	r, perr := sgcottext.Parse(reply.Text)
	if perr == nil && r.Request != nil && !c.offers(r.Request.Name) {
		perr = &sgcottext.Error{Reason: fmt.Sprintf("%s is not a request this call offers (%s)", r.Request.Name, strings.Join(c.req.Context.Requests, ", "))}
	}
	if perr != nil {
		c.malformed++
		if c.malformed >= maxMalformed {
			if !c.partner {
				if err := agents.Done(ctx, c.env); err != nil {
					return true, err
				}
			}
			return true, fmt.Errorf("model %s: %d replies in a row outside the protocol; the last: %w", c.model.Name(), c.malformed, perr)
		}
		c.req.Messages = append(c.req.Messages, llm.Message{Role: llm.RoleUser, Text: sgcottext.Refusal(perr)})
		return false, nil
	}
	c.malformed = 0
	c.thought = r.Thought
	if r.Request != nil {
		res, err := c.carryOut(ctx, r.Request)
		if err != nil || res.Ended {
			return true, err
		}
		c.req.Messages = append(c.req.Messages, llm.Message{Role: llm.RoleUser, Text: sgcottext.Results(res.Text)})
		return false, nil
	}
	// The final decisions are final: each move is made, a refused one
	// too (the table says why in the record), and the episode ends, as
	// when a tool-calling planner calls pick_and_place and done in one
	// reply.
	for _, mv := range r.Moves {
		res, err := agents.Call(ctx, c.env, agents.ToolPickAndPlace, agents.PickAndPlaceArgs{Pick: mv.Pick, Place: mv.Place})
		if err != nil || res.Ended {
			return true, err
		}
	}
	if c.partner {
		return true, nil
	}
	return true, agents.Done(ctx, c.env)
}

// offers reports whether the call's prompt offers the request.
func (c *textConversation) offers(name string) bool {
	return slices.Contains(c.req.Context.Requests, name)
}

// carryOut makes the tool call of a request. A retrieve_node with several
// attribute filters is the call of its first, narrowed by the others on
// the perceived graph.
func (c *textConversation) carryOut(ctx context.Context, r *sgcottext.Request) (agents.Result, error) {
	tool, args := r.Call()
	data, err := json.Marshal(args)
	if err != nil {
		return agents.Result{}, err
	}
	res, err := c.env.Call(ctx, agents.ToolCall{Name: tool, Args: data})
	if err != nil || res.Error != "" || r.Name != sgcottext.RetrieveNode || len(r.Attrs) < 2 || c.g == nil {
		return res, err
	}
	q := scenes.NodeQuery{Name: r.Node, Attrs: map[string]string{}}
	for _, a := range r.Attrs {
		if v, dup := q.Attrs[a.Key]; dup && v != a.Val {
			return agents.Result{Text: "[]"}, nil // two values of one attribute: no node has both
		}
		q.Attrs[a.Key] = a.Val
	}
	ids := c.g.RetrieveNode(q)
	return agents.Result{Text: jsonList(ids), Items: ids}, nil
}

// sgcotTextRequests are the requests the planning prompt offers: every
// one, ask_robot only with a partner.
func sgcotTextRequests(partner bool) []string {
	var out []string
	for _, r := range sgcottext.Requests {
		if r != sgcottext.AskRobot || partner {
			out = append(out, r)
		}
	}
	return out
}

// runText is SG-CoT's loop in the text protocol, over the graph the robot
// perceived: the first prompt holds the instruction, the objects and the
// schema; each reply a thought and one request, or the final decisions;
// after maxTurns the model is told to decide, without retrieval.
func (a *sgcot) runText(ctx context.Context, env agents.Env, g *scenes.Graph, sight *sight) error {
	objects, keys, rels := outline(g)
	requests := sgcotTextRequests(env.Partner() != "")
	data := sgcotTextPrompt{sgcotPrompt: sgcotPrompt{
		promptData: promptData{Instruction: env.Instruction(), Robot: env.Robot(), Partner: env.Partner(),
			Places: strings.Join(scenes.PlaceNames, ", "), AskRobotFirst: a.askRobotFirst},
		Objects: strings.Join(objects, ", "), AttrKeys: strings.Join(keys, ", "), Relations: strings.Join(rels, ", "),
		MaxTurns: a.maxTurns, Image: a.image,
	}, Requests: strings.Join(requests, ", ")}
	system, err := renderIn(ctx, "sgcot_text_system.tmpl", data)
	if err != nil {
		return err
	}
	user, err := renderIn(ctx, "sgcot_user.tmpl", data.sgcotPrompt)
	if err != nil {
		return err
	}
	cc := &llm.CallContext{Role: llm.CallPlan, Track: "tabletop", Instruction: env.Instruction(), Robot: env.Robot(),
		Partner: env.Partner(), Objects: objects, Format: llm.FormatSGCoTText, Requests: requests}
	conv := &textConversation{model: a.model, env: env, g: g, req: llm.Request{
		System: system, Messages: []llm.Message{{Role: llm.RoleUser, Text: user}}, Context: cc,
	}}
	if sight != nil {
		sight.show(&conv.req)
	}
	for range a.maxTurns {
		ended, err := conv.turn(ctx)
		if ended || err != nil {
			return agents.Finish(err)
		}
	}
	// The forced decision: the asks and the final decisions only.
	forced, err := renderIn(ctx, "sgcot_text_forced.tmpl", data)
	if err != nil {
		return err
	}
	last := &conv.req.Messages[len(conv.req.Messages)-1]
	last.Text += "\n\n" + forced
	var decide []string
	for _, r := range requests {
		if strings.HasPrefix(r, "ask_") && r != sgcottext.AskRobot {
			decide = append(decide, r)
		}
	}
	conv.req.Context = cloneContext(cc)
	conv.req.Context.Requests = decide
	ended, err := conv.turn(ctx)
	if ended || err != nil {
		return agents.Finish(err)
	}
	if err := agents.Done(ctx, env); err != nil {
		return agents.Finish(err)
	}
	return fmt.Errorf("sgcot-text: no decision after %d turns and a forced one", a.maxTurns)
}

// cloneContext copies a call context, so that a later call's change does
// not reach a request already sent (a recorder keeps requests as sent).
func cloneContext(cc *llm.CallContext) *llm.CallContext {
	c := *cc
	return &c
}

// respondText answers the other robot in the text protocol: retrievals
// and pick_and_place requests over its own perceived graph, then its
// final decisions (the moves still to make, often none); the reply to the
// other robot is the last thought.
func (a *sgcot) respondText(ctx context.Context, env agents.Env, message string, g *scenes.Graph, sight *sight) (string, error) {
	objects, keys, rels := outline(g)
	data := sgcotAnswerPrompt{promptData: promptData{Robot: env.Robot(), Partner: env.Partner(), Message: message},
		Objects: strings.Join(objects, ", "), AttrKeys: strings.Join(keys, ", "), Relations: strings.Join(rels, ", "), Image: a.image}
	user, err := renderIn(ctx, "sgcot_text_answer.tmpl", data)
	if err != nil {
		return "", err
	}
	requests := []string{sgcottext.RetrieveNode, sgcottext.RetrieveEdge, sgcottext.PickAndPlace}
	cc := &llm.CallContext{Role: llm.CallAnswer, Track: "tabletop", Robot: env.Robot(), Partner: env.Partner(),
		Objects: objects, Message: message, Format: llm.FormatSGCoTText, Requests: requests}
	conv := &textConversation{model: a.model, env: env, g: g, partner: true, req: llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Text: user}}, Context: cc,
	}}
	if sight != nil {
		sight.show(&conv.req)
	}
	for range sgcotAnswerMaxTurns {
		ended, err := conv.turn(ctx)
		if err != nil {
			var perr *sgcottext.Error
			if errors.As(err, &perr) {
				// The answer failed, not the episode: the other robot
				// reads that it got none.
				return "I could not answer.", nil
			}
			return "", agents.Finish(err)
		}
		if ended {
			return conv.thought, nil
		}
	}
	return "I could not finish.", nil
}
