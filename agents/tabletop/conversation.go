package tabletop

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/ambibench/ambibench/agents"

	"github.com/ambibench/ambibench/agents/llm"
)

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
