// Package results holds what a benchmark run leaves behind and turns it into
// numbers a reader can trust.
//
// # Records
//
// A [Record] is one episode run by one agent with one model: which cell of the
// grid it belongs to (track, task family, perturbation, ground-truth label,
// agent, model, seed, episode index), what the agent did (whether it asked for
// clarification, its questions and how many carried the right tag, steps, tool
// calls, robot-to-robot messages) and how it went (success, ambiguity
// detection, error, wall time). Every record carries [SchemaVersion];
// [Record.Validate] checks a decoded one and names the offending field, and
// [Record.Key] identifies it for resuming a run.
//
// # JSON Lines
//
// Results are append-only JSON Lines: one record per line, written whole and
// in one write by a [Writer], so a killed run leaves at most one partial line at
// the end of the file. [ReadRecords] reads a file back; a malformed line is
// reported as "name:LINE: message", and a partial last line as an error that
// wraps [ErrTruncated] while every complete record before it is still
// returned. [OpenAppend] opens a results file for a resumed run: it returns the
// records already there, drops a partial last line, and appends after them.
//
// # Aggregation
//
// [Aggregate] pools records into cells ([Cell]), one per agent, perturbation and
// (optionally) task family. Each rate — ADA, SR, tag accuracy — is a [Rate]
// (successes K out of N) and comes with a 95% Wilson score interval
// ([Wilson], [Z95]), which, unlike the normal approximation, stays inside
// [0, 1] and behaves at 0/N and N/N.
//
// # Tables
//
// [Markdown] renders cells as an agent × perturbation table of ADA and SR with
// the episode count and, if asked, the intervals. Output is deterministic: the
// same cells give the same bytes.
//
// # Reports
//
// [Report] writes the whole Markdown report of a run: ADA and SR by agent and
// ambiguity type, cost per episode, the household's success by trial and
// reflection statistics ([SumTrials], [SummarizeReflections], whose per-game
// means and Cost_ref carry percentile bootstrap intervals from a fixed seed),
// partial observability by task family, the SG-CoT ablations, the scene-size
// series, and paired comparisons. Two agents
// are compared on the episodes both ran ([McNemar]): the pairs where only one
// of them succeeded decide McNemar's exact test ([McNemarP]), which, unlike two
// separate intervals, uses the pairing of the episodes.
package results
