// Package tabletop holds the LLM workflows of the tabletop track: direct
// (the whole scene graph in one prompt), sgcot and its ablations
// (sgcot-full-graph, sgcot-single-retrieval, sgcot-no-edges), clara,
// inner-monologue and progprompt, one file each, with their prompts
// (prompts/*.tmpl, embedded; golden copies under testdata/).
//
// What several of them share has a file of its own: conversation.go, the
// tool-call loop (a model call, its tool calls run in order, their
// results fed back); graph.go, the observed scene graph and the first
// request of a workflow that shows it whole; partner.go, the reply to the
// other robot's ask_robot message.
//
// Each workflow registers itself with agents.RegisterWorkflow in init.
package tabletop
