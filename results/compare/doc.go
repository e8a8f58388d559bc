// Package compare is the gate between two runs: it says whether NEW is
// worse than BASE on the same episodes, as ambibench compare and a CI job
// ask.
//
// [Runs] pairs the records of the two runs by [results.Record.EpisodeKey]
// (the model, which is what is compared, may differ; the episode may not)
// and compares, for each agent and cell (family × perturbation, and scene
// size), the cell's metrics: SR and ADA, or Top1 for a cell of queries.
// Each [Comparison] gets McNemar's exact p from its discordant pairs, that
// p adjusted by Holm's method over every comparison made, and a verdict:
// worse (or better) when the adjusted p is below [Options.Alpha] and the
// rate moved by [Options.MinEffect] or more, same otherwise. The gate
// fails when a gated comparison is worse ([Result.Failures]). Episodes
// that do not pair are an [*UnpairedError], never dropped in silence.
//
// A [Stream] does the same as the records come, a run at a time or both
// side by side, holding a record only until its partner comes (in a
// compact form) and adding up each pair: two runs of one grid, in one
// order, are compared in memory that does not grow with them. Runs and
// [ExactDiff] are a Stream over two slices.
//
// [Settings] checks first that the runs' run.json settings let their
// episodes pair (the model, the routers and the prompt templates may
// differ: [ComparedSettings]); [ExactDiff] lists every scored field in
// which two deterministic runs differ. [WriteText] and [WriteMarkdown]
// write the result for a terminal and for a pull-request comment.
package compare
