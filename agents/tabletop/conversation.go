package tabletop

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
)

// maxMalformed is the number of replies in a row without a usable call
// after which a workflow gives up.
const maxMalformed = 3

// conversation runs a tool loop: each turn calls the model, runs the tool
// calls of its reply in order, and feeds their results back.
type conversation struct {
	model     llm.Model
	env       agents.Env
	req       llm.Request
	malformed int
	// textEnds makes a reply without tool calls the end of the loop (the
	// answer to the partner) rather than a malformed turn.
	textEnds bool
	lastText string
}

// turn makes one model call. ended is true when the episode (or, with
// textEnds, the answer) is over.
func (c *conversation) turn(ctx context.Context) (ended bool, err error) {
	reply, err := c.model.Generate(ctx, c.req)
	if err != nil {
		return false, fmt.Errorf("model %s: %w", c.model.Name(), err)
	}
	c.req.Messages = append(c.req.Messages, llm.Message{Role: llm.RoleAssistant, Text: reply.Text, ToolCalls: reply.ToolCalls})
	if len(reply.ToolCalls) == 0 {
		if c.textEnds {
			c.lastText = strings.TrimSpace(reply.Text)
			return true, nil
		}
		c.malformed++
		if c.malformed >= maxMalformed {
			if err := agents.Done(ctx, c.env); err != nil {
				return true, err
			}
			return true, fmt.Errorf("model %s: %d replies in a row without a tool call; last: %.200q", c.model.Name(), c.malformed, reply.Text)
		}
		c.req.Messages = append(c.req.Messages, llm.Message{Role: llm.RoleUser, Text: "Your reply had no tool call. Act only through the tools."})
		return false, nil
	}
	c.malformed = 0
	for _, tc := range reply.ToolCalls {
		r, err := c.env.Call(ctx, agents.ToolCall{Name: tc.Name, Args: tc.Args})
		if err != nil {
			return true, err
		}
		c.req.Messages = append(c.req.Messages, llm.Message{Role: llm.RoleTool, ToolCallID: tc.ID, Name: tc.Name, Text: r.Text})
		if r.Ended {
			return true, nil
		}
	}
	return false, nil
}

// takeTurns runs turn until it says the episode ended or fails, at most
// maxTurns times; then the robot reports done, and the workflow, named
// agent, an episode that did not end.
func takeTurns(ctx context.Context, env agents.Env, agent string, maxTurns int, turn func(context.Context) (bool, error)) error {
	for range maxTurns {
		ended, err := turn(ctx)
		if ended || err != nil {
			return agents.Finish(err)
		}
	}
	if err := agents.Done(ctx, env); err != nil {
		return agents.Finish(err)
	}
	return fmt.Errorf("%s: no end after %d model calls", agent, maxTurns)
}

// refusedError is a step the table refused.
type refusedError struct{ reason string }

func (e *refusedError) Error() string { return "refused: " + e.reason }

// step takes one action the workflow chose itself (not the model) and
// writes it into the conversation as if the model had called it, so that a
// model taking over later sees it. It returns errEnded when the episode is
// over and a *refusedError when the table refused the action.
func (c *conversation) step(ctx context.Context, tool string, args any) error {
	data, err := json.Marshal(args)
	if err != nil {
		return err
	}
	n := 0
	for _, m := range c.req.Messages {
		n += len(m.ToolCalls)
	}
	id := fmt.Sprintf("step_%d", n)
	c.req.Messages = append(c.req.Messages, llm.Message{Role: llm.RoleAssistant,
		ToolCalls: []llm.ToolCall{{ID: id, Name: tool, Args: data}}})
	r, err := c.env.Call(ctx, agents.ToolCall{Name: tool, Args: data})
	if err != nil {
		return err
	}
	c.req.Messages = append(c.req.Messages, llm.Message{Role: llm.RoleTool, ToolCallID: id, Name: tool, Text: r.Text})
	switch {
	case r.Ended:
		return agents.ErrEnded
	case r.Error != "":
		return &refusedError{r.Error}
	}
	return nil
}

// loop lets the model go on for at most turns calls, then ends the
// episode.
func (c *conversation) loop(ctx context.Context, turns int) error {
	for range turns {
		ended, err := c.turn(ctx)
		if err != nil {
			return err
		}
		if ended {
			return nil
		}
	}
	return agents.Done(ctx, c.env)
}
