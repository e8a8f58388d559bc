// Package bench runs agents on episodes and scores them.
//
// An episode is fixed by (suite seed, track, task family, perturbation,
// episode index): [EpisodeSeed] hashes those into the seed of the
// episode's random stream, so every agent meets the same episodes and the
// same command gives the same records at any concurrency.
//
// [RunEpisode] builds the table in the physics engine, gives each robot's
// agent an [agents.Env] over its own view, plays the simulated user (who
// answers a question only when its tag matches the ground truth, and ends
// the episode otherwise), passes ask_robot messages to the partner robot's
// agent, enforces the step limit, and scores the final state into a
// [results.Record].
//
// [Run] runs a grid of cells × agents × episodes with bounded concurrency
// and writes the records in grid order, whatever order they finish in, so
// the file is the same at any concurrency; a run that was killed resumes
// where it stopped.
//
// The Go benchmarks in this package (BenchmarkTabletop) run one
// sub-benchmark per cell, named agent=…/task=…/perturb=…, and report ADA,
// SR and steps/op, for benchstat.
package bench
