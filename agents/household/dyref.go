package household

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/dyref"
	"github.com/ambibench/ambibench/agents/housework"
	"github.com/ambibench/ambibench/agents/llm"
)

func init() {
	household := []string{agents.TrackHousehold}
	agents.RegisterWorkflowOn(household, "dyref", "LLM workflow (household): DyRef; ReAct trials, up to 10; a failed trial becomes a diagnostic graph, its complexity factors go to a learned router, and only the paper's reflection tools it picks run (key rules, experience, lesson), then a plan construction",
		func(cfg agents.Config) (agents.Agent, error) {
			return newRouted(cfg, "dyref", dyref.PaperTools, dyref.Default)
		})
	// A router of the run's own (run --router) is named in the records.
	agents.SetUsesRouter("dyref")
	agents.RegisterWorkflowOn(household, "reflect-all", "LLM workflow (household): DyRef's toolkit without the router; the paper's three reflection tools after every failed trial, then a plan construction",
		func(cfg agents.Config) (agents.Agent, error) {
			all := dyref.FirstTools(dyref.PaperTools)
			return NewDyRef(cfg.Model, DyRefOptions{Name: "reflect-all", Route: func([]float64, dyref.Subset) dyref.Subset { return all }})
		})
	agents.RegisterWorkflowOn(household, "no-reflect", "LLM workflow (household): ReAct trials of the same game, up to 10, with no reflection between them",
		func(cfg agents.Config) (agents.Agent, error) {
			return NewDyRef(cfg.Model, DyRefOptions{Name: "no-reflect"})
		})
}

// newRouted builds a toolkit agent that routes among the first tools of
// dyref.AllTools: with the run's router (run --router) if there is one,
// else with the shipped one. The run's router must be a *dyref.Router (a
// nil one is none). A router over other tools is refused rather than used,
// since routing with it would make the agent another: dyref with the
// ambiguity tool, or dyref-ambiguity without it.
func newRouted(cfg agents.Config, name string, tools int, shipped func() (*dyref.Router, error)) (agents.Agent, error) {
	r, ok := cfg.Router.(*dyref.Router)
	if !ok && cfg.Router != nil {
		return nil, fmt.Errorf("%s: routes with a dyref router (ambibench train-router), not a %T", name, cfg.Router)
	}
	if r == nil {
		var err error
		if r, err = shipped(); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	if want := dyref.FirstTools(tools); r.Tools() != want {
		how := "ambibench train-router"
		if tools > dyref.PaperTools {
			how += " --ambiguity"
		}
		return nil, fmt.Errorf("%s: the router chooses among %v; this agent routes among %v (%s trains one)", name, r.Tools(), want, how)
	}
	return NewDyRef(cfg.Model, DyRefOptions{Name: name, Route: Escalate(r)})
}

// DyRefOptions configure a toolkit agent.
type DyRefOptions struct {
	// Name is the agent's name in its errors.
	Name string
	// Trials is the most trials it plays; 0 means reflexionTrials, the Reflexion authors' 10.
	Trials int
	// Route picks the reflection tools for a failed trial from the
	// vector of its complexity factors (dyref.Factors.Vector) and the
	// tools of the game's earlier reflections, each of which a failed
	// trial followed. Nil never reflects; the empty subset skips one
	// reflection.
	Route func(x []float64, tried dyref.Subset) dyref.Subset
}

// Escalate is dyref's route with a router: the router's subset, unless
// it adds no tool to those the game's earlier reflections ran — a failed
// trial followed them, and the same failure gives the same factors, so
// the router would choose them again for ever — in which case the
// router's best subset among those that add a tool.
func Escalate(r *dyref.Router) func([]float64, dyref.Subset) dyref.Subset {
	return func(x []float64, tried dyref.Subset) dyref.Subset {
		a := r.Route(x)
		if tried == 0 || a&^tried != 0 {
			return a
		}
		return r.RouteWithin(x, func(s dyref.Subset) bool { return s&^tried != 0 })
	}
}

// DyRef plays a household game over several trials and, between them,
// reflects with the toolkit: the failed trial and its task become a
// diagnostic graph (package dyref), the graph's complexity factors go to
// the route, and the tools it picks run, then a plan construction that
// becomes the next trial's note. With a learned router it is DyRef; with
// a route that picks every tool, reflect-all; with none, no-reflect.
type DyRef struct {
	model llm.Model
	opts  DyRefOptions
	kit   *toolkit

	reflections []agents.ReflectionRecord
	routes      []Route
	tried       dyref.Subset
}

// Route is one routing decision: the failed trial it was made on, the
// factors of that trial's graph and the tools chosen.
type Route struct {
	Trial   int
	Factors dyref.Factors
	Tools   dyref.Subset
}

// NewDyRef returns a toolkit agent.
func NewDyRef(model llm.Model, opts DyRefOptions) (*DyRef, error) {
	if opts.Name == "" {
		opts.Name = "dyref"
	}
	if model == nil {
		return nil, errors.New(opts.Name + ": needs a model (--model or AMBIBENCH_MODEL)")
	}
	if opts.Trials <= 0 {
		opts.Trials = reflexionTrials
	}
	kit, err := newToolkit(model)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", opts.Name, err)
	}
	return &DyRef{model: model, opts: opts, kit: kit}, nil
}

// Reflections are the reflections the last Run wrote, in order.
func (a *DyRef) Reflections() []agents.ReflectionRecord { return a.reflections }

// Routes are the routing decisions of the last Run, in order.
func (a *DyRef) Routes() []Route { return a.routes }

func (a *DyRef) Run(ctx context.Context, env agents.Env) error {
	a.reflections, a.routes, a.tried = nil, nil, 0
	if err := householdOnly(a.opts.Name, env); err != nil {
		return err
	}
	return playTrials(ctx, a.opts.Name, env, newReactPlayer(a.model, env), a.opts.Trials, &a.reflections, a.memory,
		func(ctx context.Context, tr trialRecord) (*agents.ReflectionRecord, error) {
			if a.opts.Route == nil {
				return nil, nil
			}
			tr = asSeen(env, tr)
			g, err := dyref.Build(stateOf(env, tr))
			if err != nil {
				return nil, fmt.Errorf("%s: diagnostic graph of trial %d: %w", a.opts.Name, tr.Trial, err)
			}
			f := g.Factors()
			sub := a.opts.Route(f.Vector(), a.tried)
			a.routes = append(a.routes, Route{Trial: tr.Trial, Factors: f, Tools: sub})
			a.tried |= sub
			if sub == 0 {
				return nil, nil
			}
			var tools []string
			for _, t := range sub.Tools() {
				tools = append(tools, t.Name())
			}
			r, err := a.kit.reflect(ctx, env, tr, tools)
			return &r, err
		})
}

// memory is the plans the next trial's prompt carries: the latest ones,
// as many as Reflexion keeps, each once (an escalation after a plan that
// did not help often writes the same plan again) and none empty.
func (a *DyRef) memory() []agents.ReflectionRecord {
	var out []agents.ReflectionRecord
	seen := map[string]bool{}
	for i := len(a.reflections) - 1; i >= 0 && len(out) < reflexionMemory; i-- {
		r := a.reflections[i]
		if r.Text == "" || seen[r.Text] {
			continue
		}
		seen[r.Text] = true
		out = append(out, r)
	}
	slices.Reverse(out)
	return out
}

// stateOf is a trial as the graph builder reads it.
func stateOf(env agents.Env, tr trialRecord) housework.State {
	s := housework.State{Instruction: env.Instruction(), Opening: tr.Opening}
	for _, st := range tr.Steps {
		switch st.Tool {
		case agents.ToolAct:
			s.Turns = append(s.Turns, housework.Turn{Command: st.Command, Observation: st.Result})
		case agents.ToolAsk:
			s.Turns = append(s.Turns, housework.Turn{Tag: st.Command, Question: st.Question, Answer: st.Result})
		}
	}
	return s
}
