package agents

import (
	"context"
	"fmt"
	"slices"

	"github.com/ambibench/ambibench/agents/dyref"
	"github.com/ambibench/ambibench/agents/llm"
)

// Agent drives one robot through an episode.
type Agent interface {
	Run(ctx context.Context, env Env) error
}

// Responder is an agent that can act for the partner robot: it receives a
// message sent with ask_robot, may act within its own reach, and replies.
type Responder interface {
	Respond(ctx context.Context, env Env, message string) (string, error)
}

// Config is what a factory gets to build an agent for one episode.
type Config struct {
	// Seed is fixed by the episode and the agent's name, for agents that
	// draw random numbers.
	Seed uint64
	// Model is the language model of a workflow; the reference agents
	// ignore it.
	Model llm.Model
	// Calibration fits decision thresholds on episodes kept apart from
	// the test episodes; nil when the harness offers none.
	Calibration Calibrator
	// Router is dyref's routing policy; nil means the shipped one, trained
	// for the simulated model (ambibench train-router makes another).
	Router *dyref.Router
	// Members are the models an agent with UsesMembers samples its
	// answers from, in turn (--ensemble-models); nil means Model alone.
	// Model still makes the agent's other calls.
	Members []llm.Model
}

// Factory builds an agent for one episode.
type Factory func(cfg Config) (Agent, error)

// Info describes a registered agent.
type Info struct {
	Name        string
	Description string
	New         Factory
	// UsesModel is set for workflows driven by a language model; their
	// records name the model.
	UsesModel bool
	// Tracks are the tracks the agent plays; nil means every track.
	Tracks []string
	// UsesMembers is set for agents that sample from Config.Members when
	// the run gives some; their records name the members too
	// (MembersModelName), so that runs with other members never mix.
	UsesMembers bool
	// UsesRouter is set for agents that route with Config.Router when the
	// run gives one; their records name it (RouterModelName).
	UsesRouter bool
}

// RouterModelName is the model name the records of an agent that routes
// with a router of the run's own carry: the model's, and the router's ID,
// so that runs with another router never mix.
func RouterModelName(model llm.Model, r *dyref.Router) string {
	return model.Name() + "; router " + r.ID()
}

// Plays reports whether the agent plays a track.
func (i Info) Plays(track string) bool { return i.Tracks == nil || slices.Contains(i.Tracks, track) }

var registry []Info

// Register adds an agent. Registering a name twice panics.
func Register(name, description string, f Factory) {
	if _, ok := Lookup(name); ok {
		panic(fmt.Sprintf("agents: %q registered twice", name))
	}
	registry = append(registry, Info{Name: name, Description: description, New: f})
}

// RegisterOn adds an agent that plays only the given tracks: a reference
// agent of a track of its own, say. Registering a name twice panics.
func RegisterOn(tracks []string, name, description string, f Factory) {
	Register(name, description, f)
	registry[len(registry)-1].Tracks = slices.Clone(tracks)
}

// RegisterWorkflow adds an agent driven by a language model that plays
// the tabletop track.
func RegisterWorkflow(name, description string, f Factory) {
	RegisterWorkflowOn([]string{TrackTabletop}, name, description, f)
}

// RegisterWorkflowOn adds an agent driven by a language model that plays
// the given tracks. Its factory is only called with a model: without one
// the agent fails to build, with an error that says how to give one.
func RegisterWorkflowOn(tracks []string, name, description string, f Factory) {
	Register(name, description, func(cfg Config) (Agent, error) {
		if cfg.Model == nil {
			return nil, fmt.Errorf("%s: needs a model (--model or AMBIBENCH_MODEL)", name)
		}
		return f(cfg)
	})
	registry[len(registry)-1].UsesModel = true
	registry[len(registry)-1].Tracks = slices.Clone(tracks)
}

// Lookup returns the agent registered under name.
func Lookup(name string) (Info, bool) {
	for _, a := range registry {
		if a.Name == name {
			return a, true
		}
	}
	return Info{}, false
}

// All returns the registered agents in registration order.
func All() []Info { return slices.Clone(registry) }

// Names returns the names of All.
func Names() []string {
	var out []string
	for _, a := range registry {
		out = append(out, a.Name)
	}
	return out
}

// NamesFor returns the names of the agents that play a track, in
// registration order.
func NamesFor(track string) []string {
	var out []string
	for _, a := range registry {
		if a.Plays(track) {
			out = append(out, a.Name)
		}
	}
	return out
}
