package agents_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
)

func TestDecodeArgs(t *testing.T) {
	tests := []struct {
		name string
		tool string
		args string
		want any
	}{
		{"get_scene_graph with an empty object", agents.ToolGetSceneGraph, `{}`, &agents.NoArgs{}},
		{"get_scene_graph with null args", agents.ToolGetSceneGraph, `null`, &agents.NoArgs{}},
		{"get_scene_graph with no args at all", agents.ToolGetSceneGraph, ``, &agents.NoArgs{}},
		{"done with blank args", agents.ToolDone, " \n\t", &agents.NoArgs{}},
		{"done with padded null", agents.ToolDone, ` null `, &agents.NoArgs{}},
		{"retrieve_node with no filter", agents.ToolRetrieveNode, `{}`, &agents.RetrieveNodeArgs{}},
		{"retrieve_node by name", agents.ToolRetrieveNode, `{"name":"red block"}`, &agents.RetrieveNodeArgs{Name: "red block"}},
		{"retrieve_node by attribute", agents.ToolRetrieveNode, `{"attr_key":"color","attr_val":"red"}`, &agents.RetrieveNodeArgs{AttrKey: "color", AttrVal: "red"}},
		{"retrieve_node by name and attribute", agents.ToolRetrieveNode, `{"name":"red block","attr_key":"color","attr_val":"red"}`,
			&agents.RetrieveNodeArgs{Name: "red block", AttrKey: "color", AttrVal: "red"}},
		{"retrieve_edge with no filter", agents.ToolRetrieveEdge, `null`, &agents.RetrieveEdgeArgs{}},
		{"retrieve_edge with every filter", agents.ToolRetrieveEdge, `{"source":"red block 1","target":"blue bowl","relation":"left_of"}`,
			&agents.RetrieveEdgeArgs{Source: "red block 1", Target: "blue bowl", Relation: "left_of"}},
		{"retrieve_edge by relation only", agents.ToolRetrieveEdge, `{"relation":"on_top_of"}`, &agents.RetrieveEdgeArgs{Relation: "on_top_of"}},
		{"pick_and_place", agents.ToolPickAndPlace, `{"pick":"red block 1","place":"blue bowl 1"}`, &agents.PickAndPlaceArgs{Pick: "red block 1", Place: "blue bowl 1"}},
		{"pick_and_place to a named place", agents.ToolPickAndPlace, "{\n  \"place\": \"top left corner\",\n  \"pick\": \"red block 1\"\n}\n",
			&agents.PickAndPlaceArgs{Pick: "red block 1", Place: "top left corner"}},
		{"ask", agents.ToolAsk, `{"tag":"multiplicity","question":"Which red block?"}`, &agents.AskArgs{Tag: "multiplicity", Question: "Which red block?"}},
		{"ask about absence", agents.ToolAsk, `{"tag":"absence","question":"There is no red block. Which one?"}`, &agents.AskArgs{Tag: "absence", Question: "There is no red block. Which one?"}},
		{"ask_robot", agents.ToolAskRobot, `{"message":"Please put the red block in the shared workspace."}`,
			&agents.AskRobotArgs{Message: "Please put the red block in the shared workspace."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := agents.DecodeArgs(agents.ToolCall{Name: tt.tool, Args: json.RawMessage(tt.args)})
			if err != nil {
				t.Fatalf("DecodeArgs(%s, %s): %v", tt.tool, tt.args, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("DecodeArgs(%s, %s) = %#v, want %#v", tt.tool, tt.args, got, tt.want)
			}
		})
	}
}

func TestDecodeArgsErrors(t *testing.T) {
	tests := []struct {
		name string
		tool string
		args string
		want []string // substrings the error must hold
	}{
		{"pick_and_place without place", agents.ToolPickAndPlace, `{"pick":"red block 1"}`, []string{`pick_and_place: field "place": required`}},
		{"pick_and_place without pick", agents.ToolPickAndPlace, `{"place":"blue bowl 1"}`, []string{`pick_and_place: field "pick": required`}},
		{"pick_and_place with a blank pick", agents.ToolPickAndPlace, `{"pick":"  ","place":"blue bowl 1"}`, []string{`field "pick": required`}},
		{"pick_and_place with no args", agents.ToolPickAndPlace, `null`, []string{`field "pick": required`}},
		{"ask without a question", agents.ToolAsk, `{"tag":"absence"}`, []string{`ask: field "question": required`}},
		{"ask_robot without a message", agents.ToolAskRobot, `{}`, []string{`ask_robot: field "message": required`}},
		{"unknown field", agents.ToolPickAndPlace, `{"pick":"a","place":"b","speed":2}`, []string{"pick_and_place", `field "speed"`, "not an argument"}},
		{"unknown field on a tool with no args", agents.ToolDone, `{"reason":"finished"}`, []string{"done", `field "reason"`}},
		{"a misspelt field", agents.ToolRetrieveNode, `{"nmae":"red block"}`, []string{`field "nmae"`}},
		{"wrong type names the field", agents.ToolPickAndPlace, `{"pick":1,"place":"b"}`, []string{`pick_and_place: field "pick"`, "expected string", "number"}},
		{"wrong type of a filter", agents.ToolRetrieveEdge, `{"relation":["near"]}`, []string{`field "relation"`, "array"}},
		{"args not an object", agents.ToolAsk, `["absence","Which?"]`, []string{"ask", "expected a JSON object", "array"}},
		{"args a bare string", agents.ToolDone, `"yes"`, []string{"done", "expected a JSON object", "string"}},
		{"bad tag lists the valid tags", agents.ToolAsk, `{"tag":"ambiguity","question":"Which?"}`, []string{`field "tag"`, `"ambiguity" is not a tag`, "absence, multiplicity, underspecified"}},
		{"missing tag", agents.ToolAsk, `{"question":"Which?"}`, []string{`field "tag"`, "absence"}},
		{"tag is case-sensitive", agents.ToolAsk, `{"tag":"Absence","question":"Which?"}`, []string{`field "tag"`}},
		{"bad relation lists the relations", agents.ToolRetrieveEdge, `{"relation":"beside"}`, []string{`field "relation"`, `unknown relation "beside"`, "left_of", "near"}},
		{"attr_key without attr_val", agents.ToolRetrieveNode, `{"attr_key":"color"}`, []string{`retrieve_node: field "attr_val"`, "go together"}},
		{"attr_val without attr_key", agents.ToolRetrieveNode, `{"attr_val":"red"}`, []string{`retrieve_node: field "attr_key"`, "go together"}},
		{"malformed JSON", agents.ToolPickAndPlace, `{"pick":"a",`, []string{"pick_and_place"}},
		{"syntax error gives an offset", agents.ToolPickAndPlace, `{"pick" "a"}`, []string{"malformed JSON at offset"}},
		{"trailing object", agents.ToolPickAndPlace, `{"pick":"a","place":"b"} {}`, []string{"trailing data"}},
		{"trailing closing brace", agents.ToolPickAndPlace, `{"pick":"a","place":"b"}}`, []string{"trailing data"}},
		{"trailing closing bracket", agents.ToolDone, `{}]`, []string{"done", "trailing data"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := agents.DecodeArgs(agents.ToolCall{Name: tt.tool, Args: json.RawMessage(tt.args)})
			if err == nil {
				t.Fatalf("DecodeArgs(%s, %s) = %#v, want an error", tt.tool, tt.args, got)
			}
			if got != nil {
				t.Errorf("DecodeArgs(%s, %s) returned %#v with its error", tt.tool, tt.args, got)
			}
			if errors.Is(err, agents.ErrUnknownTool) {
				t.Errorf("error %q wraps ErrUnknownTool for a known tool", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("DecodeArgs(%s, %s) error %q does not mention %q", tt.tool, tt.args, err, w)
				}
			}
		})
	}
}

func TestDecodeArgsUnknownTool(t *testing.T) {
	tests := []struct {
		name, tool string
	}{
		{"a made-up tool", "fly"},
		{"empty name", ""},
		{"a tool name in the wrong case", "Pick_And_Place"},
		{"a name with spaces around", " done "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := agents.DecodeArgs(agents.ToolCall{Name: tt.tool, Args: json.RawMessage(`{}`)})
			if !errors.Is(err, agents.ErrUnknownTool) {
				t.Fatalf("DecodeArgs(%q) = %v, %v; want an error wrapping ErrUnknownTool", tt.tool, got, err)
			}
			if !strings.Contains(err.Error(), `"`+tt.tool+`"`) {
				t.Errorf("error %q does not quote the tool name %q", err, tt.tool)
			}
		})
	}
}

// TestToolSchemasMatchDecodeArgs checks that every tool's schema is valid
// JSON, that its properties are exactly the fields DecodeArgs accepts, and
// that its required list matches what DecodeArgs requires.
func TestToolSchemasMatchDecodeArgs(t *testing.T) {
	tools := agents.Tools(true)
	if len(tools) != len(toolNames) {
		t.Fatalf("Tools(true) lists %d tools, want %d", len(tools), len(toolNames))
	}
	for _, tool := range tools {
		t.Run(tool.Name, func(t *testing.T) {
			var schema struct {
				Type       string                     `json:"type"`
				Properties map[string]json.RawMessage `json:"properties"`
				Required   []string                   `json:"required"`
			}
			if err := json.Unmarshal(tool.Schema, &schema); err != nil {
				t.Fatalf("schema: %v", err)
			}
			if schema.Type != "object" {
				t.Errorf("schema type %q, want object", schema.Type)
			}
			want := argType(t, tool.Name)
			fields := map[string]bool{}
			for i := range want.NumField() {
				name, _, _ := strings.Cut(want.Field(i).Tag.Get("json"), ",")
				if slices.Contains(agents.UndeclaredArgs, name) {
					continue // filled in by the workflow, never asked of the model
				}
				fields[name] = true
				if _, ok := schema.Properties[name]; !ok {
					t.Errorf("argument %q is missing from the schema", name)
				}
			}
			for p := range schema.Properties {
				if !fields[p] {
					t.Errorf("schema property %q is not an argument DecodeArgs accepts", p)
				}
			}
			// With nothing given, DecodeArgs must complain about the first
			// required field, and accept the call when none is required.
			_, err := agents.DecodeArgs(agents.ToolCall{Name: tool.Name})
			if len(schema.Required) == 0 && err != nil {
				t.Errorf("no required fields, but empty args give %v", err)
			}
			if len(schema.Required) > 0 && (err == nil || !strings.Contains(err.Error(), `"`+schema.Required[0]+`"`)) {
				t.Errorf("empty args give %v, want an error naming %q", err, schema.Required[0])
			}
		})
	}
	for _, tool := range agents.Tools(false) {
		if tool.Name == agents.ToolAskRobot {
			t.Errorf("Tools(false) offers ask_robot")
		}
	}
}

var toolNames = []string{
	agents.ToolGetSceneGraph, agents.ToolRetrieveNode, agents.ToolRetrieveEdge,
	agents.ToolPickAndPlace, agents.ToolAsk, agents.ToolAskRobot, agents.ToolDone, agents.ToolDetectObjects,
}

// argType returns the struct type DecodeArgs decodes a tool's arguments
// into.
func argType(t testing.TB, tool string) reflect.Type {
	var v any
	switch tool {
	case agents.ToolGetSceneGraph, agents.ToolDetectObjects, agents.ToolDone:
		v = agents.NoArgs{}
	case agents.ToolRetrieveNode:
		v = agents.RetrieveNodeArgs{}
	case agents.ToolRetrieveEdge:
		v = agents.RetrieveEdgeArgs{}
	case agents.ToolPickAndPlace:
		v = agents.PickAndPlaceArgs{}
	case agents.ToolAsk:
		v = agents.AskArgs{}
	case agents.ToolAskRobot:
		v = agents.AskRobotArgs{}
	default:
		t.Fatalf("no argument type for tool %q", tool)
	}
	return reflect.TypeOf(v)
}

func FuzzDecodeArgs(f *testing.F) {
	seeds := []struct {
		tool uint8
		args string
	}{
		{0, `{}`},
		{1, `{"name":"red block","attr_key":"color","attr_val":"red"}`},
		{2, `{"source":"red block 1","relation":"near"}`},
		{3, `{"pick":"red block 1","place":"blue bowl 1"}`},
		{3, `{"pick":"red block 1"}`},
		{4, `{"tag":"absence","question":"Which?"}`},
		{4, `{"tag":"none","question":"Which?"}`},
		{5, `{"message":"hello"}`},
		{6, `null`},
		{6, `{}}`},
		{7, `{}`}, // an unknown tool
		{1, `{"attr_key":1}`},
		{2, `[`},
	}
	for _, s := range seeds {
		f.Add(s.tool, []byte(s.args))
	}
	f.Fuzz(func(t *testing.T, tool uint8, args []byte) {
		i := int(tool) % (len(toolNames) + 1)
		name := "no_such_tool"
		if i < len(toolNames) {
			name = toolNames[i]
		}
		got, err := agents.DecodeArgs(agents.ToolCall{Name: name, Args: args})
		if i == len(toolNames) {
			if !errors.Is(err, agents.ErrUnknownTool) {
				t.Fatalf("unknown tool gave %v, %v; want ErrUnknownTool", got, err)
			}
			return
		}
		if err != nil {
			if got != nil {
				t.Fatalf("%s(%q) returned %#v with error %v", name, args, got, err)
			}
			if !strings.HasPrefix(err.Error(), name+": ") {
				t.Fatalf("%s(%q) error %q does not start with the tool name", name, args, err)
			}
			return
		}
		rv := reflect.ValueOf(got)
		if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Type() != argType(t, name) {
			t.Fatalf("%s(%q) returned a %T, want *%v", name, args, got, argType(t, name))
		}
		// What was accepted survives a round trip through JSON.
		data, err := json.Marshal(got)
		if err != nil {
			t.Fatalf("marshal %#v: %v", got, err)
		}
		again, err := agents.DecodeArgs(agents.ToolCall{Name: name, Args: data})
		if err != nil {
			t.Fatalf("%s: re-decoding %s: %v (from %q)", name, data, err, args)
		}
		if !reflect.DeepEqual(again, got) {
			t.Fatalf("%s: round trip changed %#v into %#v", name, got, again)
		}
	})
}
