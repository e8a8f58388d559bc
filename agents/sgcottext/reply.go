package sgcottext

// The requests a reply may make, by the names the protocol writes.
const (
	RetrieveNode      = "retrieve_node"
	RetrieveEdge      = "retrieve_edge"
	AskMultiplicity   = "ask_multiplicity"
	AskAbsence        = "ask_absence"
	AskUnderspecified = "ask_underspecified"
	AskRobot          = "ask_robot"
	PickAndPlace      = "pick_and_place"
)

// Requests are the request names in the order the prompts list them.
var Requests = []string{RetrieveNode, RetrieveEdge, AskMultiplicity, AskAbsence, AskUnderspecified, AskRobot, PickAndPlace}

// The markers that open the parts of a reply.
const (
	markThought = "THOUGHT:"
	markRequest = "REQUEST:"
	markFinal   = "FINAL_DECISIONS:"
)

// Reply is one reply of the planner: its reasoning, then one request, or
// (Request nil) its final moves, which may be none.
type Reply struct {
	Thought string
	Request *Request
	Moves   []Move
}

// Request is one request. Which fields it uses depends on Name:
// retrieve_node its Node and Attrs filters, retrieve_edge Source, Target
// and Relation, the asks and ask_robot Text, pick_and_place Object and
// Destination. An empty filter filters nothing.
type Request struct {
	Name                     string
	Node                     string
	Attrs                    []Attr
	Source, Target, Relation string
	Text                     string
	Object, Destination      string
}

// Attr is an attribute filter of retrieve_node: nodes whose attribute
// Key has the value Val.
type Attr struct{ Key, Val string }

// Move is one pick-and-place of the final decisions.
type Move struct{ Pick, Place string }

// Tag is the ambiguity tag of an ask request (multiplicity, absence,
// underspecified), and "" for any other request.
func (r *Request) Tag() string {
	switch r.Name {
	case AskMultiplicity:
		return "multiplicity"
	case AskAbsence:
		return "absence"
	case AskUnderspecified:
		return "underspecified"
	}
	return ""
}

// AskFor is the ask request of an ambiguity tag, and "" for a tag the
// protocol has no request for.
func AskFor(tag string) string {
	switch tag {
	case "multiplicity":
		return AskMultiplicity
	case "absence":
		return AskAbsence
	case "underspecified":
		return AskUnderspecified
	}
	return ""
}
