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
// One detector serves every workflow that is given one (SG-CoT and its
// ablations, CLARA, Inner Monologue, ProgPrompt): the detect_objects
// tool, whose result is []llm.Detection and which a prompt's call
// context carries as CallContext.Detections. direct keeps
// get_scene_graph, the full graph, as the paper's full-graph ablation.
// The baselines list the detections (positions in metres, objects.go)
// and rebuild relations from the boxes only for their own checks
// (sceneOf); each look is a detect_objects call, a step of the record.
//
// scene_graph_noise acts where each part of perception is made, so that
// it means the same for every method. Its node part (Flip: a misread
// colour, class or workspace, and the id that names the object for what
// it seems) is the detector's: every workflow reads the same misreadings,
// under the ids the table's graph gives them. Its relation part (Drop,
// Spurious) acts where relations are made: the table's graph for direct,
// and SG-CoT's perceive call, where the simulated model drops and
// imagines relations over the detector's boxes (llm.WithPerceptionNoise,
// which reaches serve-sim as CallContext.Play). The baselines are shown no
// relation, so only the node part reaches their prompts; their checks see
// the geometry of the boxes as the detector read them. Had the whole
// noise stayed in get_scene_graph, the baselines' prompts would have
// escaped the relation part by never showing relations while their checks
// met it, and SG-CoT, rebuilding from a detector that read right, would
// have met it only through the simulated model.
//
// With perception=image (the default) every workflow that perceives
// sees the robot's camera image instead: SG-CoT through its detection and
// scene-graph calls (perceive_image.go), the baselines through the same
// detection call (eyes.go), and each acts where an object was seen
// (seeingEnv). The detector paragraphs above are perception=detector.
//
// What several of them share has a file of its own: conversation.go, the
// tool-call loop (a model call, its tool calls run in order, their
// results fed back); graph.go, the observed scene graph and the first
// request of a workflow (openingRequest); objects.go, the detector's
// object list as the baselines show it; perceive.go and perceive_scan.go,
// SG-CoT's perceive call and the reading of its reply; partner.go, the
// reply to the other robot's ask_robot message from the whole graph
// (direct and the workflows that show it) or by SG-CoT's own method
// (perceive, retrieve, hand over, reply); partner_list.go, the same reply
// from the object list (CLARA and Inner Monologue in a tool loop,
// ProgPrompt with a short program). CLARA's uncertainty estimator has one
// too, clara_diversity.go: the diversity of its sampled plans' pick and
// place phrases, as CLARA's code measures it, with bags of words standing
// in for the code's word vectors.
//
// Each workflow registers itself with agents.RegisterWorkflow in init.
package tabletop
