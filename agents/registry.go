package agents

import (
	"context"
	"fmt"
	"slices"
	"strings"

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
	// Router is the run's own routing policy (run --router), for the
	// agents with UsesRouter; nil means each agent's shipped one. The
	// harness only names it; the agent that routes with it takes it as its
	// own type (dyref's *dyref.Router, which ambibench train-router makes)
	// and refuses any other.
	Router Router
	// Members are the models an agent with UsesMembers samples its
	// answers from, in turn (--ensemble-models); nil means Model alone.
	// Model still makes the agent's other calls.
	Members []llm.Model
	// Perception is how a tabletop workflow that builds its own view
	// perceives the table: PerceptionDetector ("" too) from the object
	// detector's list, or PerceptionImage from the robot's camera image,
	// which the model reads (SG-CoT as its paper ran it).
	Perception string
	// AskRobotFirst has the two-robot prompts of the tabletop workflows
	// also tell the robot to ask the other robot before telling the person
	// anything is absent (the tabletop's --ask-robot-first). Without it
	// they say what the SG-CoT paper says (section 4.3): a robot that
	// cannot see its target asks the other robot and uses the shared
	// workspace; the paper gives no such ordering.
	AskRobotFirst bool
}

// Perception settings (Config.Perception, the tabletop's --perception).
const (
	PerceptionDetector = "detector"
	PerceptionImage    = "image"
)

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
	// ShowsImages is set for agents that show the model images (through
	// the Env's Camera) when the track perceives through images (the
	// tabletop's --perception image); a run then refuses such an agent
	// with a model whose spec says it takes none. WithoutImages says what
	// runs the agent on text alone ("--perception detector"), "" when
	// nothing does.
	ShowsImages   bool
	WithoutImages string
}

// Router is a routing policy a run gives the agents that route
// (Config.Router): what the harness needs of it is its name in the
// records. The agents that route define what a router is (package dyref's
// Router).
type Router interface {
	// ID names the router by what it decides with (dyref's: its weights),
	// so that runs with another router never mix.
	ID() string
}

// RouterModelName is the model name the records of an agent that routes
// with a router of the run's own carry: the model's, and the router's ID,
// so that runs with another router never mix.
func RouterModelName(model llm.Model, r Router) string {
	return model.Name() + "; router " + r.ID()
}

// MembersModelName is the model name the records of an agent with
// members carry: the members in the order they answer, then the model
// that makes the other calls (the ensemble's chooser). A reader of the
// records sees both, and a resumed run keeps runs with other members
// apart.
func MembersModelName(chooser llm.Model, members []llm.Model) string {
	names := make([]string, len(members))
	for i, m := range members {
		names[i] = m.Name()
	}
	return "members " + strings.Join(names, ",") + "; chooser " + chooser.Name()
}

// Plays reports whether the agent plays a track.
func (i Info) Plays(track string) bool { return i.Tracks == nil || slices.Contains(i.Tracks, track) }

// registry is kept in Order: see Register.
var registry []Info

// Order is the order of the registry, and so of All, Names, NamesFor, the
// benchmark grid and the records. The agents register from the init
// functions of several packages (agents/tabletop, agents/household,
// agents/semmap, agents/reference), which Go runs in the order of their
// import paths, whatever the order of the imports; so the registry does
// not keep registration order but sorts by this list, which is the order
// of the days when every agent was registered from package agents alone
// (by the names of the files that registered them). An agent the list
// does not name comes after those it names, in registration order.
var Order = []string{
	"clara", "direct", "dyref", "dyref-ambiguity", "reflect-all", "no-reflect", "inner-monologue",
	"oracle", "progprompt", "random", "react", "reflexion", "rules",
	"baseline", "ensemble", "multi-agent-reflect", "self-reflect", "self-reflect-no-memory",
	"sgcot", "sgcot-full-graph", "sgcot-single-retrieval", "sgcot-no-edges",
}

// rank is name's place in Order; len(Order) when Order does not name it.
func rank(name string) int {
	if i := slices.Index(Order, name); i >= 0 {
		return i
	}
	return len(Order)
}

// Register adds an agent, in its place in Order. Registering a name twice
// panics.
func Register(name, description string, f Factory) {
	if _, ok := Lookup(name); ok {
		panic(fmt.Sprintf("agents: %q registered twice", name))
	}
	registry = append(registry, Info{Name: name, Description: description, New: f})
	slices.SortStableFunc(registry, func(a, b Info) int { return rank(a.Name) - rank(b.Name) })
}

// RegisterOn adds an agent that plays only the given tracks: a reference
// agent of a track of its own, say. Registering a name twice panics.
func RegisterOn(tracks []string, name, description string, f Factory) {
	Register(name, description, f)
	// Register keeps the registry in Order: the new agent need not be last.
	update(name, func(i *Info) { i.Tracks = slices.Clone(tracks) })
}

// update changes the registered agent name.
func update(name string, f func(*Info)) {
	for i := range registry {
		if registry[i].Name == name {
			f(&registry[i])
			return
		}
	}
	panic(fmt.Sprintf("agents: %q is not registered", name))
}

// SetUsesMembers marks the registered agent name as one that samples from
// Config.Members (Info.UsesMembers).
func SetUsesMembers(name string) { update(name, func(i *Info) { i.UsesMembers = true }) }

// SetUsesRouter marks the registered agent name as one that routes with
// Config.Router (Info.UsesRouter).
func SetUsesRouter(name string) { update(name, func(i *Info) { i.UsesRouter = true }) }

// SetShowsImages marks a registered agent as showing the model images;
// without says what runs it without them ("" for nothing).
func SetShowsImages(name, without string) {
	update(name, func(i *Info) { i.ShowsImages, i.WithoutImages = true, without })
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
	update(name, func(i *Info) {
		i.UsesModel = true
		i.Tracks = slices.Clone(tracks)
	})
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
