package agents

import (
	"context"
	"encoding/json"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// Env is an agent's whole view of an episode.
type Env interface {
	// Instruction is what the user asked this robot to do. A robot that
	// only helps its partner gets an empty instruction.
	Instruction() string
	// Robot is the robot this agent drives.
	Robot() string
	// Partner is the other robot at the table, or "" when alone.
	Partner() string
	// Tools lists the tools this agent may call.
	Tools() []Tool
	// Call runs one tool. A refused call (bad arguments, an impossible
	// action) is a Result with Error set, not an error; error is for a
	// cancelled context or a broken harness.
	Call(ctx context.Context, call ToolCall) (Result, error)
}

// ToolCall is one call: a tool name and its JSON arguments.
type ToolCall struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args,omitempty"`
}

// Result is what a tool returned.
type Result struct {
	// Text is the result as a model would read it.
	Text string `json:"text"`
	// Items are the result as a list: node ids for retrieve_node, edge
	// sentences for retrieve_edge.
	Items []string `json:"items,omitempty"`
	// Edges are retrieve_edge's matches.
	Edges []scenes.Edge `json:"edges,omitempty"`
	// Graph is get_scene_graph's graph.
	Graph *scenes.Graph `json:"graph,omitempty"`
	// Error says why a call was refused.
	Error string `json:"error,omitempty"`
	// Ended is set once the episode is over: done was called, a question
	// carried the wrong tag, or the step limit was reached.
	Ended bool `json:"ended,omitempty"`
}

// Camera is implemented by the Env of a robot with a camera (the
// tabletop's). View is what the camera shows now: the image, named by
// what determines it, its bytes made only when a backend sends them; and
// each object the robot observes as the renderer drew it (its box and
// visible fraction), which a workflow puts in its call's context for the
// simulated model, that reads no pixels.
type Camera interface {
	View() (llm.Image, []llm.Seen, error)
}

// PerceptionReporter is implemented by the Env of a table that records
// what an agent's own perception made of it (the tabletop's): a workflow
// that builds its scene graph itself (SG-CoT) reports the graph it will
// plan over as soon as it has it, before it acts, and the table compares
// it with what is there (docs/metrics.md, "Tabletop: perception
// errors"). at holds where each node was seen, as [y, x] in the camera
// image (0 to 1000), for a graph perceived from the image; it is nil for
// one built on the detector's list, whose nodes are known by their ids.
// The table reads g and at during the call only. An error is the
// table's, not the agent's.
type PerceptionReporter interface {
	ReportPerception(g *scenes.Graph, at map[string][2]int) error
}

// Truth is the ground truth of an episode, which only the oracle reads.
type Truth struct {
	Label string
	Plan  []PlanStep
	// Objects is the semmap track's annotated answer: the relevant
	// object ids, most relevant first (possibly none).
	Objects []string
}

// PlanStep is one action of the reference solution: on the tabletop a
// pick_and_place (Robot, Pick, Place), an ask (Tag) or an ask_robot; in
// the household an ask (Tag) or an act (Command).
type PlanStep struct {
	Robot, Action, Tag, Pick, Place string
	Command                         string
}

// TruthSource is implemented by the Env of an agent that declares, by
// implementing [TruthReader], that it reads the ground truth.
type TruthSource interface {
	Truth() *Truth
}

// TruthReader marks an agent that reads the ground truth. The harness gives
// the truth to such agents only, and reports them as such.
type TruthReader interface {
	ReadsTruth()
}
