package oneshot

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/prompt"
)

// The names are the agent's own (oneshotFS, not promptFS), so that the
// file compiles beside the workflows of agents/tabletop too.
//
//go:embed prompts/oneshot.tmpl
var oneshotFS embed.FS

var oneshotPrompts = prompt.Must(oneshotFS, "prompts/oneshot.tmpl")

func init() {
	agents.RegisterWorkflow("oneshot", "LLM workflow (example): one call with the whole scene graph; its tool calls run in order, unseen by the model",
		func(cfg agents.Config) (agents.Agent, error) { return &oneShot{model: cfg.Model}, nil })
}

type oneShot struct{ model llm.Model }

// oneshotData fills prompts/oneshot.tmpl.
type oneshotData struct{ Robot, Instruction, Graph string }

func (a *oneShot) Run(ctx context.Context, env agents.Env) error {
	r, err := agents.Check(agents.Call(ctx, env, agents.ToolGetSceneGraph, nil))
	if err != nil {
		return agents.Finish(err)
	}
	graph, err := json.MarshalIndent(r.Graph, "", " ")
	if err != nil {
		return err
	}
	text, err := oneshotPrompts.Render("oneshot.tmpl", oneshotData{Robot: env.Robot(), Instruction: env.Instruction(), Graph: string(graph)})
	if err != nil {
		return err
	}
	req := llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Text: text}},
		Tools:    agents.ToolDecls(env, agents.ToolPickAndPlace, agents.ToolAsk, agents.ToolDone),
		// What the prompt shows, stated for the simulated model, which
		// reads no prose; no real backend sends it.
		Context: &llm.CallContext{Role: llm.CallPlan, Track: agents.TrackTabletop, Instruction: env.Instruction(),
			Robot: env.Robot(), Graph: r.Graph, Format: llm.FormatToolCalls},
	}
	reply, err := a.model.Generate(ctx, req)
	if err != nil {
		return fmt.Errorf("model %s: %w", a.model.Name(), err)
	}
	for _, tc := range reply.ToolCalls {
		r, err := env.Call(ctx, agents.ToolCall{Name: tc.Name, Args: tc.Args})
		if err != nil || r.Ended {
			return err
		}
	}
	return agents.Finish(agents.Done(ctx, env))
}
