// Package results holds what a benchmark run leaves behind: its records
// and the files they live in.
//
// # Records
//
// A [Record] is one episode run by one agent with one model: which cell of the
// grid it belongs to (track, task family, perturbation, ground-truth label,
// agent, model, seed, episode index), what the agent did (whether it asked for
// clarification, its questions and how many carried the right tag, steps, tool
// calls, robot-to-robot messages) and how it went (success, ambiguity
// detection, error, wall time). Every record carries [SchemaVersion];
// [Record.Validate] checks a decoded one and names the offending field.
// [Record.Key] identifies it for resuming a run, [Record.EpisodeKey] (the key
// without the model) pairs two runs' records, and [Record.PairKey] (without
// agent and model) pairs two agents' records. An episode's [Record.Outcome]
// says whether it counts: [Record.Scored], [ScoredOnly].
//
// # JSON Lines
//
// Results are append-only JSON Lines: one record per line, written whole and
// in one write by a [Writer], so a killed run leaves at most one partial line at
// the end of the file. [ReadRecords] reads a file back; a malformed line is
// reported as "name:LINE: message", and a partial last line as an error that
// wraps [ErrTruncated] while every complete record before it is still
// returned. [ScanRecords] reads one a record at a time, keeping none, and
// [ScanRecordsAt] also hands where each line is, for [ReadRecordAt] to read
// it again. [OpenAppend] opens a results file for a resumed run: it returns
// the records already there ([OpenAppendScan] hands them one at a time
// instead), drops a partial last line, and appends after them.
// [OnceEach] and [FirstDuplicate] refuse an episode recorded twice.
//
// # Run directories and shards
//
// A run directory holds records.jsonl beside run.json, a [RunFile]: the
// settings every record was made with, which must not change, and the
// [Grid] run so far, which may grow. [RunFile.CheckRecord] refuses a record
// that is not of the run. A shard's directory also holds its part of the
// grid ([RunShard], with the whole run's [JobOrder]); [CheckShards] checks
// that shards are those of one run, and [ShardDir.Placer] places each of
// their records in the unsharded run's order, so that a merge can join
// them a record at a time.
//
// # The results packages
//
// What is made of the records lives beside this package, one concept a
// package, as gonum splits its own:
//
//   - results/stats: the statistics: rates with Wilson intervals,
//     aggregation into cells, McNemar's exact test, Holm's correction, the
//     percentile bootstrap, success by trial and what reflecting cost;
//   - results/compare: the gate that compares two runs on the same
//     episodes (ambibench compare);
//   - results/reports: the Markdown report and its plots, to which every
//     track contributes its own sections, baseline and words.
//
// They import no package of the project but one another, in this order:
// results imports none; results/stats imports results; results/compare and
// results/reports import results and results/stats.
package results
