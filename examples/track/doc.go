// Package jars is a fourth track, written outside the harness to show
// that a track is one package and one bench.RegisterTrack call: with no
// edit to bench, cmd or results, its episodes run through "ambibench run"
// (with a flag of its own, --marbles), its settings go to run.json, its
// records get a report section of their own, and its Go benchmark runs
// through bench.Benchmark. The track is the eight methods of bench.Track
// and, of bench.Presenter, Report alone; an episode, a jar, is the two of
// bench.Episode (the agent's environment, here the jar itself, and the
// record fields the track scores). bench makes and plays the agent, fills
// the record's common fields, and gives the defaults of the rest.
//
// An episode is a jar of marbles described in the instruction ("The jar
// holds a red, a blue and a red marble. How many red marbles?"); the agent
// answers with the guess tool, and the episode succeeds when the number is
// right. The track's own reference agent, counter, counts.
package jars
