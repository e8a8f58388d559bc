package agents

import (
	"context"
	"encoding/json"
)

// The household track's contract. An agent plays a text game: it sends
// commands with act and reads the observations back; it may list the
// commands that would succeed now, and ask the user as on the tabletop.
// The game is won when its goal holds, never by saying so; an episode of
// the track may run several trials of the same game, each from the start.

// Track names.
const (
	TrackTabletop  = "tabletop"
	TrackHousehold = "household"
)

// Household tool names.
const (
	ToolAct        = "act"
	ToolAdmissible = "admissible_commands"
)

// ActArgs are the arguments of act.
type ActArgs struct {
	Command string `json:"command"`
}

var householdTools = []Tool{
	{ToolAct, "Carry out one text command in the household (go to R, open R, close R, take O from R, put O in/on R, heat/cool/clean O with R, use O, examine X, inventory, look, think: …) and return what you observe.", json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"],"additionalProperties":false}`)},
	{ToolAdmissible, "List the commands that would succeed now.", json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)},
}

// HouseholdTools returns the household track's tools: act,
// admissible_commands and ask.
func HouseholdTools() []Tool {
	out := append([]Tool(nil), householdTools...)
	for _, t := range toolTable {
		if t.Name == ToolAsk {
			out = append(out, t)
		}
	}
	return out
}

// Tracked is an Env that says which track it belongs to. An Env that does
// not implement it is a tabletop one.
type Tracked interface {
	Track() string
}

// TrackOf returns the track of an Env.
func TrackOf(env Env) string {
	if t, ok := env.(Tracked); ok {
		return t.Track()
	}
	return TrackTabletop
}

// Trials is implemented by a household Env that can play the same game
// again. NewTrial puts the game back to its start, counts a trial, and
// returns the opening observation (the room and the task); it fails once
// the episode's trials are used up. Trial numbers the current trial from
// 1. An agent that does not reflect plays one trial and never calls it.
type Trials interface {
	Trial() int
	MaxTrials() int
	NewTrial(ctx context.Context) (string, error)
}

// Opening is implemented by a household Env: the observation the game
// starts with, the room's description and "Your task is to: …".
type Opening interface {
	Opening() string
}

// Reflective is an agent that reflects between trials. After Run the
// harness reads its reflections to count them, their tokens, and the
// redundant ones.
type Reflective interface {
	Reflections() []ReflectionRecord
}

// ReflectionRecord is one reflection an agent ran.
type ReflectionRecord struct {
	// Trial is the trial the reflection looked back on, from 1.
	Trial int
	Text  string
	// Tokens are the input and output tokens of every call the
	// reflection made.
	Tokens int
	// Tools are the reflection tools the reflection called, in order, one
	// entry per call (DyRef's toolkit: ReflectKeyRules, …); empty for a
	// reflection that is one free-text call, as Reflexion's.
	Tools []string
	// PlanChanged reports whether the trial after the reflection sent a
	// different sequence of commands than the trial before it; false for
	// a reflection after which no trial ran.
	PlanChanged bool
}

// Reflection tool names, as ReflectionRecord.Tools and the records carry
// them.
const (
	ReflectKeyRules   = "key_rules"  // the rule of the task type, from a solved game of that type
	ReflectExperience = "experience" // what the failed trial found and did that the next can reuse
	ReflectLesson     = "lesson"     // the one constraint of the lesson pool the trial broke
	ReflectAmbiguity  = "ambiguity"  // whether the instruction left something open, and what to ask
	ReflectPlan       = "plan"       // the chosen analyses combined into the next trial's plan
)

// ReflectionTools are the four analyses in the order the toolkit runs
// them, which is dyref.AllTools' order (a test holds the names equal):
// the DyRef paper's three, then this project's ambiguity, which only
// dyref-ambiguity routes to; plan comes after whichever ran.
var ReflectionTools = []string{ReflectKeyRules, ReflectExperience, ReflectLesson, ReflectAmbiguity}
