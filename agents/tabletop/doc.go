// Package tabletop holds the LLM workflows of the tabletop track: direct
// (the table's whole scene graph in one prompt: SG-CoT's full-graph
// ablation as the paper ran it), sgcot and its ablations
// (sgcot-full-graph, sgcot-single-retrieval, sgcot-no-edges), clara,
// inner-monologue and progprompt, one file each, with their prompts
// (prompts/*.tmpl, embedded; golden copies under testdata/).
//
// SG-CoT builds its own scene graph before it plans (perceive.go): the
// detector's objects (detect_objects: ids, attributes, boxes in mm), then
// a perceive call (llm.CallPerceive) in which the model writes the
// relations as JSON. Its retrievals are answered from that graph, not the
// table's, and counted with the table (a step and a tool call each), so a
// relation the model perceived wrongly is what it plans on. Every
// ablation perceives: sgcot-full-graph shows the perceived graph whole,
// sgcot-single-retrieval retrieves from it once, and sgcot-no-edges asks
// for the nodes only.
//
// What several of them share has a file of its own: conversation.go, the
// tool-call loop (a model call, its tool calls run in order, their
// results fed back); graph.go, the observed scene graph and the first
// request of a workflow that shows it whole; partner.go, the reply to the
// other robot's ask_robot message: from the whole graph (direct and the
// workflows that show it), or by SG-CoT's own method (sgcot and its
// ablations: perceive, retrieve, hand over, reply).
//
// Each workflow registers itself with agents.RegisterWorkflow in init.
package tabletop
