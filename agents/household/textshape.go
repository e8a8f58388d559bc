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

// textAction reads a text reply as the call it stands for: its first
// non-blank line, without a leading ">" the model may echo, as an ask
// when it reads "ask TAG: question" with a known tag, else as a command.
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
		if tag, q, ok := strings.Cut(rest, ":"); ok && slices.Contains(agents.AskTags, strings.TrimSpace(tag)) {
			args, _ := json.Marshal(agents.AskArgs{Tag: strings.TrimSpace(tag), Question: strings.TrimSpace(q)})
			return llm.ToolCall{Name: agents.ToolAsk, Args: args}, true
		}
	}
	args, _ := json.Marshal(agents.ActArgs{Command: line})
	return llm.ToolCall{Name: agents.ToolAct, Args: args}, true
}
