package view

import (
	"encoding/json"
	"strings"

	"github.com/ambibench/ambibench/agents/llm"
)

// trial is one trial of a household game as its episode page shows it.
type trial struct {
	N int
	// Text is the game's text as played: the opening observation and
	// task, then each command ("> ...") and what the game answered.
	Text string
	// Last is the command of the trial's last call, whose answer the
	// transcript does not hold (the game answers after the call).
	Last string
	// Reflection is the note the agent wrote after the trial, "" when it
	// wrote none.
	Reflection string
}

// The markers of the household prompts (agents/household/prompts): a
// game's text starts after one of the openings, and a call of the agent's
// reflection ends in reflectEnd.
var (
	openings   = []string{"Here is your task.", "The task to carry out:"}
	reflectEnd = "\nNew plan:"
	// The lines of a prompt's tail, which follow the game's text.
	tails = []string{"\nYour next step", "\nYour last reply had no tool call", "\n(Your last reply held no command"}
)

// householdTrials reads a household episode's game from its model calls:
// each call of a trial's planner holds the whole trial so far in its
// last user message, so the trial's text is that of its last call; a
// call whose prompt ends in "New plan:" is the reflection that ends a
// trial. Calls that are neither are skipped.
func householdTrials(cs []entry) []trial {
	var out []trial
	var cur *trial
	for _, c := range cs {
		text := lastUserText(c.Request.Messages)
		if strings.HasSuffix(strings.TrimRight(text, " \n"), reflectEnd) {
			if cur == nil {
				cur = &trial{N: len(out) + 1}
			}
			if c.Reply != nil {
				cur.Reflection = strings.TrimSpace(c.Reply.Text)
			}
			out = append(out, *cur)
			cur = nil
			continue
		}
		start := -1
		for _, o := range openings {
			if i := strings.LastIndex(text, o); i >= 0 && i+len(o) > start {
				start = i + len(o)
			}
		}
		if start < 0 {
			continue
		}
		if cur == nil {
			cur = &trial{N: len(out) + 1}
		}
		game := text[start:]
		for _, t := range tails {
			if i := strings.LastIndex(game, t); i >= 0 {
				game = game[:i]
			}
		}
		game = strings.TrimSpace(game)
		game = strings.TrimSpace(strings.TrimSuffix(game, ">")) // the text shape's prompt ends in "> "
		cur.Text = game
		cur.Last = lastCommand(c)
	}
	if cur != nil {
		out = append(out, *cur)
	}
	return out
}

func lastUserText(ms []llm.Message) string {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Role == llm.RoleUser {
			return ms[i].Text
		}
	}
	return ""
}

// lastCommand is the command a planner's call sent: its act tool call's
// command, its ask tool call's question, or the first line of a text
// reply.
func lastCommand(c entry) string {
	if c.Reply == nil {
		return ""
	}
	for _, tc := range c.Reply.ToolCalls {
		var args map[string]any
		_ = json.Unmarshal(tc.Args, &args)
		switch tc.Name {
		case "act":
			if s, ok := args["command"].(string); ok {
				return s
			}
		case "ask":
			if s, ok := args["question"].(string); ok {
				if tag, ok := args["tag"].(string); ok && tag != "" {
					return "(ask, " + tag + ") " + s
				}
				return "(ask) " + s
			}
		}
	}
	line, _, _ := strings.Cut(strings.TrimSpace(c.Reply.Text), "\n")
	return strings.TrimSpace(line)
}
