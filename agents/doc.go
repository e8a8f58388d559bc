// Package agents defines how an agent meets an episode, and holds the
// reference agents.
//
// An agent sees an episode only through [Env]: the instruction, its robot,
// its partner robot if there is one, and the tools the track offers. Every
// action is a tool call ([ToolCall]) answered by a [Result], so a workflow
// driven by a language model hands the very same tools to the model as
// function declarations ([Tools] lists them with their JSON schemas).
//
// The tabletop tools are:
//
//	get_scene_graph()                               the whole graph of the robot's view
//	retrieve_node(name?, attr_key?, attr_val?)      node ids, by name or one attribute
//	retrieve_edge(source?, target?, relation?)      relations, any filter optional
//	pick_and_place(pick, place)                     act; place is an object, a named place or "shared workspace"
//	ask(tag, question)                              ask the user; tag is absence, multiplicity or underspecified
//	ask_robot(message)                              message the other robot, which may act and replies
//	done()                                          end the episode
//
// The reference agents are oracle (reads the ground truth through
// [TruthSource], the only agent allowed to, and must score perfectly),
// random (random valid calls, the floor) and rules (parses the instruction
// with the task grammar of package grounding, grounds it through retrieval,
// asks with the tag it infers, then acts).
//
// A new agent is one file and one [Register] call.
package agents
