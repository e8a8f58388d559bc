// Package bench is the harness: it runs agents on the episodes of a track
// and scores them, the same way on every track.
//
// A track (tabletop, household, semmap, or one of a user's own) is a
// [Track]: it lists its cells (task family × perturbation, or whatever its
// second dimension is), says how many episodes a cell holds, plays one
// episode of a cell for an agent and scores it into a [results.Record],
// names the settings that change an outcome (run.json keeps them), adds
// its own run flags, and says which report sections its records get. The
// runner, the Go benchmarks, run.json and the command see a track only
// through that interface; [RegisterTrack] adds one, and package
// bench/tracks registers the built-ins.
//
// An episode is fixed by (suite seed, track, task family, perturbation,
// episode index): [EpisodeSeed] hashes those into the seed of the
// episode's random stream, so every agent meets the same episodes and the
// same command gives the same records at any concurrency. A track's
// RunEpisode builds the episode, makes the agent ([NewAgent]), plays it
// with its model calls counted ([EpisodeContext], [PlayAgent]), and
// finishes the record ([NewRecord], [FinishRecord]), which sorts the
// episode into scored, agent error or infrastructure error. [User] is the
// simulated user the tracks share: a question whose tag matches the ground
// truth gets the recorded answer, any other ends the episode.
//
// [Run] runs a grid of cells × agents × episodes with bounded concurrency
// and writes the records in grid order, whatever order they finish in, so
// the file is the same at any concurrency; a run that was killed resumes
// where it stopped.
//
// [Benchmark] runs one sub-benchmark per agent and cell, named
// agent=…/task=…/perturb=… with the CLI's names, one op one episode, each
// repeat of -count a fresh block of episodes, and reports the track's
// metrics (ADA, SR, calls/op, tokens/op, …) for benchstat, after the
// configuration lines (model:, seed:, ambibench-version:) and the units'
// better= metadata; this package's BenchmarkTabletop, BenchmarkHousehold
// and BenchmarkSemmap call it.
package bench
