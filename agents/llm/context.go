package llm

import (
	"context"

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
const ContextVersion = 3

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
	// FormatSGCoTText asks for a reply in SG-CoT's text protocol (package
	// agents/sgcottext): a THOUGHT, then one REQUEST or the
	// FINAL_DECISIONS. The conversation is text: each reply and then a
	// user message with its results. Requests says what the prompt
	// offers at the call, since such a request declares no tools.
	FormatSGCoTText = "sgcot_text"
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
	Version int    `json:"v,omitempty"`
	Role    string `json:"role"`
	// Track names the track the call is of; the simulated model answers
	// it as that track taught it (simmodel.Teach).
	Track       string `json:"track"`
	Instruction string `json:"instruction,omitempty"`
	Robot       string `json:"robot,omitempty"`
	Partner     string `json:"partner,omitempty"`
	// Graph is the scene data the prompt holds, if it holds a graph.
	Graph *scenes.Graph `json:"graph,omitempty"`
	// Objects are the ids of the perceived graph's nodes, when the prompt
	// lists them but neither the graph nor the detections (SG-CoT's
	// planning calls and its partner's).
	Objects []string `json:"objects,omitempty"`
	// Detections are the objects the robot's object detector found in
	// its view (the detect_objects tool), as the prompt lists them: a
	// perceive call shows each whole, attributes, centre and size in
	// millimetres; the tabletop baselines (CLARA, Inner Monologue,
	// ProgPrompt) show each with its type, colour and workspace and its
	// centre on the table plane in metres (Detection.TableXY), so their
	// contexts hold only those, the centre to the whole millimetre.
	Detections []Detection `json:"detections,omitempty"`
	// Seen and ImageSize are the camera image the request shows, as the
	// renderer drew it (see Seen), for calls that show the robot's image
	// (CallDetect, and CallPerceive with an image).
	Seen      []Seen `json:"seen,omitempty"`
	ImageSize [2]int `json:"image_size,omitzero"`
	// InImage are the perceived graph's nodes with the boxes they were
	// detected in, for a planning call that shows the robot's image
	// (perception=image): where in the image the planner can look for
	// what a person points it at.
	InImage []Detection `json:"in_image,omitempty"`
	// Images are the digests of the request's images, in order: set only
	// on the copy the openai backend sends to serve-sim (context=1), where
	// the images arrive as bytes, so that the server names them as the
	// client did and its simulated model draws as it does in process.
	Images []string `json:"images,omitempty"`
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
	// Requests are the requests a text protocol's prompt offers at this
	// call (FormatSGCoTText), by their names in the protocol.
	Requests []string `json:"requests,omitempty"`
	// Play is what the harness states in Go's context for a simulated
	// model (llm.WithRepeat, llm.WithPerceptionNoise), which no prompt
	// carries. No workflow sets it: only the openai backend does, on the
	// copy it sends to serve-sim (context=1), and serve-sim moves it back
	// into the context of its Generate, so that a simulated model plays
	// alike on either side of the wire.
	Play *Play `json:"play,omitempty"`
}

// Play is the harness's part of a call to a simulated model: the repeat
// of the episode (0 for a run without repeats) and the perceiver's noise
// (nil for a perfect one).
type Play struct {
	Repeat          int                `json:"repeat,omitempty"`
	PerceptionNoise *scenes.GraphNoise `json:"perception_noise,omitempty"`
}

// PlayFrom reads the harness's part of a call out of ctx; nil when it
// holds nothing (repeat 0, no perception noise).
func PlayFrom(ctx context.Context) *Play {
	p := &Play{Repeat: RepeatFrom(ctx)}
	if n := PerceptionNoiseFrom(ctx); !n.IsZero() {
		p.PerceptionNoise = &n
	}
	if p.Repeat == 0 && p.PerceptionNoise == nil {
		return nil
	}
	return p
}

// WithPlay states p in ctx, as PlayFrom read it; a nil p changes nothing.
func WithPlay(ctx context.Context, p *Play) context.Context {
	if p == nil {
		return ctx
	}
	if p.Repeat != 0 {
		ctx = WithRepeat(ctx, p.Repeat)
	}
	if p.PerceptionNoise != nil {
		ctx = WithPerceptionNoise(ctx, *p.PerceptionNoise)
	}
	return ctx
}

// HouseStep is one call of a household trial and its result.
type HouseStep struct {
	Tool     string `json:"tool"`              // act or ask
	Command  string `json:"command,omitempty"` // act's command; ask's tag
	Question string `json:"question,omitempty"`
	Result   string `json:"result"` // the observation, or the user's answer
}

type perceptionNoiseKey struct{}

// WithPerceptionNoise states the error of the perceiver in an episode (the
// scene_graph_noise perturbation) for a model that plays the perceiver:
// the simulated model applies its relation part (Drop, Spurious) to the
// relations it writes at a perceive call; its node part (Flip) is the
// detector's, which misreads before any model reads (see
// agents/tabletop's package comment). Like WithRepeat it shapes only a
// simulated model's play: a real model's perception errors are its own,
// and only the openai backend's serve-sim field (CallContext.Play)
// carries it. The zero noise states a perfect perceiver over any noise
// ctx stated before (a calibration episode played in a test episode's
// context is its own episode).
func WithPerceptionNoise(ctx context.Context, n scenes.GraphNoise) context.Context {
	if n.IsZero() && PerceptionNoiseFrom(ctx).IsZero() {
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
