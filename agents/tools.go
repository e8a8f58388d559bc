package agents

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// Tool names.
const (
	ToolGetSceneGraph = "get_scene_graph"
	// ToolDetectObjects lists what the robot's object detector finds: the
	// nodes of a scene graph without its relations, with each object's
	// position and size (JSON of []llm.Detection).
	ToolDetectObjects = "detect_objects"
	ToolRetrieveNode  = "retrieve_node"
	ToolRetrieveEdge  = "retrieve_edge"
	ToolPickAndPlace  = "pick_and_place"
	ToolAsk           = "ask"
	ToolAskRobot      = "ask_robot"
	ToolDone          = "done"
)

// Tool is a tool as a model sees it: a name, what it does, and the JSON
// schema of its arguments.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"parameters"`
}

// Tag values a question to the user may carry.
var AskTags = []string{"absence", "multiplicity", "underspecified"}

// Argument types, one per tool.
type (
	NoArgs           struct{}
	RetrieveNodeArgs struct {
		Name    string `json:"name,omitempty"`
		AttrKey string `json:"attr_key,omitempty"`
		AttrVal string `json:"attr_val,omitempty"`
	}
	RetrieveEdgeArgs struct {
		Source   string `json:"source,omitempty"`
		Target   string `json:"target,omitempty"`
		Relation string `json:"relation,omitempty"`
	}
	PickAndPlaceArgs struct {
		Pick  string `json:"pick"`
		Place string `json:"place"`
		// PickAt and PlaceAt, when given, say where in the robot's camera
		// image the pick and the place were seen, as [y, x] in
		// 0–llm.BoxScale (the centre of a detection's box): the table then
		// acts on what is there (grounding by geometry), whatever the
		// names say. A workflow that perceives through the image fills
		// them in; no schema declares them (UndeclaredArgs).
		PickAt  *[2]int `json:"pick_at,omitempty"`
		PlaceAt *[2]int `json:"place_at,omitempty"`
	}
	AskArgs struct {
		Tag      string `json:"tag"`
		Question string `json:"question"`
	}
	AskRobotArgs struct {
		Message string `json:"message"`
	}
)

var toolTable = []Tool{
	{ToolGetSceneGraph, "Return the whole scene graph of what this robot sees.", json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)},
	{ToolDetectObjects, "List the objects the robot's detector finds in its view: id, attributes, and the centre and size of each, in millimetres in the table frame.", json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)},
	{ToolRetrieveNode, "List the ids of scene-graph nodes, by name (e.g. \"red block\" or \"red block 1\") or by one attribute (attr_key and attr_val, e.g. color and red). With no filter, list every node.", json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"},"attr_key":{"type":"string"},"attr_val":{"type":"string"}},"additionalProperties":false}`)},
	{ToolRetrieveEdge, "List scene-graph relations; source, target and relation are optional filters. Relations: left_of, right_of, above, below, inside_of, on_top_of, near.", json.RawMessage(`{"type":"object","properties":{"source":{"type":"string"},"target":{"type":"string"},"relation":{"type":"string","enum":["left_of","right_of","above","below","inside_of","on_top_of","near"]}},"additionalProperties":false}`)},
	{ToolPickAndPlace, "Pick up a block by id and put it at place: a bowl or block id, a named place (e.g. \"top left corner\", \"middle\") or \"shared workspace\".", json.RawMessage(`{"type":"object","properties":{"pick":{"type":"string"},"place":{"type":"string"}},"required":["pick","place"],"additionalProperties":false}`)},
	{ToolAsk, "Ask the user a clarification question, tagged with the kind of ambiguity: absence (something named is not there), multiplicity (several things match), underspecified (the instruction leaves something open). A wrong tag ends the episode.", json.RawMessage(`{"type":"object","properties":{"tag":{"type":"string","enum":["absence","multiplicity","underspecified"]},"question":{"type":"string"}},"required":["tag","question"],"additionalProperties":false}`)},
	{ToolAskRobot, "Send a message to the other robot, which sees its own workspace, may act within its reach, and replies.", json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"],"additionalProperties":false}`)},
	{ToolDone, "Declare the task finished; the episode ends.", json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)},
}

// Tools returns the tabletop tools; withPartner adds ask_robot.
func Tools(withPartner bool) []Tool {
	var out []Tool
	for _, t := range toolTable {
		if t.Name == ToolAskRobot && !withPartner {
			continue
		}
		out = append(out, t)
	}
	return out
}

// UndeclaredArgs are arguments no tool schema declares: a workflow that
// perceives through the camera image fills them in itself (pick_at and
// place_at, from where it saw each object), so the model is never asked
// for coordinates and no prompt changes.
var UndeclaredArgs = []string{"pick_at", "place_at"}

// ErrUnknownTool is returned for a call to a tool that does not exist.
var ErrUnknownTool = errors.New("unknown tool")

// DecodeArgs decodes and checks a tool call's arguments. It returns a
// pointer to the tool's argument type. Errors name the tool and the field:
// `pick_and_place: field "place": required`.
func DecodeArgs(call ToolCall) (any, error) {
	var dst any
	switch call.Name {
	case ToolGetSceneGraph, ToolDetectObjects, ToolDone:
		dst = &NoArgs{}
	case ToolRetrieveNode:
		dst = &RetrieveNodeArgs{}
	case ToolRetrieveEdge:
		dst = &RetrieveEdgeArgs{}
	case ToolPickAndPlace:
		dst = &PickAndPlaceArgs{}
	case ToolAsk:
		dst = &AskArgs{}
	case ToolAskRobot:
		dst = &AskRobotArgs{}
	case ToolAct:
		dst = &ActArgs{}
	case ToolAdmissible, ToolGetMap:
		dst = &NoArgs{}
	case ToolAnswer:
		dst = &AnswerArgs{}
	default:
		return nil, fmt.Errorf("%w %q", ErrUnknownTool, call.Name)
	}
	raw := bytes.TrimSpace(call.Args)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	if !plainArgs(raw, dst) {
		if err := decodeArgsJSON(call.Name, raw, dst); err != nil {
			return nil, err
		}
	}
	if err := checkArgs(dst); err != nil {
		return nil, fmt.Errorf("%s: %w", call.Name, err)
	}
	return dst, nil
}

// decodeArgsJSON decodes raw into dst through encoding/json, which also
// says what is wrong with arguments that plainArgs leaves to it.
func decodeArgsJSON(name string, raw []byte, dst any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return fmt.Errorf("%s: %w", name, argError(err))
	}
	// dec.More is not enough: it reports false for a stray '}' or ']'.
	if len(bytes.Trim(raw[dec.InputOffset():], " \t\r\n")) > 0 {
		return fmt.Errorf("%s: trailing data after the arguments object", name)
	}
	return nil
}

func argError(err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te) && te.Field == "":
		return fmt.Errorf("arguments: expected a JSON object, got JSON %s", te.Value)
	case errors.As(err, &te):
		return fmt.Errorf("field %q: expected %s, got JSON %s", te.Field, te.Type, te.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("malformed JSON: the arguments end too early")
	case errors.As(err, &se):
		return fmt.Errorf("malformed JSON at offset %d: %v", se.Offset, se)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return fmt.Errorf("field %s: not an argument of this tool", strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	return err
}

func checkArgs(a any) error {
	required := func(field, v string) error {
		if strings.TrimSpace(v) == "" {
			return fmt.Errorf("field %q: required", field)
		}
		return nil
	}
	switch a := a.(type) {
	case *RetrieveNodeArgs:
		if (a.AttrKey == "") != (a.AttrVal == "") {
			missing := "attr_val"
			if a.AttrKey == "" {
				missing = "attr_key"
			}
			return fmt.Errorf("field %q: attr_key and attr_val go together", missing)
		}
	case *RetrieveEdgeArgs:
		if a.Relation != "" && !slices.Contains(relations, a.Relation) {
			return fmt.Errorf("field %q: unknown relation %q (want one of %s)", "relation", a.Relation, strings.Join(relations, ", "))
		}
	case *ActArgs:
		return required("command", a.Command)
	case *PickAndPlaceArgs:
		if err := required("pick", a.Pick); err != nil {
			return err
		}
		return required("place", a.Place)
	case *AskArgs:
		if !slices.Contains(AskTags, a.Tag) {
			return fmt.Errorf("field %q: %q is not a tag (want one of %s)", "tag", a.Tag, strings.Join(AskTags, ", "))
		}
		return required("question", a.Question)
	case *AskRobotArgs:
		return required("message", a.Message)
	}
	return nil
}

var relations = scenes.Relations

// ToolDecls declares to a model the tools of env that names lists, in
// env's order.
func ToolDecls(env Env, names ...string) []llm.ToolDecl {
	var out []llm.ToolDecl
	for _, t := range env.Tools() {
		for _, n := range names {
			if t.Name == n {
				out = append(out, llm.ToolDecl{Name: t.Name, Description: t.Description, Schema: t.Schema})
			}
		}
	}
	return out
}
