package simmodel

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents/grounding"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// SampledPlan is the reply to a planning call in JSON format: the whole
// plan, written at once, with no chance to ask. Uncertainty-sampling
// workflows (CLARA) draw several and compare them.
type SampledPlan struct {
	Steps       []SampledStep `json:"plan"`
	Explanation string        `json:"explanation,omitempty"`
}

// SampledStep is a pick-and-place, or a message to the other robot (after
// which the plan cannot go on until it answers).
type SampledStep struct {
	Pick     string `json:"pick,omitempty"`
	Place    string `json:"place,omitempty"`
	AskRobot string `json:"ask_robot,omitempty"`
}

// Classification is the reply to a classify call: whether the instruction
// can be carried out as given, and if not, the question to ask.
type Classification struct {
	// Feasible is false when what the instruction names is not there.
	Feasible bool `json:"feasible"`
	// Ambiguous is true when it can be read in more than one way.
	Ambiguous bool `json:"ambiguous"`
	// Action is what to do next: "ask" the user, "ask_robot", or "act".
	Action   string `json:"action"`
	Tag      string `json:"tag,omitempty"`
	Question string `json:"question,omitempty"`
}

// sampledPlan writes a whole plan without asking. Where the reference
// planner would ask the user, the model guesses — and at temperature > 0
// each sample guesses differently, which is the disagreement that
// uncertainty sampling measures. A clear instruction gives every sample
// the same plan, but for the profile's errors, which are drawn per sample.
func (c *call) sampledPlan() llm.Reply {
	ex, placed := history(c.req)
	for _, e := range c.cc.Exchanges {
		ex = append(ex, grounding.Exchange{Kind: e.Kind, Tag: e.Tag, Text: e.Text, Reply: e.Reply})
	}
	view, shown := c.sceneView()
	if !shown {
		view = grounding.GraphView{}
	}
	sit := grounding.Situation{Instruction: c.cc.Instruction, Partner: c.cc.Partner, View: view, History: ex, Looking: c.looking()}
	var plan SampledPlan
	for range 8 {
		d := grounding.Decide(sit)
		switch d.Kind {
		case grounding.ActAsk:
			sit.History = append(sit.History, grounding.Exchange{Kind: d.Kind, Tag: d.Tag, Text: d.Text, Reply: c.guess(d)})
			continue
		case grounding.ActAskRobot:
			for _, mv := range c.handOff(decision{Decision: d, placed: placed}) {
				plan.Steps = append(plan.Steps, SampledStep{Pick: mv.Pick, Place: mv.Place})
			}
			plan.Steps = append(plan.Steps, SampledStep{AskRobot: d.Text})
			plan.Explanation = "The other robot has to help first."
			if id, ok := handed(d.Text); ok {
				// A hand-over the plan can count on: write the rest as if
				// it were done, so guesses made after it show.
				sit.History = append(sit.History, grounding.Exchange{Kind: d.Kind, Text: d.Text, Reply: grounding.HandReply(id)})
				continue
			}
		case grounding.ActMove:
			for _, mv := range c.moves(decision{Decision: d, placed: placed}) {
				plan.Steps = append(plan.Steps, SampledStep{Pick: mv.Pick, Place: mv.Place})
			}
			plan.Explanation = "Each step moves one object where the instruction says."
		default:
			plan.Explanation = "I cannot make a plan: " + d.Text
		}
		break
	}
	data, _ := json.Marshal(plan) // strings only
	return llm.Reply{Text: string(data), FinishReason: llm.FinishStop}
}

// handed reads the block id out of a hand-over request.
func handed(request string) (string, bool) {
	id, ok := strings.CutPrefix(request, "Please put ")
	if !ok {
		return "", false
	}
	id, ok = strings.CutSuffix(id, " in the shared workspace.")
	return id, ok && grounding.HandRequest(id) == request
}

// guess is the answer a sampling model gives itself where it should ask:
// one candidate of several, or a look-alike of an object that is not there.
// The sample index picks it, and consecutive samples take the candidates in
// turn, so the draws of an ambiguous instruction numbered 0 to n-1 (CLARA
// numbers its 5 prompts' 3 draws 0 to 14) spread evenly over the
// candidates: the most diverse answers a sampler can meet, where a real
// model may favour one.
func (c *call) guess(d grounding.Decision) string {
	var cands []string
	switch d.Tag {
	case "multiplicity":
		cands = strings.Split(strings.TrimSuffix(strings.TrimPrefix(d.Text, "Which do you mean: "), "?"), " or ")
	default:
		class := scenes.ClassBlock
		if strings.Contains(d.Text, " bowl") || strings.HasPrefix(d.Text, "Where") {
			class = scenes.ClassBowl
		}
		cands = c.objectsOf(class)
		if len(cands) < 2 {
			cands = append(cands, c.phantom(class))
		}
	}
	// In a fixed order, whatever order the prompt listed them in, so that
	// consecutive samples take different candidates.
	slices.Sort(cands)
	sample := 0
	if c.req.Temperature != 0 {
		sample = c.req.Sample
	}
	h := sha256.Sum256([]byte(d.Tag + "\x00" + strings.Join(cands, "\x00")))
	// Unsigned, so that no sample, however large, wraps to a negative index.
	i := (uint64(binary.LittleEndian.Uint32(h[:4])%1024) + uint64(max(sample, 0))) % uint64(len(cands))
	return "I mean " + cands[i] + "."
}

// classify labels the instruction: clear, ambiguous (and how), or
// infeasible, and gives the question to ask. The profile's slips can make
// it miss an ambiguity, and its tag errors give the wrong kind.
func (c *call) classify() llm.Reply {
	d := c.decide()
	var out Classification
	switch d.Kind {
	case grounding.ActAsk, grounding.ActAskRobot:
		tool, args := c.question(d.Decision)
		out.Action = tool
		switch {
		case tool == "ask":
			out.Tag, out.Question = args["tag"], args["question"]
			out.Feasible = out.Tag != "absence"
			out.Ambiguous = out.Tag != "absence"
		case len(d.Moves) > 0:
			// A hand-off starts with a move: the plan carries it out, and
			// its message, in order.
			out.Feasible, out.Action = true, "act"
		default:
			out.Feasible, out.Question = true, args["message"]
		}
	default:
		out.Feasible, out.Action = true, "act"
	}
	data, _ := json.Marshal(out)
	return llm.Reply{Text: string(data), FinishReason: llm.FinishStop}
}
