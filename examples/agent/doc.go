// Package oneshot adds an agent from outside package agents: a workflow
// over the model layer, with its own prompt template and the template's
// golden file, registered with one agents.RegisterWorkflow call. It is
// the recipe of the README's "Adding an agent"; its test runs the agent
// through "ambibench run" on the simulated model and through the
// tabletop's Go benchmark.
//
// The workflow is the simplest plan-then-act baseline: one model call
// sees the instruction and the whole scene graph and answers with tool
// calls, which run in order; nothing that happens is shown to the model
// again, so a question it asks gets an answer it never reads.
package oneshot
