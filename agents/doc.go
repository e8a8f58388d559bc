// Package agents defines how an agent meets an episode: the [Agent] and
// [Env] contracts, the tools of each track and their argument types, the
// registry of agents, the ground truth a reference agent may read, and
// what a workflow reports (reflections, drafts). It imports no workflow
// package: what one workflow needs (DyRef's router, its solved cases) lives
// with it, and [Config] carries the run's router as a [Router], which the
// harness only names. It holds no agent: the
// workflows live in one package per track (agents/tabletop,
// agents/household, agents/semmap) and the reference agents in
// agents/reference, each registering its agents in its init; import them
// (each track's package does, in bench/<track>/agents.go) to have them
// registered.
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
//	detect_objects()                                the detector's objects: attributes, position, size (no relations)
//	retrieve_node(name?, attr_key?, attr_val?)      node ids, by name or one attribute
//	retrieve_edge(source?, target?, relation?)      relations, any filter optional
//	pick_and_place(pick, place)                     act; place is an object, a named place or "shared workspace"
//	ask(tag, question)                              ask the user; tag is absence, multiplicity or underspecified
//	ask_robot(message)                              message the other robot, which may act and replies
//	done()                                          end the episode
//
// A new agent is one file in the package of its track and one [Register]
// call (or [RegisterWorkflow] / [RegisterWorkflowOn] for one driven by a
// model) in its init; its place in the registry, and so in the benchmark
// grid, is its place in [Order].
package agents
