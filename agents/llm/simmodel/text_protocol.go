package simmodel

import (
	"encoding/json"
	"fmt"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/sgcottext"
)

// textProtocol answers a call in SG-CoT's text protocol: the model reads
// the text conversation as the tool-call conversation it is (each reply's
// request a call, the next message's results its results), decides as
// the tool-calling planner does, and writes the decision as a thought and
// one request, or as the final decisions.
func (c *call) textProtocol() llm.Reply {
	c.req = asToolCalls(c.req, c.cc.Requests)
	return textReply(c.tabletopRole())
}

// asToolCalls rewrites a conversation in the text protocol as tool calls:
// a reply the protocol reads becomes its call (the final decisions, one
// pick_and_place per move), with the results of the message after it; a
// reply it refused stays text, as does every other message. The requests
// the prompt offers stand for the tool declarations.
func asToolCalls(req llm.Request, requests []string) llm.Request {
	out := req
	out.Messages = make([]llm.Message, 0, len(req.Messages))
	out.Tools = nil
	for _, r := range requests {
		out.Tools = append(out.Tools, llm.ToolDecl{Name: r})
	}
	n := 0
	for i := 0; i < len(req.Messages); i++ {
		m := req.Messages[i]
		if m.Role != llm.RoleAssistant {
			out.Messages = append(out.Messages, m)
			continue
		}
		reply, err := sgcottext.Parse(m.Text)
		if err != nil {
			out.Messages = append(out.Messages, m)
			continue
		}
		var results []string
		if i+1 < len(req.Messages) && req.Messages[i+1].Role == llm.RoleUser {
			if rs, ok := sgcottext.ParseResults(req.Messages[i+1].Text); ok {
				results = rs
				i++
			}
		}
		var calls []llm.ToolCall
		if reply.Request != nil {
			tool, args := reply.Request.Call()
			calls = append(calls, toolCall(tool, args))
		} else {
			for _, mv := range reply.Moves {
				calls = append(calls, toolCall("pick_and_place", map[string]string{"pick": mv.Pick, "place": mv.Place}))
			}
		}
		// A call without a result was never carried out (the moves after
		// a refused one): it is not part of what happened.
		calls = calls[:min(len(calls), len(results))]
		for j := range calls {
			calls[j].ID = fmt.Sprintf("call_%d", n)
			n++
		}
		out.Messages = append(out.Messages, llm.Message{Role: llm.RoleAssistant, ToolCalls: calls})
		for j, tc := range calls {
			out.Messages = append(out.Messages, llm.Message{Role: llm.RoleTool, ToolCallID: tc.ID, Name: tc.Name, Text: results[j]})
		}
	}
	return out
}

// textReply writes a reply of tool calls in the text protocol: calls that
// end in done are the final decisions, their moves; otherwise the first
// call is the request (a hand-over's move first, its message at the next
// call, which sees the move made); a reply in text is the thought of an
// empty final decision (the partner's answer).
func textReply(r llm.Reply) llm.Reply {
	out := llm.Reply{FinishReason: llm.FinishStop}
	if len(r.ToolCalls) == 0 {
		out.Text = sgcottext.Reply{Thought: r.Text, Moves: []sgcottext.Move{}}.String()
		return out
	}
	if last := r.ToolCalls[len(r.ToolCalls)-1]; last.Name == "done" {
		moves := []sgcottext.Move{}
		for _, tc := range r.ToolCalls {
			var a struct{ Pick, Place string }
			if tc.Name == "pick_and_place" && json.Unmarshal(tc.Args, &a) == nil {
				moves = append(moves, sgcottext.Move{Pick: a.Pick, Place: a.Place})
			}
		}
		thought := "I know what to do."
		if len(moves) == 0 {
			thought = "Nothing is left to do."
		}
		out.Text = sgcottext.Reply{Thought: thought, Moves: moves}.String()
		return out
	}
	tc := r.ToolCalls[0]
	var args map[string]string
	_ = json.Unmarshal(tc.Args, &args) // the planner's own calls: maps of strings
	req, ok := sgcottext.FromCall(tc.Name, args)
	if !ok {
		// An ask whose tag the protocol has no request for: the model
		// writes it as the nearest it has.
		req = &sgcottext.Request{Name: sgcottext.AskUnderspecified, Text: args["question"]}
	}
	out.Text = sgcottext.Reply{Thought: thoughtFor(req), Request: req}.String()
	return out
}

// thoughtFor is the simulated model's reasoning before a request: one
// sentence of why, the same for every request of a kind.
func thoughtFor(r *sgcottext.Request) string {
	switch r.Name {
	case sgcottext.RetrieveNode:
		return "I look up the nodes the instruction refers to."
	case sgcottext.RetrieveEdge:
		return "I look up how these objects stand to each other."
	case sgcottext.AskRobot:
		return "What I need is not in my view, so I ask the other robot."
	case sgcottext.PickAndPlace:
		return "I make this move first."
	}
	return "The table does not settle the instruction, so I ask the person."
}
