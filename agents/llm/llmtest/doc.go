// Package llmtest holds what tests of agents and tracks share about the
// model layer: a model that keeps the requests it passes on, so that a
// test can read what a workflow sent (its prompts, its call contexts) as
// well as what came back.
package llmtest
