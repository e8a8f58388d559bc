// Package jars is a fourth track, written outside the harness to show
// that a track is one package and one bench.RegisterTrack call: with no
// edit to bench, cmd or results, its episodes run through "ambibench run"
// (with a flag of its own, --marbles), its settings go to run.json, its
// records get a report section of their own, and its Go benchmark runs
// through bench.Benchmark.
//
// An episode is a jar of marbles described in the instruction ("The jar
// holds a red, a blue and a red marble. How many red marbles?"); the agent
// answers with the guess tool, and the episode succeeds when the number is
// right. The track's own reference agent, counter, counts.
package jars
