package sgcottext

import (
	"fmt"
	"strings"
)

// The tabletop's tool calls, as agents names them: a request is carried
// out as one of these (retrieve_node with several attribute filters as
// one call per filter, whose results the workflow intersects).
const (
	toolAsk      = "ask"
	toolAskRobot = "ask_robot"
	toolPick     = "pick_and_place"
)

// Call is the tool call that carries out the request: the tool's name and
// its arguments by the tool's own field names. A retrieve_node with
// several attribute filters gives the call of its name and first filter;
// the others are Attrs[1:].
func (r *Request) Call() (tool string, args map[string]string) {
	args = map[string]string{}
	set := func(k, v string) {
		if v != "" {
			args[k] = v
		}
	}
	switch r.Name {
	case RetrieveNode:
		set("name", r.Node)
		if len(r.Attrs) > 0 {
			args["attr_key"], args["attr_val"] = r.Attrs[0].Key, r.Attrs[0].Val
		}
		return RetrieveNode, args
	case RetrieveEdge:
		set("source", r.Source)
		set("target", r.Target)
		set("relation", r.Relation)
		return RetrieveEdge, args
	case AskRobot:
		return toolAskRobot, map[string]string{"message": r.Text}
	case PickAndPlace:
		return toolPick, map[string]string{"pick": r.Object, "place": r.Destination}
	}
	return toolAsk, map[string]string{"tag": r.Tag(), "question": r.Text}
}

// FromCall is the request that a tool call is, the inverse of Call; ok is
// false for a call the protocol writes otherwise (done, which the final
// decisions imply) or not at all, and for an ask whose tag has no
// request.
func FromCall(tool string, args map[string]string) (r *Request, ok bool) {
	switch tool {
	case RetrieveNode:
		r = &Request{Name: RetrieveNode, Node: args["name"]}
		if k, v := args["attr_key"], args["attr_val"]; k != "" || v != "" {
			r.Attrs = []Attr{{Key: k, Val: v}}
		}
	case RetrieveEdge:
		r = &Request{Name: RetrieveEdge, Source: args["source"], Target: args["target"], Relation: args["relation"]}
	case toolAsk:
		name := AskFor(args["tag"])
		if name == "" {
			return nil, false
		}
		r = &Request{Name: name, Text: args["question"]}
	case toolAskRobot:
		r = &Request{Name: AskRobot, Text: args["message"]}
	case toolPick:
		r = &Request{Name: PickAndPlace, Object: args["pick"], Destination: args["place"]}
	default:
		return nil, false
	}
	return r, true
}

// markResult opens each line of a results message.
const markResult = "RESULT:"

// Results writes the message that returns what a reply's request or
// final moves gave, one "RESULT:" line each, in order; a result's own
// line breaks become spaces so that each stays one line.
func Results(results ...string) string {
	var b strings.Builder
	for i, r := range results {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(markResult + " " + strings.Join(strings.Fields(r), " "))
	}
	return b.String()
}

// ParseResults reads the results of a message Results wrote, which may go
// on with other text (the prompt's next instruction): the "RESULT:"
// lines from its start. ok is false when the message opens with none.
func ParseResults(msg string) (results []string, ok bool) {
	for _, line := range strings.Split(msg, "\n") {
		r, found := strings.CutPrefix(line, markResult)
		if !found {
			break
		}
		results = append(results, strings.TrimSpace(r))
	}
	return results, len(results) > 0
}

// Refusal is the message that returns a reply the protocol refused, with
// why, so the model can write it again.
func Refusal(err error) string {
	return fmt.Sprintf("Your reply was not read: %v. Reply with %s and one %s, or with %s.", err, markThought, markRequest, markFinal)
}
