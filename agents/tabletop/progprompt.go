package tabletop

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/program"
	"github.com/ambibench/ambibench/scenes"
)

func init() {
	agents.RegisterWorkflow("progprompt", "LLM workflow: ProgPrompt with an ask action; the model writes a Python-style task program of pick_and_place calls, asserts with recovery steps and questions, and is re-prompted with each reply",
		func(cfg agents.Config) (agents.Agent, error) {
			return &progprompt{model: cfg.Model, perception: cfg.Perception, askRobotFirst: cfg.AskRobotFirst}, nil
		})
	// Under --perception image it sees the table through the camera image
	// (eyes.go); --perception detector gives it the detector's list.
	agents.SetShowsImages("progprompt", "--perception detector")
}

// progprompt is ProgPrompt (Singh et al., 2023) as the SG-CoT paper runs
// it: the prompt is a program — the robot's actions as imports, the objects
// as a list, example task functions with assertions and recovery steps —
// that ends with the header of the task's function, which the model
// completes in one call. The program runs statement by statement; each
// assertion is checked against the detector's scene after the action, and a
// failed one runs its else step once. The SG-CoT paper adds asking as an
// action: a question (to the user, or to the other robot) ends the program,
// and its reply goes back in a fresh prompt, with what has run so far, for
// the model to write the rest.
type progprompt struct {
	model         llm.Model
	perception    string // how it sees the table (eyes)
	askRobotFirst bool   // agents.Config.AskRobotFirst
}

const (
	// progMaxReprompts bounds the programs written after a reply: one
	// question per kind of ambiguity and a hand-over need far fewer.
	progMaxReprompts = 4
)

// progState is the episode so far, which every new prompt shows.
type progState struct {
	exchanges []llm.Exchange
	done      []llm.Move
	// soFar are the lines of the task function that have run, with results
	// and replies as comments, relative to the body's indentation.
	soFar []string
	// lastPlace is where each block was last put, for assertions about a
	// named place, which the scene graph cannot show.
	lastPlace map[string]string
	// eyes look at the table for the assertions.
	eyes *eyes
}

type progPromptData struct {
	promptData
	Imports, Objects, FuncName, Error, Frame string
	// Positions are the objects' entries of the positions dict, and
	// Workspaces the comments that say where each lies at a shared table.
	Positions, Workspaces, SoFar []string
	// Image says that the prompt shows the camera image, and gives no
	// positions (perception=image).
	Image bool
}

func (a *progprompt) Run(ctx context.Context, env agents.Env) error {
	eyes := newEyes(a.model, a.perception, env)
	env = eyes.acting(env)
	st := &progState{lastPlace: map[string]string{}, eyes: eyes}
	for reprompt := 0; ; reprompt++ {
		// The robot looks afresh for each program: a reply from the other
		// robot may have brought a block into view.
		l, err := eyes.see(ctx, false)
		if err != nil {
			return agents.Finish(err)
		}
		p, err := a.write(ctx, env, l, st)
		if err != nil {
			if derr := agents.Done(ctx, env); derr != nil {
				return derr
			}
			return err
		}
		asked, err := st.execute(ctx, env, p)
		if err != nil {
			return agents.Finish(err)
		}
		if !asked {
			return agents.Finish(agents.Done(ctx, env))
		}
		if reprompt == progMaxReprompts {
			if err := agents.Done(ctx, env); err != nil {
				return agents.Finish(err)
			}
			return fmt.Errorf("progprompt: the program still asked after %d re-prompts", progMaxReprompts)
		}
	}
}

// Respond answers the partner robot with a program of its own: see
// respondProgram.
func (a *progprompt) Respond(ctx context.Context, env agents.Env, message string) (string, error) {
	return a.respondProgram(ctx, env, message)
}

// prompt fills the templates' data from the detected objects and the
// episode so far, and states the call's context.
func (a *progprompt) prompt(env agents.Env, l *look, st *progState) (progPromptData, *llm.CallContext) {
	imports := []string{program.PickAndPlace, program.Ask}
	if env.Partner() != "" {
		imports = append(imports, program.AskRobot)
	}
	data := progObjects(l.listed(), l.frame())
	data.Image = l.sight != nil
	data.promptData = promptData{Instruction: env.Instruction(), Robot: env.Robot(), Partner: env.Partner(),
		Places: data.Places, AskRobotFirst: a.askRobotFirst}
	data.Imports, data.FuncName, data.SoFar = strings.Join(imports, ", "), program.FuncName(env.Instruction()), slices.Clone(st.soFar)
	cc := &llm.CallContext{Role: llm.CallPlan, Track: "tabletop", Instruction: env.Instruction(), Robot: env.Robot(),
		Partner: env.Partner(), Detections: l.context(),
		Exchanges: st.exchanges, Done: st.done, Format: llm.FormatProgram}
	return data, cc
}

// progObjects writes the table part of a program prompt: the places, the
// objects list, each object's position as a dict entry, and at a shared
// table a comment per object saying whose workspace it is in.
func progObjects(objs []listedObject, frame string) progPromptData {
	var objects, places, positions, workspaces []string
	for _, p := range scenes.PlaceNames {
		places = append(places, program.Quote(p))
	}
	for _, o := range objs {
		objects = append(objects, program.Quote(o.ID))
		if !o.InImage {
			positions = append(positions, fmt.Sprintf("%s: (%.3f, %.3f),", program.Quote(o.ID), o.X, o.Y))
		}
		if w := workspacePhrase(o.Workspace); w != "" {
			workspaces = append(workspaces, fmt.Sprintf("the %s is %s", o.ID, w))
		}
	}
	return progPromptData{promptData: promptData{Places: strings.Join(places, ", ")}, Objects: strings.Join(objects, ", "),
		Positions: positions, Workspaces: workspaces, Frame: frame}
}

// write has the model complete the task function. A program that does not
// parse is sent back once with the parse error; a second one fails the
// episode with that error, which names the line.
func (a *progprompt) write(ctx context.Context, env agents.Env, l *look, st *progState) (program.Program, error) {
	data, cc := a.prompt(env, l, st)
	system, err := renderIn(ctx, "progprompt_system.tmpl", data)
	if err != nil {
		return program.Program{}, err
	}
	user, err := renderIn(ctx, "progprompt_user.tmpl", data)
	if err != nil {
		return program.Program{}, err
	}
	req := llm.Request{System: system, Messages: []llm.Message{{Role: llm.RoleUser, Text: user}}, Context: cc}
	l.show(&req)
	var parseErr error
	for range 2 {
		reply, err := a.model.Generate(ctx, req)
		if err != nil {
			return program.Program{}, fmt.Errorf("model %s: %w", a.model.Name(), err)
		}
		p, err := program.Parse(reply.Text)
		if err == nil {
			return p, nil
		}
		parseErr = err
		data.Error = err.Error()
		fix, err := renderIn(ctx, "progprompt_fix.tmpl", data)
		if err != nil {
			return program.Program{}, err
		}
		req.Messages = append(req.Messages, llm.Message{Role: llm.RoleAssistant, Text: reply.Text},
			llm.Message{Role: llm.RoleUser, Text: fix})
	}
	return program.Program{}, fmt.Errorf("progprompt: model %s wrote a malformed program twice: %w", a.model.Name(), parseErr)
}

// execute runs a program's statements in order. asked reports that it
// stopped at a question, whose reply the next prompt carries; the rest of
// the program is dropped, since it was written without the reply.
func (st *progState) execute(ctx context.Context, env agents.Env, p program.Program) (asked bool, err error) {
	for _, s := range p.Body {
		switch s := s.(type) {
		case program.Call:
			if asked, err := st.run(ctx, env, s, ""); asked || err != nil {
				return asked, err
			}
		case program.Assert:
			held, err := st.check(ctx, s)
			if err != nil {
				return false, err
			}
			outcome := "  # held"
			if !held {
				outcome = "  # failed"
			}
			st.soFar = append(st.soFar, program.FormatStmt(s)+outcome)
			if held || s.Else == nil {
				continue
			}
			if asked, err := st.run(ctx, env, *s.Else, program.Indent+"else: "); asked || err != nil {
				return asked, err
			}
		}
	}
	return false, nil
}

// run carries out one action call through the tools and notes it in
// soFar, prefixed by lead. A question returns asked.
func (st *progState) run(ctx context.Context, env agents.Env, c program.Call, lead string) (asked bool, err error) {
	var r agents.Result
	switch c.Name {
	case program.PickAndPlace:
		r, err = agents.PickAndPlace(ctx, env, c.Args[0], c.Args[1])
	case program.Ask:
		r, err = agents.Ask(ctx, env, c.Args[0], c.Args[1])
	case program.AskRobot:
		r, err = agents.AskRobot(ctx, env, c.Args[0])
	default:
		return false, fmt.Errorf("progprompt: no tool for action %q", c.Name)
	}
	if err != nil {
		return false, err
	}
	line := lead + c.String()
	if r.Error != "" {
		// A refused call is shown to the model with the table's reason; a
		// refused question still ends the program, so the model rewrites it.
		st.soFar = append(st.soFar, line+"  # "+commentLine(r.Text))
		return c.Name != program.PickAndPlace, nil
	}
	st.soFar = append(st.soFar, line)
	if c.Name == program.PickAndPlace {
		st.done = append(st.done, llm.Move{Pick: c.Args[0], Place: c.Args[1]})
		st.lastPlace[c.Args[0]] = c.Args[1]
		return false, nil
	}
	// The context keeps the reply as the prompt's comment shows it, on
	// one line.
	reply := commentLine(r.Text)
	switch c.Name {
	case program.Ask:
		st.exchanges = append(st.exchanges, llm.Exchange{Kind: agents.ToolAsk, Tag: c.Args[0], Text: c.Args[1], Reply: reply})
	default:
		st.exchanges = append(st.exchanges, llm.Exchange{Kind: agents.ToolAskRobot, Text: c.Args[0], Reply: reply})
	}
	st.soFar = append(st.soFar, strings.Repeat(" ", len(lead))+"# reply: "+reply)
	return true, nil
}

// check reads an assertion off the scene the robot sees now (eyes.see):
// the detector's objects, their relations rebuilt from the boxes
// (sceneOf); or, with perception=image, the scene graph the model writes
// from a new image.
func (st *progState) check(ctx context.Context, a program.Assert) (bool, error) {
	l, err := st.eyes.see(ctx, true)
	if err != nil {
		return false, err
	}
	return assertionHolds(l.graph, a, st.lastPlace[a.Object]), nil
}

// assertionHolds reports whether an assertion holds in a graph. The
// relation word is the model's; what counts is where the object is:
// resting inside or on the target object, in the shared workspace, or at a
// named place. The graph has no coordinates, so an object is at a named
// place when it was last put there (lastPlace) and rests in or on nothing.
func assertionHolds(g *scenes.Graph, a program.Assert, lastPlace string) bool {
	n, ok := g.Node(a.Object)
	if !ok {
		return false
	}
	resting := func(target string) bool {
		for _, e := range g.Edges() {
			if e.Source == a.Object && (target == "" || e.Target == target) &&
				(e.Relation == scenes.RelInsideOf || e.Relation == scenes.RelOnTopOf) {
				return true
			}
		}
		return false
	}
	switch {
	case a.Target == scenes.SharedPlace:
		return n.Attributes[scenes.AttrWorkspace] == scenes.RegionShared
	case slices.Contains(scenes.PlaceNames, a.Target):
		return lastPlace == a.Target && !resting("")
	}
	return resting(a.Target)
}

// commentLine keeps a tool's text on one comment line.
func commentLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
