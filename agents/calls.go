package agents

import (
	"context"
	"fmt"
)

// These helpers make the reference agents read like plans. Each returns the
// tool's result; errEnded reports that the episode is over.

// errEnded stops an agent's run when the episode has ended.
var errEnded = fmt.Errorf("episode ended")

func check(r Result, err error) (Result, error) {
	if err != nil {
		return r, err
	}
	if r.Ended {
		return r, errEnded
	}
	return r, nil
}

func retrieveNode(ctx context.Context, env Env, a RetrieveNodeArgs) (Result, error) {
	return check(call(ctx, env, ToolRetrieveNode, a))
}

func retrieveEdge(ctx context.Context, env Env, a RetrieveEdgeArgs) (Result, error) {
	return check(call(ctx, env, ToolRetrieveEdge, a))
}

func pickAndPlace(ctx context.Context, env Env, pick, place string) (Result, error) {
	return check(call(ctx, env, ToolPickAndPlace, PickAndPlaceArgs{Pick: pick, Place: place}))
}

func ask(ctx context.Context, env Env, tag, question string) (Result, error) {
	return check(call(ctx, env, ToolAsk, AskArgs{Tag: tag, Question: question}))
}

func askRobot(ctx context.Context, env Env, message string) (Result, error) {
	return check(call(ctx, env, ToolAskRobot, AskRobotArgs{Message: message}))
}

func done(ctx context.Context, env Env) error {
	_, err := call(ctx, env, ToolDone, nil)
	return err
}

// finish turns errEnded into a normal end of run.
func finish(err error) error {
	if err == errEnded {
		return nil
	}
	return err
}
