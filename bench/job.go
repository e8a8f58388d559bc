package bench

import (
	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/prompt"
	"github.com/ambibench/ambibench/results"
)

// Cell is one task family under one perturbation (or whatever the track's
// second dimension is), at a scene size.
type Cell struct {
	Family, Perturbation string
	// Size is the number of objects on the table, distractors included;
	// 0 is the family's own size. Only the tabletop has sizes.
	Size int
}

// Job is one episode of one cell for one agent.
type Job struct {
	Cell
	Agent string
	Index int
	// Track is the name of the job's track.
	Track string
	// Repeat is which play of the episode this is, from 0, in a run with
	// Options.Repeats above 1: the same episode, played again with
	// sampling streams of its own.
	Repeat int
}

// Key identifies the job's record, as results.Record.Key does.
func (j Job) Key(seed uint64, model string) string {
	return results.Record{Track: j.Track, Family: j.Family, Perturbation: j.Perturbation, Agent: j.Agent, Model: model, Seed: seed, Episode: j.Index, SceneSize: j.Size, Repeat: j.Repeat}.Key()
}

// Options select a run: its track and grid, the settings every episode
// shares, and how to run it.
type Options struct {
	// Track is the track to run, with its own settings (see NewTrack).
	Track Track
	Seed  uint64
	// Model drives the workflows (agents registered with
	// RegisterWorkflow); the reference agents use none. Open it with
	// models.Open, which also counts its calls.
	Model llm.Model
	// Members are the models an agent with agents.Info.UsesMembers (the
	// ensemble) samples its answers from; Model makes its other calls.
	// Empty: Model alone. Open them as Model is opened, so that their
	// calls are counted in the episode's record too.
	Members []llm.Model
	// Prompts are the prompt templates that replace the built-in ones
	// (run --prompts; prompt.Load), nil for none. Run hands them to the
	// workflows in the episodes' context, so they are this run's alone;
	// Settings names each replaced template the track reads (its own
	// set, and an extension's: ReadsPromptSet) by its hash.
	Prompts *prompt.Overrides

	Families      []string // empty: all
	Perturbations []string // empty: all
	Agents        []string // empty: all that play the track
	// Episodes is the number of episodes per cell and agent; on a track
	// whose cells hold a fixed set of episodes (games, dataset pairs), at
	// most that many, and 0 means all of them. A track that generates
	// episodes without end needs a number.
	Episodes int
	// Repeats is how many times each episode is played (0 or 1: once),
	// each repeat with independent sampling streams: the model's draws
	// (llm.WithRepeat) and the agent's seed (AgentSeed). Repeat 0 plays
	// as a run without repeats.
	Repeats int
	// Shard, if set, keeps one part of the grid: [Jobs] and [Run] see
	// only the jobs of that shard (see [Shard] for how they are dealt).
	Shard       Shard
	Concurrency int // episodes at once; 1 if zero
	// OnRecord, if set, is called with each new record once it is
	// written, in grid order, one call at a time (from the worker that
	// writes it): what a progress display reads.
	OnRecord func(Job, results.Record)
	// onStart, if set, is called as each episode begins: what the tests
	// of stopping read.
	onStart func(Job)
}

// ModelFor returns the model name an agent's records carry: the model's
// for a workflow, "" for a reference agent, and for an agent that samples
// from Members, agents.MembersModelName; a track may name it otherwise
// (see ModelNamer).
func (o Options) ModelFor(agent string) string {
	info, ok := agents.Lookup(agent)
	switch {
	case !ok || !info.UsesModel || o.Model == nil:
		return ""
	case info.UsesMembers && len(o.Members) > 0:
		return agents.MembersModelName(o.Model, o.Members)
	}
	if n, ok := o.Track.(ModelNamer); ok {
		if name, ok := n.ModelName(agent, o); ok {
			return name
		}
	}
	return o.Model.Name()
}
