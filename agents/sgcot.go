package agents

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

func init() {
	RegisterWorkflow("sgcot", "LLM workflow: SG-CoT; the prompt lists the detected objects and the graph schema, the model retrieves nodes and edges turn by turn, then asks or acts",
		func(cfg Config) (Agent, error) {
			if cfg.Model == nil {
				return nil, errors.New("sgcot: needs a model (--model or AMBIBENCH_MODEL)")
			}
			return &sgcot{model: cfg.Model, maxTurns: sgcotMaxTurns}, nil
		})
}

// sgcot is the iterative loop of SG-CoT (section 3.3): the first prompt
// holds the instruction, the detected objects and the scene-graph schema,
// not the graph. Each turn the model reasons and makes one request —
// retrieve_node, retrieve_edge, ask with a tag, ask_robot, or its final
// pick_and_place calls — whose result is appended to the history. After
// maxTurns it is told to decide.
type sgcot struct {
	model    llm.Model
	maxTurns int
}

const sgcotMaxTurns = 14

type sgcotPrompt struct {
	promptData
	Objects, AttrKeys, Relations string
	MaxTurns                     int
}

func (a *sgcot) Run(ctx context.Context, env Env) error {
	g, _, err := observe(ctx, env)
	if err != nil {
		return finish(err)
	}
	var objects []string
	for _, n := range g.Nodes {
		objects = append(objects, n.ID)
	}
	keys, rels := g.Schema()
	block := llm.Block{Role: llm.CallPlan, Track: "tabletop", Instruction: env.Instruction(), Robot: env.Robot(),
		Partner: env.Partner(), Objects: objects, Places: scenes.PlaceNames, Tags: AskTags, Format: llm.FormatToolCalls}
	data := sgcotPrompt{
		promptData: promptData{Instruction: env.Instruction(), Robot: env.Robot(), Partner: env.Partner(),
			Places: strings.Join(scenes.PlaceNames, ", "), Block: block.Render()},
		Objects: strings.Join(objects, ", "), AttrKeys: strings.Join(keys, ", "), Relations: strings.Join(rels, ", "),
		MaxTurns: a.maxTurns,
	}
	system, err := render("sgcot_system.tmpl", data)
	if err != nil {
		return err
	}
	user, err := render("sgcot_user.tmpl", data)
	if err != nil {
		return err
	}
	tools := []string{ToolRetrieveNode, ToolRetrieveEdge, ToolAsk, ToolPickAndPlace, ToolDone}
	if env.Partner() != "" {
		tools = append(tools, ToolAskRobot)
	}
	conv := &conversation{model: a.model, env: env, req: llm.Request{
		System: system, Messages: []llm.Message{{Role: llm.RoleUser, Text: user}}, Tools: directTools(env, tools...),
	}}
	for range a.maxTurns {
		ended, err := conv.turn(ctx)
		if ended || err != nil {
			return finish(err)
		}
	}
	// The forced decision: no more retrieval.
	forced, err := render("forced_decision.tmpl", data)
	if err != nil {
		return err
	}
	conv.req.Messages = append(conv.req.Messages, llm.Message{Role: llm.RoleUser, Text: forced})
	conv.req.Tools = directTools(env, ToolAsk, ToolPickAndPlace, ToolDone)
	ended, err := conv.turn(ctx)
	if ended || err != nil {
		return finish(err)
	}
	if err := done(ctx, env); err != nil {
		return finish(err)
	}
	return fmt.Errorf("sgcot: no decision after %d turns and a forced one", a.maxTurns)
}

// Respond answers the partner robot as direct does: the helper robot's
// job is one grounded hand-over, for which its whole view is in the prompt.
func (a *sgcot) Respond(ctx context.Context, env Env, message string) (string, error) {
	return answerPartner(ctx, a.model, env, message)
}
