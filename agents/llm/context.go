package llm

import (
	"context"
	"math"

	"github.com/ambibench/ambibench/scenes"
)

// A workflow's prompt is written for a real model, in prose. The simulated
// model cannot read prose, so a workflow also states the context of each
// call in a CallContext, which rides in Request.Context: a typed field that
// no backend sends, no hash or cassette counts and no transcript shows. The
// context restates, in structured form, only what the request itself
// carries (the prompt text, the conversation, the tool declarations); it
// never holds anything a real model would not read, such as the ground
// truth. agents' TestContextIsInThePrompt holds every workflow to that.

// ContextVersion is the version of CallContext's JSON shape, which only
// serve-sim's extension field carries over the wire.
const ContextVersion = 1

// ContextField is the extension field of an OpenAI chat request body in
// which ambibench's openai backend sends the context to serve-sim, when
// its options ask for it, and nowhere else (see openai.Options).
const ContextField = "ambibench_context"

// Roles of a call.
const (
	CallPlan     = "plan"     // decide the next action(s) with the tools
	CallReflect  = "reflect"  // say what went wrong
	CallRefine   = "refine"   // improve an answer
	CallChoose   = "choose"   // pick among options
	CallClassify = "classify" // label the instruction (clear, ambiguous, infeasible)
	CallAnswer   = "answer"   // answer another robot's message
	// CallPerceive builds the scene graph from the detected objects: the
	// model writes the nodes' attributes and the relations between them,
	// as JSON (SG-CoT's scene-graph generation, before it plans).
	CallPerceive = "perceive"
)

// ModeNodesOnly is the Mode of a perceive call that asks for the nodes and
// no relations (SG-CoT's no-edges ablation).
const ModeNodesOnly = "nodes"

// Output formats a call may ask for.
const (
	FormatToolCalls = "tool_calls"
	FormatJSON      = "json"
	FormatText      = "text"
	// FormatProgram asks for a program in the ProgPrompt style: a Python
	// function body of action calls, assertions and recovery steps.
	FormatProgram = "program"
)

// Exchange is a question asked earlier in the episode and its reply.
type Exchange struct {
	Kind  string `json:"kind"` // "ask" (the user) or "ask_robot" (the other robot)
	Tag   string `json:"tag,omitempty"`
	Text  string `json:"text"`
	Reply string `json:"reply"`
}

// Move is a pick-and-place that was carried out.
type Move struct {
	Pick  string `json:"pick"`
	Place string `json:"place"`
}

// CallContext is the structured context of a call: what kind of call it
// is (Role, Track, Format, Tool, Mode: labels the workflow chose, which
// the prompt's wording implies) and the data the prompt shows.
type CallContext struct {
	// Version is set by whoever encodes the context for the wire (see
	// ContextVersion); in process it may stay zero.
	Version     int    `json:"v,omitempty"`
	Role        string `json:"role"`
	Track       string `json:"track"`
	Instruction string `json:"instruction,omitempty"`
	Robot       string `json:"robot,omitempty"`
	Partner     string `json:"partner,omitempty"`
	// Graph is the scene data the prompt holds, if it holds a graph.
	Graph *scenes.Graph `json:"graph,omitempty"`
	// Objects are the detected objects, when the prompt lists objects but
	// not their graph.
	Objects []string `json:"objects,omitempty"`
	// Detected are the detected objects with their attributes and
	// positions, when the prompt lists them so instead of a graph (the
	// tabletop baselines: CLARA, Inner Monologue, ProgPrompt).
	Detected []Object `json:"detected,omitempty"`
	// Detections are the objects an object detector found in the robot's
	// view, for CallPerceive: the prompt lists each with its attributes,
	// its position and its size.
	Detections []Detection `json:"detections,omitempty"`
	// Message is what the other robot asked, for CallAnswer.
	Message string `json:"message,omitempty"`
	// Exchanges and Done are the episode so far, for workflows that write
	// each prompt afresh instead of keeping a tool-call conversation: the
	// questions asked with their replies, and the moves that succeeded.
	Exchanges []Exchange `json:"exchanges,omitempty"`
	Done      []Move     `json:"done,omitempty"`
	// Opening, Trajectory and Reflections are a household trial: the
	// observation it started with (the room and "Your task is to: …"),
	// every act and ask since with what came back, and the reflections on
	// earlier trials that the prompt shows, oldest first.
	Opening     string      `json:"opening,omitempty"`
	Trajectory  []HouseStep `json:"trajectory,omitempty"`
	Reflections []string    `json:"reflections,omitempty"`
	// Trial numbers the household trial from 1, when the prompt says
	// which attempt it is; the simulated model draws a fresh chance per
	// trial of heeding a reflection.
	Trial int `json:"trial,omitempty"`
	// Tool names the reflection tool of a reflect call that is one step of
	// a toolkit (DyRef: key_rules, experience, lesson, ambiguity, plan);
	// empty for a free-text reflection. For plan, Reflections are the
	// other tools' outputs to combine.
	Tool string `json:"tool,omitempty"`
	// Case is a solved game of the same task type, for key_rules: the
	// commands that solved it, each with what it gave.
	Case []HouseStep `json:"case,omitempty"`
	// SemanticMap is a semmap call's map as the prompt shows it, and Mode
	// how: "certainty" (each object's best class) or "uncertainty" (the
	// class distributions).
	SemanticMap *scenes.SemanticMap `json:"semantic_map,omitempty"`
	Mode        string              `json:"mode,omitempty"`
	// Answers are a semmap workflow's earlier answers, each the JSON
	// object of a reply, oldest first; Feedback the critiques of them, in
	// the same order. A reflect call reviews the last answer, which has no
	// critique yet; a refine call applies the last critique to the last
	// answer. Without memory they hold only those. For a choose call,
	// Answers are the responses to pick from, "Response A" first.
	Answers  []string `json:"answers,omitempty"`
	Feedback []string `json:"feedback,omitempty"`
	Format   string   `json:"format"`
}

// Object is a detected object as a prompt lists it: its id, its
// attributes (type, colour and, at a two-robot table, the workspace it is
// in) and the centre of its box on the table plane, in metres, at the
// precision the prompt prints (three decimals). The table frame has x to
// the right and y away from the robots.
type Object struct {
	ID        string  `json:"id"`
	Type      string  `json:"type"`
	Color     string  `json:"color,omitempty"`
	Workspace string  `json:"workspace,omitempty"`
	X         float64 `json:"x"`
	Y         float64 `json:"y"`
}

// HouseStep is one call of a household trial and its result.
type HouseStep struct {
	Tool     string `json:"tool"`              // act or ask
	Command  string `json:"command,omitempty"` // act's command; ask's tag
	Question string `json:"question,omitempty"`
	Result   string `json:"result"` // the observation, or the user's answer
}

// Detection is one object a detector found: its id, its attributes, and
// the centre and full size of its box in the table frame, in millimetres
// to a hundredth (x to the right, y away from the robots, z up from the
// table top): fine enough that the relations the boxes give are, but for
// a pair within a hundredth of a millimetre of a threshold, the table's.
// It is the JSON of the detect_objects tool's result.
type Detection struct {
	ID         string            `json:"id"`
	Attributes map[string]string `json:"attributes"`
	Pos        [3]float64        `json:"pos"`
	Size       [3]float64        `json:"size"`
}

type perceptionNoiseKey struct{}

// WithPerceptionNoise states the error of the perceiver in an episode (the
// scene_graph_noise perturbation) for a model that plays the perceiver:
// the simulated model applies it to the scene graph it writes at a
// perceive call, as the table applies it to the graphs it shows, so that
// the perturbation means the same whoever builds the graph. Like
// WithRepeat it shapes only a simulated model's play; no backend sends it
// and a real model's perception errors are its own.
func WithPerceptionNoise(ctx context.Context, n scenes.GraphNoise) context.Context {
	if n.IsZero() {
		return ctx
	}
	return context.WithValue(ctx, perceptionNoiseKey{}, n)
}

// PerceptionNoiseFrom returns the perceiver's noise of a context, or the
// zero (perfect) noise.
func PerceptionNoiseFrom(ctx context.Context) scenes.GraphNoise {
	n, _ := ctx.Value(perceptionNoiseKey{}).(scenes.GraphNoise)
	return n
}

// DetectionOf is the detection of an object: its attributes, with its
// workspace when it lies in one (as a scene graph's node has it), and its
// box in millimetres, rounded to a hundredth.
func DetectionOf(o scenes.Object) Detection {
	attrs := make(map[string]string, len(o.Attributes)+1)
	for k, v := range o.Attributes {
		attrs[k] = v
	}
	if o.Region != "" && o.Region != scenes.RegionTable {
		attrs[scenes.AttrWorkspace] = o.Region
	}
	d := Detection{ID: o.ID, Attributes: attrs}
	for i := range 3 {
		d.Pos[i], d.Size[i] = mm(o.Pose[i]), mm(o.Extent[i])
	}
	return d
}

// Object is the object a detection describes, as far as it tells: its
// class is its type attribute and its region its workspace.
func (d Detection) Object() scenes.Object {
	o := scenes.Object{ID: d.ID, Class: d.Attributes[scenes.AttrType], Attributes: make(map[string]string, len(d.Attributes))}
	for k, v := range d.Attributes {
		if k == scenes.AttrWorkspace {
			o.Region = v
			continue
		}
		o.Attributes[k] = v
	}
	for i := range 3 {
		o.Pose[i], o.Extent[i] = d.Pos[i]/1000, d.Size[i]/1000
	}
	return o
}

// mm converts metres to millimetres, to a hundredth.
func mm(m float64) float64 { return math.Round(m*1e5) / 100 }
