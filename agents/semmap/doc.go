// Package semmap holds the LLM workflows of the semmap track, the
// agentic-workflows paper's: baseline, self-reflect (and
// self-reflect-no-memory), multi-agent-reflect and ensemble, one file each,
// with their prompts (prompts/*.tmpl, embedded; golden copies under
// testdata/).
//
// What they share has a file of its own: session.go, an episode as a
// workflow plays it (the map fetched, the prompts' data, a model call at
// the provider's default temperature unless the ensemble samples, a JSON
// answer asked for again while it cannot be read, the answer);
// examples.go, the worked examples; reply.go, reading the model's JSON
// answer and its choice among lettered answers.
//
// Each workflow registers itself with agents.RegisterWorkflowOn in init.
package semmap
