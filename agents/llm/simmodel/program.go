package simmodel

import (
	"strings"

	"github.com/ambibench/ambibench/agents/grounding"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/program"
)

// program writes a decision as the body of a ProgPrompt task function, in
// the format of the prompt's examples: one question and nothing after it
// (its reply comes back in the next prompt), or each remaining move
// followed by an assertion that checks it, with the move again as the
// recovery step. It prints with the parser's own printer, so what it
// writes is what the workflow reads.
func (c *call) program() llm.Reply {
	d := c.decide()
	var p program.Program
	switch d.Kind {
	case grounding.ActAsk, grounding.ActAskRobot:
		tool, args := c.question(d.Decision)
		q := program.Call{Name: program.AskRobot, Args: []string{args["message"]}}
		if tool == program.Ask {
			q = program.Call{Name: program.Ask, Args: []string{args["tag"], args["question"]}}
		} else {
			for _, mv := range c.handOff(d) {
				p.Body = append(p.Body, program.Move(mv.Pick, mv.Place)...)
			}
		}
		p.Body = append(p.Body, q)
	case grounding.ActMove:
		for _, mv := range c.moves(d) {
			p.Body = append(p.Body, program.Move(mv.Pick, mv.Place)...)
		}
	}
	if len(p.Body) == 0 {
		// Stuck, or nothing left to move: a body of one comment, which
		// runs nothing, so the program ends.
		why := "nothing left to do"
		if d.Kind == grounding.ActStuck {
			why = "cannot go on: " + strings.Join(strings.Fields(d.Text), " ")
		}
		return llm.Reply{Text: program.Indent + "# " + why + "\n", FinishReason: llm.FinishStop}
	}
	return llm.Reply{Text: p.String(), FinishReason: llm.FinishStop}
}

// answerProgram serves the other robot's message in the ProgPrompt shape:
// a program that makes the move it asks for (a block to the shared
// workspace, or from there to a destination), with the assertion that
// checks it; or, when there is no move to make, a body of one comment
// saying why.
func (c *call) answerProgram() llm.Reply {
	pick, place, reply := c.partnerMove()
	if reply != nil { // its object list is shown whole, so the reply is a sentence
		return llm.Reply{Text: program.Indent + "# " + reply.Text + "\n", FinishReason: llm.FinishStop}
	}
	return llm.Reply{Text: program.Program{Body: program.Move(pick, place)}.String(), FinishReason: llm.FinishStop}
}
