// Package llm is ambibench's model layer: the [Model] interface every
// language-model workflow talks through, its request and reply types, the
// error kinds backends map their failures to, and the [CallContext] a
// workflow states beside its prompt for the simulated model.
//
// Backends live in sub-packages (sim, openai, gemini), as do the cassettes
// that record and replay calls and the middleware that retries, rate
// limits, times out, counts and transcribes them. Package models turns a
// spec string such as "sim:weak", "openai:gpt-4o-mini" or
// "record:DIR=gemini:gemini-2.5-flash" into a ready Model.
//
// Workflows use only this package; llm must not import package agents.
package llm
