package sgcottext

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseAccepts(t *testing.T) {
	for _, tc := range []struct {
		why, text string
		want      Reply
	}{
		{"the protocol's own form, a retrieval by attribute",
			"THOUGHT: I need the red bowls.\nREQUEST: retrieve_node(attr_key=\"color\", attr_val=\"red\")",
			Reply{Thought: "I need the red bowls.", Request: &Request{Name: RetrieveNode, Attrs: []Attr{{"color", "red"}}}}},
		{"the paper's examples filter by attributes by name, in single quotes",
			"THOUGHT: First the red bowls.\nREQUEST: retrieve_node(type='bowl', color='red')",
			Reply{Thought: "First the red bowls.", Request: &Request{Name: RetrieveNode, Attrs: []Attr{{"type", "bowl"}, {"color", "red"}}}}},
		{"the system prompt's signature leads with scene, which filters nothing",
			"THOUGHT: t\nREQUEST: retrieve_edge(scene, source=\"red block 1\", relation=\"inside_of\")",
			Reply{Thought: "t", Request: &Request{Name: RetrieveEdge, Source: "red block 1", Relation: "inside_of"}}},
		{"the paper's retrieve_edge names the relation type, in typographic quotes",
			"THOUGHT: t\nREQUEST: retrieve_edge(type=‘inside_of’, target=‘red bowl 1’)",
			Reply{Thought: "t", Request: &Request{Name: RetrieveEdge, Relation: "inside_of", Target: "red bowl 1"}}},
		{"no filter at all: the whole graph's nodes",
			"THOUGHT: everything\nREQUEST: retrieve_node()",
			Reply{Thought: "everything", Request: &Request{Name: RetrieveNode}}},
		{"an ask in the paper's mismatched typographic quotes",
			"THOUGHT: Two red bowls.\nREQUEST: ask_multiplicity(”Did you mean the yellow block or the blue block?”)",
			Reply{Thought: "Two red bowls.", Request: &Request{Name: AskMultiplicity, Text: "Did you mean the yellow block or the blue block?"}}},
		{"an ask by keyword, with an escaped quote",
			`THOUGHT: gone` + "\n" + `REQUEST: ask_absence(question="There is no \"purple bowl\". Where to?")`,
			Reply{Thought: "gone", Request: &Request{Name: AskAbsence, Text: `There is no "purple bowl". Where to?`}}},
		{"the underspecified ask of section 7.3",
			"THOUGHT: Where to?\nREQUEST: ask_underspecified(“Where should the red block go?”)",
			Reply{Thought: "Where to?", Request: &Request{Name: AskUnderspecified, Text: "Where should the red block go?"}}},
		{"ask_robot, section 7.4",
			"THOUGHT: Not in my view.\nREQUEST: ask_robot(\"Can you see a blue block?\")",
			Reply{Thought: "Not in my view.", Request: &Request{Name: AskRobot, Text: "Can you see a blue block?"}}},
		{"pick_and_place as the examples write it",
			"THOUGHT: Hand it over.\nREQUEST: pick_and_place(object='blue block 1', destination='shared workspace')",
			Reply{Thought: "Hand it over.", Request: &Request{Name: PickAndPlace, Object: "blue block 1", Destination: "shared workspace"}}},
		{"the final decisions, one action, on the next line, around blank lines",
			"\n  THOUGHT: Unique.\n\nFINAL_DECISIONS:\n[\n {\"action\": \"pick_and_place\", \"pick_object\": \"blue block 1\", \"place_object\": \"green bowl 1\"}\n]\n",
			Reply{Thought: "Unique.", Moves: []Move{{"blue block 1", "green bowl 1"}}}},
		{"two moves keep their order",
			`THOUGHT: Two.` + "\n" + `FINAL_DECISIONS: [{"action":"pick_and_place","pick_object":"a","place_object":"b"},{"action":"pick_and_place","pick_object":"c","place_object":"d"}]`,
			Reply{Thought: "Two.", Moves: []Move{{"a", "b"}, {"c", "d"}}}},
		{"no moves left: an empty list ends the episode",
			"THOUGHT: All done.\nFINAL_DECISIONS: []",
			Reply{Thought: "All done.", Moves: []Move{}}},
		{"a one-line reply, as the paper's transcripts run the parts together",
			"THOUGHT: One green bowl. REQUEST: retrieve_node(name='green bowl')",
			Reply{Thought: "One green bowl.", Request: &Request{Name: RetrieveNode, Node: "green bowl"}}},
		{"a thought over several lines",
			"THOUGHT: one\ntwo\nREQUEST: retrieve_node(name=\"x\")",
			Reply{Thought: "one\ntwo", Request: &Request{Name: RetrieveNode, Node: "x"}}},
	} {
		got, err := Parse(tc.text)
		if err != nil {
			t.Errorf("%s: %v", tc.why, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %#v %#v\nwant %#v %#v", tc.why, got, got.Request, tc.want, tc.want.Request)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	for _, tc := range []struct {
		why, text, says string
	}{
		{"an empty reply", "", "starts with \"THOUGHT:\"; this one starts with nothing"},
		{"prose, as a chat model answers", "Sure! I will pick the red block.", `starts with "Sure! I will pick the red block."`},
		{"markdown around the marker", "**THOUGHT:** x\nREQUEST: retrieve_node()", "starts with"},
		{"a thought and nothing else", "THOUGHT: I am thinking.", `no "REQUEST:" or "FINAL_DECISIONS:"`},
		{"an empty thought", "THOUGHT:\nREQUEST: retrieve_node()", "the thought is empty"},
		{"two requests in one reply", "THOUGHT: t\nREQUEST: retrieve_node()\nREQUEST: retrieve_edge()", "2 requests"},
		{"a request and the final decisions", "THOUGHT: t\nREQUEST: retrieve_node()\nFINAL_DECISIONS: []", "2 requests"},
		{"two thoughts", "THOUGHT: a\nTHOUGHT: b\nREQUEST: retrieve_node()", "appears twice"},
		{"an unknown request", "THOUGHT: t\nREQUEST: ask(\"which?\")", `unknown request "ask"`},
		{"a request in capitals", "THOUGHT: t\nREQUEST: RETRIEVE_NODE()", "takes a request such as"},
		{"text after the request", "THOUGHT: t\nREQUEST: retrieve_node()\nThe result will tell.", "text after the request"},
		{"an unclosed call: sim's malformed reply", "THOUGHT: I will act now.\nREQUEST: pick_and_place(pick=", "want a quoted string"},
		{"an unclosed string", "THOUGHT: t\nREQUEST: ask_absence(\"where", "is not closed"},
		{"an unquoted value", "THOUGHT: t\nREQUEST: retrieve_node(color=red)", "want a quoted string"},
		{"a bare word other than scene", "THOUGHT: t\nREQUEST: retrieve_node(graph)", `bare word "graph"`},
		{"scene after a filter", "THOUGHT: t\nREQUEST: retrieve_node(name='x', scene)", "scene is only the first argument"},
		{"a filter twice", "THOUGHT: t\nREQUEST: retrieve_node(color='red', color='blue')", "color given twice"},
		{"attr_key without attr_val", "THOUGHT: t\nREQUEST: retrieve_node(attr_key='color')", "go together"},
		{"relation and type both", "THOUGHT: t\nREQUEST: retrieve_edge(relation='near', type='near')", "give one"},
		{"an edge filter that is none", "THOUGHT: t\nREQUEST: retrieve_edge(color='red')", "unknown filter color"},
		{"an ask without its question", "THOUGHT: t\nREQUEST: ask_multiplicity()", "takes one argument, the question"},
		{"an ask with two strings", "THOUGHT: t\nREQUEST: ask_absence('a', 'b')", "takes one argument"},
		{"an empty question", "THOUGHT: t\nREQUEST: ask_absence('  ')", "the question is empty"},
		{"ask_robot by the wrong keyword", "THOUGHT: t\nREQUEST: ask_robot(question='see it?')", "the message as a quoted string"},
		{"pick_and_place positionally", "THOUGHT: t\nREQUEST: pick_and_place('a', 'b')", "takes object= and destination=, not a positional"},
		{"pick_and_place by the tool's own names", "THOUGHT: t\nREQUEST: pick_and_place(pick='a', place='b')", "not pick="},
		{"pick_and_place without a destination", "THOUGHT: t\nREQUEST: pick_and_place(object='a')", "both not empty"},
		{"final decisions not a list", "THOUGHT: t\nFINAL_DECISIONS: {\"action\": \"pick_and_place\"}", "takes a JSON list"},
		{"final decisions in a code fence", "THOUGHT: t\nFINAL_DECISIONS: ```json\n[]\n```", "takes a JSON list"},
		{"commentary after the list", "THOUGHT: t\nFINAL_DECISIONS: []\nDone!", "text after the final decisions"},
		{"a list that does not close", "THOUGHT: t\nFINAL_DECISIONS: [{\"action\": \"pick_and_place\"", "FINAL_DECISIONS:"},
		{"another action", `THOUGHT: t` + "\n" + `FINAL_DECISIONS: [{"action": "push", "pick_object": "a", "place_object": "b"}]`, `action 1 is "push"`},
		{"a field the action has not", `THOUGHT: t` + "\n" + `FINAL_DECISIONS: [{"action": "pick_and_place", "pick": "a", "place_object": "b"}]`, `unknown field "pick"`},
		{"an action without its object", `THOUGHT: t` + "\n" + `FINAL_DECISIONS: [{"action": "pick_and_place", "place_object": "b"}]`, `no "pick_object"`},
		{"an action that is a string", `THOUGHT: t` + "\n" + `FINAL_DECISIONS: ["pick_and_place(a, b)"]`, "action 1:"},
	} {
		_, err := Parse(tc.text)
		var perr *Error
		if !errors.As(err, &perr) {
			t.Errorf("%s: Parse(%q) = %v, want an *Error", tc.why, tc.text, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: error %q does not say %q", tc.why, err, tc.says)
		}
	}
}

// Each accepted form, written canonically, reads back the same.
func TestStringRoundTrips(t *testing.T) {
	for _, r := range []Reply{
		{Thought: "a", Request: &Request{Name: RetrieveNode, Node: "red block", Attrs: []Attr{{"color", "red"}, {"type", "block"}}}},
		{Thought: "a", Request: &Request{Name: RetrieveEdge, Target: "blue bowl 1", Relation: "inside_of"}},
		{Thought: "a\nb", Request: &Request{Name: AskAbsence, Text: `no "pink" \ block`}},
		{Thought: "a", Request: &Request{Name: AskRobot, Text: "Can you see it?"}},
		{Thought: "a", Request: &Request{Name: PickAndPlace, Object: "x 1", Destination: "shared workspace"}},
		{Thought: "a", Moves: []Move{{"red block 1", "blue bowl 1"}, {"<b>", "&"}}},
		{Thought: "a", Moves: []Move{}},
	} {
		got, err := Parse(r.String())
		if err != nil {
			t.Errorf("Parse(%q): %v", r.String(), err)
			continue
		}
		if !reflect.DeepEqual(got, r) {
			t.Errorf("%q read back as %#v", r.String(), got)
		}
	}
}

// A request and the tool call that carries it out translate both ways.
func TestCallRoundTrips(t *testing.T) {
	for _, r := range []*Request{
		{Name: RetrieveNode, Node: "red block"},
		{Name: RetrieveNode, Attrs: []Attr{{"color", "red"}}},
		{Name: RetrieveEdge, Source: "a", Relation: "near"},
		{Name: AskMultiplicity, Text: "Which?"},
		{Name: AskAbsence, Text: "Where?"},
		{Name: AskUnderspecified, Text: "What?"},
		{Name: AskRobot, Text: "Do you see it?"},
		{Name: PickAndPlace, Object: "a", Destination: "b"},
	} {
		tool, args := r.Call()
		back, ok := FromCall(tool, args)
		if !ok || !reflect.DeepEqual(back, r) {
			t.Errorf("%v → %s %v → %v (%v)", r, tool, args, back, ok)
		}
	}
	if _, ok := FromCall("done", nil); ok {
		t.Error("done is written as the final decisions, not as a request")
	}
	if _, ok := FromCall("ask", map[string]string{"tag": "partial_observability", "question": "?"}); ok {
		t.Error("an ask whose tag has no request must not translate")
	}
}

func TestResults(t *testing.T) {
	msg := Results(`["red bowl 1", "red bowl 2"]`, "error: no\nsuch block") + "\n\nYou have used all 14 turns."
	got, ok := ParseResults(msg)
	if want := []string{`["red bowl 1", "red bowl 2"]`, "error: no such block"}; !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("ParseResults = %q, %v; want %q", got, ok, want)
	}
	if _, ok := ParseResults("Your reply was not read: …"); ok {
		t.Error("a refusal is not a results message")
	}
}
