package semmap

import (
	"context"
	"fmt"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// contextOf is the context a workflow stated for a request, for tests that
// check what a workflow told the simulated model.
func contextOf(req llm.Request) (llm.CallContext, error) {
	if req.Context == nil {
		return llm.CallContext{}, fmt.Errorf("the request carries no context")
	}
	return *req.Context, nil
}

// lookupWorkflow builds the registered workflow name on model m.
func lookupWorkflow(t *testing.T, name string, m llm.Model) (agents.Agent, error) {
	t.Helper()
	info, ok := agents.Lookup(name)
	if !ok || !info.UsesModel {
		t.Fatalf("%s: registered %v, uses a model %v", name, ok, info.UsesModel)
	}
	return info.New(agents.Config{Model: m})
}

// tabletopEnv is a tabletop episode, for checking that a workflow of
// another track refuses it; every call is answered "ok".
type tabletopEnv struct{}

func (tabletopEnv) Instruction() string  { return "Put the red block in the blue bowl." }
func (tabletopEnv) Robot() string        { return scenes.Robot1 }
func (tabletopEnv) Partner() string      { return "" }
func (tabletopEnv) Tools() []agents.Tool { return agents.Tools(false) }
func (tabletopEnv) Call(context.Context, agents.ToolCall) (agents.Result, error) {
	return agents.Result{Text: "ok"}, nil
}
