package agents

import (
	"context"
	"encoding/json"
	"fmt"
)

// These helpers make agents read like plans. Each returns the tool's
// result; ErrEnded reports that the episode is over.

// ErrEnded stops an agent's run when the episode has ended.
var ErrEnded = fmt.Errorf("episode ended")

// Call marshals args and calls a tool.
func Call(ctx context.Context, env Env, name string, args any) (Result, error) {
	var raw json.RawMessage
	if args != nil {
		b, err := json.Marshal(args)
		if err != nil {
			return Result{}, err
		}
		raw = b
	}
	return env.Call(ctx, ToolCall{Name: name, Args: raw})
}

// Check passes a call's result on, and turns a result that ended the
// episode into ErrEnded.
func Check(r Result, err error) (Result, error) {
	if err != nil {
		return r, err
	}
	if r.Ended {
		return r, ErrEnded
	}
	return r, nil
}

// RetrieveNode calls retrieve_node.
func RetrieveNode(ctx context.Context, env Env, a RetrieveNodeArgs) (Result, error) {
	return Check(Call(ctx, env, ToolRetrieveNode, a))
}

// RetrieveEdge calls retrieve_edge.
func RetrieveEdge(ctx context.Context, env Env, a RetrieveEdgeArgs) (Result, error) {
	return Check(Call(ctx, env, ToolRetrieveEdge, a))
}

// PickAndPlace calls pick_and_place.
func PickAndPlace(ctx context.Context, env Env, pick, place string) (Result, error) {
	return Check(Call(ctx, env, ToolPickAndPlace, PickAndPlaceArgs{Pick: pick, Place: place}))
}

// Ask calls ask.
func Ask(ctx context.Context, env Env, tag, question string) (Result, error) {
	return Check(Call(ctx, env, ToolAsk, AskArgs{Tag: tag, Question: question}))
}

// AskRobot calls ask_robot.
func AskRobot(ctx context.Context, env Env, message string) (Result, error) {
	return Check(Call(ctx, env, ToolAskRobot, AskRobotArgs{Message: message}))
}

// Done calls done.
func Done(ctx context.Context, env Env) error {
	_, err := Call(ctx, env, ToolDone, nil)
	return err
}

// Finish turns ErrEnded into a normal end of run.
func Finish(err error) error {
	if err == ErrEnded {
		return nil
	}
	return err
}
