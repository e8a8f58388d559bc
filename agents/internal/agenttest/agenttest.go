// Package agenttest holds what the tests of the agents' packages share:
// small envs of each track, the context a workflow stated for a request,
// and the registered workflows built on a model. It is internal: agents
// of a user's own are tested through bench and the command, as those in
// examples/ are.
package agenttest

import (
	"context"
	"fmt"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// ContextOf is the context a workflow stated for a request, for tests that
// check what a workflow told the simulated model.
func ContextOf(req llm.Request) (llm.CallContext, error) {
	if req.Context == nil {
		return llm.CallContext{}, fmt.Errorf("the request carries no context")
	}
	return *req.Context, nil
}

// Workflow builds the registered workflow name on model m.
func Workflow(t *testing.T, name string, m llm.Model) (agents.Agent, error) {
	t.Helper()
	info, ok := agents.Lookup(name)
	if !ok || !info.UsesModel {
		t.Fatalf("%s: registered %v, uses a model %v", name, ok, info.UsesModel)
	}
	return info.New(agents.Config{Model: m})
}

// TabletopEnv is a tabletop episode, for checking that a workflow of
// another track refuses it; every call is answered "ok".
type TabletopEnv struct{}

func (TabletopEnv) Instruction() string  { return "Put the red block in the blue bowl." }
func (TabletopEnv) Robot() string        { return scenes.Robot1 }
func (TabletopEnv) Partner() string      { return "" }
func (TabletopEnv) Tools() []agents.Tool { return agents.Tools(false) }
func (TabletopEnv) Call(context.Context, agents.ToolCall) (agents.Result, error) {
	return agents.Result{Text: "ok"}, nil
}

// SemmapEnv is a semmap Env over one map and one query: get_map gives the
// map rendered in its mode, answer records the answer and ends the
// episode.
type SemmapEnv struct {
	query string
	m     *scenes.SemanticMap
	mode  string
	truth []string

	calls    []string
	answered []agents.AnswerArgs
}

// NewSemmapEnv is the env of query on m, shown in mode ("" is certainty).
func NewSemmapEnv(query string, m *scenes.SemanticMap, mode string) *SemmapEnv {
	return &SemmapEnv{query: query, m: m, mode: mode}
}

func (e *SemmapEnv) Track() string            { return agents.TrackSemmap }
func (e *SemmapEnv) Instruction() string      { return e.query }
func (e *SemmapEnv) Robot() string            { return "robot1" }
func (e *SemmapEnv) Partner() string          { return "" }
func (e *SemmapEnv) Tools() []agents.Tool     { return agents.SemmapTools() }
func (e *SemmapEnv) Truth() *agents.Truth     { return &agents.Truth{Objects: e.truth} }
func (e *SemmapEnv) Map() *scenes.SemanticMap { return e.m }
func (e *SemmapEnv) Mode() string             { return e.mode }

func (e *SemmapEnv) Call(_ context.Context, c agents.ToolCall) (agents.Result, error) {
	e.calls = append(e.calls, c.Name)
	if len(e.answered) > 0 {
		return agents.Result{Error: "the episode is over", Ended: true}, nil
	}
	args, err := agents.DecodeArgs(c)
	if err != nil {
		return agents.Result{Error: err.Error()}, nil
	}
	switch a := args.(type) {
	case *agents.NoArgs:
		return agents.Result{Text: e.m.RenderJSON(e.mode)}, nil
	case *agents.AnswerArgs:
		e.answered = append(e.answered, *a)
		return agents.Result{Text: "Answer recorded.", Ended: true}, nil
	}
	return agents.Result{Error: "not a semmap tool: " + c.Name}, nil
}

// WithTruth sets the annotated answer the env gives an agent that reads
// the ground truth.
func (e *SemmapEnv) WithTruth(ids []string) *SemmapEnv {
	e.truth = ids
	return e
}

// Answered are the answers given, in order.
func (e *SemmapEnv) Answered() []agents.AnswerArgs { return e.answered }

// Answer is the one answer of the episode; the test fails unless there
// is exactly one and it was the last call.
func (e *SemmapEnv) Answer(t *testing.T) []string {
	t.Helper()
	if len(e.answered) != 1 || e.calls[len(e.calls)-1] != agents.ToolAnswer {
		t.Fatalf("want one answer as the last call; calls %v", e.calls)
	}
	return e.answered[0].RelevantObjects
}

// SemmapMap is a small room of six objects, some of them uncertain.
func SemmapMap() *scenes.SemanticMap {
	in := func(id string, x, y, z float64, cs ...scenes.ClassScore) scenes.Instance {
		return scenes.Instance{ID: id, Center: [3]float64{x, y, z}, Size: [3]float64{0.5, 0.5, 0.5}, Observations: 20, Classes: cs}
	}
	cs := func(c string, p float64) scenes.ClassScore { return scenes.ClassScore{Class: c, P: p} }
	return &scenes.SemanticMap{Name: "test_room", Instances: []scenes.Instance{
		in("obj1", 1, 0, 0.45, cs("chair", 0.6), cs("couch", 0.4)),
		in("obj2", 0, 2, 0.4, cs("couch", 0.9), cs("bed", 0.1)),
		in("obj3", 1, 0.6, 0.38, cs("dining table", 1)),
		in("obj4", 3, 3, 1, cs("microwave", 0.85), cs("oven", 0.15)),
		in("obj5", 3.5, 3, 0.45, cs("oven", 1)),
		in("obj6", 0, 3, 1, cs("tv", 1)),
	}}
}
