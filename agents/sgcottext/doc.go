// Package sgcottext is the grammar of SG-CoT's text protocol, the form
// in which the SG-CoT paper's planner writes every reply (its appendix
// 6.2 and the worked examples of its section 7): a THOUGHT, then either
// one REQUEST or the FINAL_DECISIONS.
//
//	THOUGHT: There are two red bowls; I look for the blocks in them.
//	REQUEST: retrieve_edge(relation="in", target="red bowl 1")
//
//	THOUGHT: The destination is unique, so I can act.
//	FINAL_DECISIONS: [{"action": "pick_and_place", "pick_object": "blue block 1", "place_object": "green bowl 1"}]
//
// A request is a call with quoted arguments: retrieve_node and
// retrieve_edge read the scene graph (each argument a filter, the paper's
// leading "scene" allowed and ignored), ask_multiplicity, ask_absence and
// ask_underspecified ask the person a question whose name is its
// ambiguity tag, ask_robot sends the other robot a message, and
// pick_and_place(object=…, destination=…) makes one move now. The
// paper's examples write retrieve_node(type='bowl', color='red'): an
// argument other than name, attr_key and attr_val is an attribute filter;
// and retrieve_edge(type='inside_of'): type is the relation. Strings may
// be quoted with ', ", or the typographic quotes the paper prints.
//
// [Parse] reads a reply and refuses anything else with an [*Error] that
// says what is wrong; [Reply.String] writes a reply in the canonical form,
// which Parse reads back to the same reply. [Request.Call] and [FromCall]
// translate between a request and the tabletop's tool calls, and
// [Results] and [ParseResults] write and read the message that returns
// the results of a reply. The sgcot-text workflow (agents/tabletop) and
// the simulated model share them, as the ProgPrompt workflow and the
// simulated model share agents/program.
package sgcottext
