package agents

import (
	"encoding/json"

	"github.com/ambibench/ambibench/scenes"
)

// The semmap track's contract. An agent gets a query ("Where can I sit?")
// and an object-level semantic map, and answers once with the ids of the
// relevant objects, most relevant first. Reflection workflows may call the
// model many times before they answer.

// TrackSemmap is the semantic-map track.
const TrackSemmap = "semmap"

// Semmap tool names.
const (
	ToolGetMap = "get_map"
	ToolAnswer = "answer"
)

// Input modes: how a map is shown to a model (the agentic-workflows paper).
const (
	// ModeCertainty shows each object with its most probable class.
	ModeCertainty = "certainty"
	// ModeUncertainty shows each object's class distribution.
	ModeUncertainty = "uncertainty"
)

// AnswerArgs are the arguments of answer: the structured reply of paper
// 000's workflows.
type AnswerArgs struct {
	InferredQuery   string   `json:"inferred_query"`
	QueryAchievable bool     `json:"query_achievable"`
	RelevantObjects []string `json:"relevant_objects"`
	Explanation     string   `json:"explanation"`
}

var semmapTools = []Tool{
	{ToolGetMap, "Return the semantic map: every object with its id, class (or class distribution), bounding box and number of observations.", json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)},
	{ToolAnswer, "Give the final answer: the ids of the objects that serve the query, most relevant first (empty if none does), with the query as understood, whether it can be achieved, and why. The episode ends.", json.RawMessage(`{"type":"object","properties":{"inferred_query":{"type":"string"},"query_achievable":{"type":"boolean"},"relevant_objects":{"type":"array","items":{"type":"string"}},"explanation":{"type":"string"}},"required":["relevant_objects"],"additionalProperties":false}`)},
}

// SemmapTools returns the semmap track's tools: get_map and answer.
func SemmapTools() []Tool { return append([]Tool(nil), semmapTools...) }

// Drafter is a semmap workflow that writes more than one answer before it
// answers. Drafts are the relevant objects of each, the first answer (y0)
// first and the one it answered last; the harness compares them to find
// over-reflection.
type Drafter interface {
	Drafts() [][]string
}

// MapSource is implemented by the semmap track's Env: the map that
// get_map shows, structured, and the input mode it is shown in
// (ModeCertainty or ModeUncertainty). Workflows put both in the block
// for the simulated model; rules and random read the map itself.
type MapSource interface {
	Map() *scenes.SemanticMap
	Mode() string
}

// MapOf is the Env's structured map and mode; nil without one, and the
// mode certainty when the Env names none.
func MapOf(env Env) (*scenes.SemanticMap, string) {
	src, ok := env.(MapSource)
	if !ok {
		return nil, ModeCertainty
	}
	mode := src.Mode()
	if mode == "" {
		mode = ModeCertainty
	}
	return src.Map(), mode
}
