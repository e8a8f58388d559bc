package household

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
)

// The text shape of the ReAct player, the Reflexion authors' own
// (alfworld_trial.py, line 57: the prompt ends in ">", the completion
// stops at a newline, and no tools are offered): the prompt ends with
// "> ", and the reply's first line is the one action. A question is a
// line too, "ask TAG: question", as the simulated model writes it in text
// (agents/llm/simmodel, TestHouseholdTextFormat). There is no listing of
// the admissible commands, which the authors' prompts never had.
//
// llm.Request has no stop sequence, so the player cuts the reply at its
// first line instead: a completion stopped at "\n" would be that line.
// It skips blank lines before it, where a stop would have given an empty
// action, because a chat model often opens with one.

// The text shape's prompt is one user message, as the authors' prompt
// is one completion prompt (alfworld_trial.py, line 57; utils.py's
// get_chat sends it as the one user message): the instruction and two
// worked games (react_text_system.tmpl), then the notes and the task, and
// the trial's lines (react_user.tmpl). The games follow one another with
// no blank line, and in every opening the room and the task stand on
// consecutive lines, as the authors' loop joins the paragraphs of
// ALFWorld's first observation (alfworld_trial.py, line 107) and as their
// worked games are written. The world's own text keeps the blank line;
// a call's context holds the opening as its prompt shows it.

// textOpening writes an opening, or any text of openings such as the
// worked attempts of the reflection prompt, with each room and its task
// on consecutive lines.
func textOpening(s string) string {
	return strings.ReplaceAll(s, "\n\nYour task is to: ", "\nYour task is to: ")
}

// textExamplesFor is the text shape's worked games of a task type.
func textExamplesFor(taskType string) (string, error) {
	games, err := exampleGames(taskType)
	if err != nil {
		return "", err
	}
	return textOpening(strings.Join(games, "\n")), nil
}

// textAction reads a text reply as the call it stands for: its first
// non-blank line, without a leading ">" the model may echo, as an ask
// when it reads "ask TAG: question" with a known tag and a question, else
// as a command.
// ok is false for a reply with no line at all.
func textAction(reply string) (llm.ToolCall, bool) {
	var line string
	for l := range strings.SplitSeq(reply, "\n") {
		if line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), ">")); line != "" {
			break
		}
	}
	if line == "" {
		return llm.ToolCall{}, false
	}
	if rest, ok := strings.CutPrefix(line, "ask "); ok {
		// A question must say something: "ask absence:" alone is a
		// line the world reads, and does not understand.
		if tag, q, ok := strings.Cut(rest, ":"); ok && slices.Contains(agents.AskTags, strings.TrimSpace(tag)) && strings.TrimSpace(q) != "" {
			args, _ := json.Marshal(agents.AskArgs{Tag: strings.TrimSpace(tag), Question: strings.TrimSpace(q)})
			return llm.ToolCall{Name: agents.ToolAsk, Args: args}, true
		}
	}
	args, _ := json.Marshal(agents.ActArgs{Command: line})
	return llm.ToolCall{Name: agents.ToolAct, Args: args}, true
}
