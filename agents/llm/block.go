package llm

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ambibench/ambibench/scenes"
)

// Every prompt the project sends carries its context twice: in prose for a
// real model, and once in a fenced block of JSON, opened by "```ambibench",
// that the simulated model reads instead of the prose. Real models are told
// they may ignore it.

// BlockFence opens the machine-readable block.
const BlockFence = "```ambibench"

// BlockVersion is the version of the block's shape.
const BlockVersion = 1

// Roles of a call, as the block states them.
const (
	CallPlan     = "plan"     // decide the next action(s) with the tools
	CallReflect  = "reflect"  // say what went wrong
	CallRefine   = "refine"   // improve an answer
	CallChoose   = "choose"   // pick among options
	CallClassify = "classify" // label the instruction (clear, ambiguous, infeasible)
	CallAnswer   = "answer"   // answer another robot's message
)

// Output formats a block may ask for.
const (
	FormatToolCalls = "tool_calls"
	FormatJSON      = "json"
	FormatText      = "text"
	// FormatProgram asks for a program in the ProgPrompt style: a Python
	// function body of action calls, assertions and recovery steps.
	FormatProgram = "program"
)

// Exchange is a question asked earlier in the episode and its reply.
type Exchange struct {
	Kind  string `json:"kind"` // "ask" (the user) or "ask_robot" (the other robot)
	Tag   string `json:"tag,omitempty"`
	Text  string `json:"text"`
	Reply string `json:"reply"`
}

// Move is a pick-and-place that was carried out.
type Move struct {
	Pick  string `json:"pick"`
	Place string `json:"place"`
}

// Block is the machine-readable context of a call.
type Block struct {
	Version     int    `json:"v"`
	Role        string `json:"role"`
	Track       string `json:"track"`
	Instruction string `json:"instruction,omitempty"`
	Robot       string `json:"robot,omitempty"`
	Partner     string `json:"partner,omitempty"`
	// Graph is the scene data the prompt holds, if it holds a graph.
	Graph *scenes.Graph `json:"graph,omitempty"`
	// Objects are the detected objects, when the prompt lists objects but
	// not their graph.
	Objects []string `json:"objects,omitempty"`
	Places  []string `json:"places,omitempty"`
	Tags    []string `json:"tags,omitempty"`
	// Message is what the other robot asked, for CallAnswer.
	Message string `json:"message,omitempty"`
	// Exchanges and Done are the episode so far, for workflows that write
	// each prompt afresh instead of keeping a tool-call conversation: the
	// questions asked with their replies, and the moves that succeeded.
	Exchanges []Exchange `json:"exchanges,omitempty"`
	Done      []Move     `json:"done,omitempty"`
	// Opening, Trajectory and Reflections are a household trial: the
	// observation it started with (the room and "Your task is to: …"),
	// every call since with what came back, and the reflections on earlier
	// trials that the prompt shows, oldest first.
	Opening     string      `json:"opening,omitempty"`
	Trajectory  []HouseStep `json:"trajectory,omitempty"`
	Reflections []string    `json:"reflections,omitempty"`
	// Trial numbers the household trial from 1, when the workflow says;
	// the simulated model draws a fresh chance per trial of heeding a
	// reflection.
	Trial int `json:"trial,omitempty"`
	// Tool names the reflection tool of a reflect call that is one step of
	// a toolkit (DyRef: key_rules, experience, lesson, ambiguity, plan);
	// empty for a free-text reflection. For plan, Reflections are the
	// other tools' outputs to combine.
	Tool string `json:"tool,omitempty"`
	// Case is a solved game of the same task type, for key_rules: the
	// commands that solved it, each with what it gave.
	Case []HouseStep `json:"case,omitempty"`
	// SemanticMap is a semmap call's map, and Mode how the prompt shows
	// it: "certainty" (each object's best class) or "uncertainty" (the
	// class distributions).
	SemanticMap *scenes.SemanticMap `json:"semantic_map,omitempty"`
	Mode        string              `json:"mode,omitempty"`
	// Answers are a semmap workflow's earlier answers, each the JSON
	// object of a reply, oldest first; Feedback the critiques of them, in
	// the same order. A reflect call reviews the last answer, which has no
	// critique yet; a refine call applies the last critique to the last
	// answer. Without memory they hold only those. For a choose call,
	// Answers are the responses to pick from, "Response A" first.
	Answers  []string `json:"answers,omitempty"`
	Feedback []string `json:"feedback,omitempty"`
	Format   string   `json:"format"`
}

// HouseStep is one call of a household trial and its result.
type HouseStep struct {
	Tool     string `json:"tool"`              // act, admissible_commands or ask
	Command  string `json:"command,omitempty"` // act's command; ask's tag
	Question string `json:"question,omitempty"`
	Result   string `json:"result"` // the observation, the commands one per line, or the user's answer
}

// Render returns the block fenced for a prompt.
func (b Block) Render() string {
	if b.Version == 0 {
		b.Version = BlockVersion
	}
	data, err := json.Marshal(b)
	if err != nil {
		// Block holds only strings and a graph of strings.
		panic(fmt.Sprintf("llm: rendering block: %v", err))
	}
	return BlockFence + "\n" + string(data) + "\n```"
}

// ExtractBlock finds the first block in text. ok is false when there is
// none; err reports a block that is there but unreadable.
func ExtractBlock(text string) (b Block, ok bool, err error) {
	i := strings.Index(text, BlockFence)
	if i < 0 {
		return Block{}, false, nil
	}
	rest := text[i+len(BlockFence):]
	j := strings.Index(rest, "```")
	if j < 0 {
		return Block{}, true, fmt.Errorf("ambibench block: no closing fence")
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(rest[:j])), &b); err != nil {
		return Block{}, true, fmt.Errorf("ambibench block: %w", err)
	}
	if b.Version != BlockVersion {
		return Block{}, true, fmt.Errorf("ambibench block: version %d, want %d", b.Version, BlockVersion)
	}
	return b, true, nil
}

// FindBlock returns the first block of a request, looking in the system
// text and then in the messages in order.
func FindBlock(req Request) (Block, error) {
	texts := append([]string{req.System}, nil...)
	for _, m := range req.Messages {
		texts = append(texts, m.Text)
	}
	for _, t := range texts {
		b, ok, err := ExtractBlock(t)
		if ok {
			return b, err
		}
	}
	return Block{}, fmt.Errorf("request carries no ambibench block")
}
