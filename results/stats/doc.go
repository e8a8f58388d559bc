// Package stats holds the statistics ambibench reads its records with,
// each with the interval or the test that says how far to trust it.
//
// # Rates
//
// A [Rate] is K successes out of N episodes. Its 95% interval is the Wilson
// score interval ([Wilson], [Z95]), which, unlike the normal approximation,
// stays inside [0, 1] and behaves at 0/N and N/N. [Aggregate] pools records
// into cells ([Cell]), one per agent, perturbation and (optionally) task
// family, each with its ADA, SR and tag accuracy as rates; records of an
// infrastructure failure are in no rate. [OrderBy] is the order of agents
// and perturbations it sorts by.
//
// # Paired tests
//
// Two agents (or two runs of one agent) are compared on the episodes both
// played: [McNemar] pairs their records ([results.Record.PairKey]) on a
// binary outcome ([Metric]: [MetricSR], [MetricADA], [MetricTop1]), and the
// pairs where only one succeeded decide McNemar's exact test ([McNemarP]),
// which, unlike two separate intervals, uses the pairing. [Holm] adjusts
// the p-values of many such tests for their number.
//
// # Trials, reflections and repeats
//
// For a track that plays a game several times (household), [SumTrials]
// gives success by trial (SR@k) and what reflecting bought (Rate_rev) and
// cost (Cost_ref); [SumTrialsAt] gives the same as a run of k trials would
// have ended. [SummarizeReflections] adds per-game means with 95%
// percentile bootstrap intervals ([BootstrapResamples] resamples from a
// fixed seed, [BootstrapMeans], [Estimate]), so that the same records give
// the same intervals on every run. [Repeats] spreads a rate over the
// repeats of a run (--repeats). The definitions are docs/metrics.md's.
package stats
