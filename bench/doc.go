// Package bench is the harness: it runs agents on the episodes of a track
// and scores them, the same way on every track.
//
// A track (tabletop, household, semmap, or one of a user's own) is a
// [Track], of eight methods: its name and line in the list, its run flags
// and their check, its cells (task family × perturbation, or whatever its
// second dimension is), how many episodes a cell holds, the settings that
// change an outcome (run.json keeps them), and, for a job, what its
// episode is ([Track.NewEpisode]). The runner, the Go benchmarks, run.json
// and the command see a track only through that interface;
// [RegisterTrack] adds one, and package bench/tracks registers the
// built-ins.
//
// The harness owns the episode. An [Episode] says only what is the
// track's: the agent's environment with the truth for an agent that reads
// it (and more agents, a partner robot's, through a callback), the record
// fields that score it, and where the track has them the agent's settings
// (calibration, perception, router …) and seed ([AgentEpisode]) and what
// it adds to the context ([ContextEpisode]). [RunEpisode] runs the
// one skeleton for every track: it builds the episode, makes the agent
// (newAgent, seeded by [AgentSeed]), plays it with its model calls
// counted ([EpisodeContext], playAgent), starts the record with the
// fields every track fills the same way (newRecord, the wall time, the
// agent's error), has the episode score it, and finishes it
// (finishRecord), which sorts the episode into scored, agent error or
// infrastructure error. [PlayEpisode] does the same with an agent made
// already (the household's router training). [User] is the simulated user
// the tracks share: a question whose tag matches the ground truth gets the
// recorded answer, any other ends the episode.
//
// How a track's runs are shown — its sections of "ambibench list", its
// tables, summary lines, report sections and benchmark metrics — is a
// [Presenter], every method of which is optional: [List], [Table],
// [Report], [Metrics] and the rest call the track's where it has one and
// give the default where it does not.
//
// An episode is fixed by (suite seed, track, task family, perturbation,
// episode index): [EpisodeSeed] hashes those into the seed of the
// episode's random stream, so every agent meets the same episodes and the
// same command gives the same records at any concurrency.
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
