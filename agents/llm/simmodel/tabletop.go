package simmodel

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/agents/grounding"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// The tabletop track (the SG-CoT paper). The model plans with
// grounding.Decide, the rules agent's planner, over what the prompt shows
// (a scene graph, a list of detected objects, or what the workflow has
// retrieved so far), errs at the profile's rates (hallucinate,
// multiplicity, absence, vague, tag, coord) and writes the decision in the
// format the context asks for: tool calls, a JSON plan (sample.go), a
// ProgPrompt program (program.go) or SG-CoT's text protocol
// (text_protocol.go). It also reads the camera's image (detect.go, at the
// rates miss, colorswap, duplicate and phantom), writes the scene graph of
// what it sees (perceive.go) and answers the other robot (answer).

func init() { Teach("tabletop", func(c *Call) llm.Reply { return c.c.tabletop() }) }

// tabletop answers a tabletop call.
func (c *call) tabletop() llm.Reply {
	if c.cc.Format == llm.FormatSGCoTText {
		return c.textProtocol()
	}
	return c.tabletopRole()
}

// tabletopRole answers a tabletop call by its role, whatever the
// protocol it came in: textProtocol reads its conversation as tool calls,
// answers here and writes the answer back as text.
func (c *call) tabletopRole() llm.Reply {
	switch c.cc.Role {
	case llm.CallDetect:
		return c.detect()
	case llm.CallPlan:
		switch c.cc.Format {
		case llm.FormatJSON:
			return c.sampledPlan()
		case llm.FormatProgram:
			return c.program()
		}
		return c.plan()
	case llm.CallClassify:
		return c.classify()
	case llm.CallAnswer:
		if c.cc.Format == llm.FormatProgram {
			return c.answerProgram()
		}
		return c.answer()
	case llm.CallPerceive:
		if len(c.cc.Seen) > 0 {
			return c.perceiveImage()
		}
		return c.perceive()
	}
	return llm.Reply{Text: fmt.Sprintf("I do not handle calls of role %q yet.", c.cc.Role), FinishReason: llm.FinishStop}
}

// history reads the conversation after the prompt: the questions asked
// with their replies, and the pick-and-places that succeeded.
func history(req llm.Request) (ex []grounding.Exchange, placed []grounding.Binding) {
	results := map[string]string{}
	for _, m := range req.Messages {
		if m.Role == llm.RoleTool {
			results[m.ToolCallID] = m.Text
		}
	}
	for _, m := range req.Messages {
		if m.Role != llm.RoleAssistant {
			continue
		}
		for _, tc := range m.ToolCalls {
			res, answered := results[tc.ID]
			if !answered {
				continue
			}
			var a struct{ Tag, Question, Message, Pick, Place string }
			if json.Unmarshal(tc.Args, &a) != nil {
				continue
			}
			if !succeeded(res) {
				continue // refused or never run: no reply to read
			}
			switch tc.Name {
			case "ask":
				ex = append(ex, grounding.Exchange{Kind: grounding.ActAsk, Tag: a.Tag, Text: a.Question, Reply: res})
			case "ask_robot":
				ex = append(ex, grounding.Exchange{Kind: grounding.ActAskRobot, Text: a.Message, Reply: res})
			case "pick_and_place":
				placed = append(placed, grounding.Binding{Pick: a.Pick, Place: a.Place})
			}
		}
	}
	return ex, placed
}

// decision is what the model decides at a planning call, before it is
// written in the asked format.
type decision struct {
	grounding.Decision
	// placed are the moves already carried out, by the conversation's
	// tool results and the context's Done.
	placed []grounding.Binding
}

// decide is the model's reasoning at a planning call: the reference
// planner over what the prompt shows, with the profile's slips. Every
// planning format (tool calls, JSON, programs) writes out its result.
func (c *call) decide() decision {
	ex, placed := history(c.req)
	for _, e := range c.cc.Exchanges {
		ex = append(ex, grounding.Exchange{Kind: e.Kind, Tag: e.Tag, Text: e.Text, Reply: e.Reply})
	}
	for _, m := range c.cc.Done {
		placed = append(placed, grounding.Binding{Pick: m.Pick, Place: m.Place})
	}
	view, shown := c.sceneView()
	if !shown {
		known := retrievals(c.req)
		view = known
		if !canRetrieve(c.req) {
			view = newListView(known, c.cc.Objects)
		}
	}
	sit := grounding.Situation{Instruction: c.cc.Instruction, Partner: c.cc.Partner, View: view, History: ex, Looking: c.looking()}
	// Each slip is taken as an answer the model gives itself, in place of
	// the question it should have asked; then it plans on.
	var d grounding.Decision
	for range 8 {
		d = grounding.Decide(sit)
		if d.Kind != grounding.ActAsk {
			break
		}
		guess, slipped := c.slip(d)
		if !slipped {
			break
		}
		sit.History = append(sit.History, grounding.Exchange{Kind: d.Kind, Tag: d.Tag, Text: d.Text, Reply: guess})
	}
	// Questions the model answered itself are not in the conversation; the
	// real history must stay aligned with the questions actually asked, so
	// the self-answers only shape this decision.
	return decision{Decision: d, placed: placed}
}

// question returns the ask a decision calls for, with the profile's
// wrong tags: the tool name ("ask" or "ask_robot") and its arguments.
func (c *call) question(d grounding.Decision) (tool string, args map[string]string) {
	switch d.Kind {
	case grounding.ActAsk:
		tag := d.Tag
		if c.persists(c.p.Tag, "tag\x00"+d.Text) {
			tag = otherTag(c.rng, tag)
		}
		return "ask", map[string]string{"tag": tag, "question": d.Text}
	case grounding.ActAskRobot:
		if strings.HasPrefix(d.Text, "I cannot see") && c.persists(c.p.Tag, "tag\x00"+d.Text) {
			// The wrong tag of partial observability: telling the user the
			// block, or its destination, is absent when the other robot
			// may see it.
			q := strings.Replace(d.Text, "I cannot see", "I cannot find", 1)
			if len(d.Moves) > 0 {
				missing, _, _ := strings.Cut(strings.TrimPrefix(d.Text, "I cannot see "), ", so ")
				q = "I cannot find " + missing + ". Where should I put it instead?"
			}
			return "ask", map[string]string{"tag": "absence", "question": q}
		}
		return "ask_robot", map[string]string{"message": d.Text}
	}
	return "", nil
}

// moves returns the moves a decision still has to carry out, with the
// profile's hallucinated blocks.
func (c *call) moves(d decision) []grounding.Binding {
	var out []grounding.Binding
	refused := refusedPlaces(c.req)
	for _, mv := range remaining(d.Moves, d.placed) {
		// A model told that the block it named does not exist names the
		// real one next time: the correction closed-loop feedback buys.
		if !refused[mv.Place] && c.persists(c.p.Hallucinate, "hallucinate\x00"+mv.Pick+"\x00"+mv.Place) {
			mv.Pick = c.phantom(scenes.ClassBlock)
		}
		out = append(out, mv)
	}
	return out
}

// handOff returns the moves a message to the partner needs first (the
// block put in the shared workspace for it), less those already made,
// with the profile's hallucinated blocks.
func (c *call) handOff(d decision) []grounding.Binding {
	if len(d.Moves) == 0 {
		return nil
	}
	return c.moves(d)
}

// refusedPlaces are the destinations of the pick_and_place calls the
// table refused in the conversation.
func refusedPlaces(req llm.Request) map[string]bool {
	results := map[string]string{}
	for _, m := range req.Messages {
		if m.Role == llm.RoleTool {
			results[m.ToolCallID] = m.Text
		}
	}
	out := map[string]bool{}
	for _, m := range req.Messages {
		for _, tc := range m.ToolCalls {
			var a struct{ Place string }
			if tc.Name == "pick_and_place" && strings.HasPrefix(results[tc.ID], "error:") && json.Unmarshal(tc.Args, &a) == nil {
				out[a.Place] = true
			}
		}
	}
	return out
}

// succeeded reads a pick_and_place result: the table's refusals start
// with "error:", and a closed-loop workflow that checks the outcome writes
// "Success: no" or "Skipped" in front of what it saw.
func succeeded(result string) bool {
	for _, p := range []string{"error:", "Success: no", "Skipped"} {
		if strings.HasPrefix(result, p) {
			return false
		}
	}
	return true
}

// plan decides the next tool calls of a planner.
func (c *call) plan() llm.Reply {
	d := c.decide()
	switch d.Kind {
	case grounding.ActRetrieve:
		return c.calls(retrieveCall(d.Need))
	case grounding.ActAsk, grounding.ActAskRobot:
		tool, args := c.question(d.Decision)
		var out []llm.ToolCall
		if tool == "ask_robot" {
			for _, mv := range c.handOff(d) {
				out = append(out, toolCall("pick_and_place", map[string]string{"pick": mv.Pick, "place": mv.Place}))
			}
		}
		return c.calls(append(out, toolCall(tool, args))...)
	case grounding.ActMove:
		var out []llm.ToolCall
		for _, mv := range c.moves(d) {
			out = append(out, toolCall("pick_and_place", map[string]string{"pick": mv.Pick, "place": mv.Place}))
		}
		out = append(out, toolCall("done", map[string]string{}))
		return c.calls(out...)
	}
	return c.calls(toolCall("done", map[string]string{}))
}

// slip draws whether the model, about to ask, guesses instead, and what.
func (c *call) slip(d grounding.Decision) (string, bool) {
	key := d.Tag + "\x00" + d.Text
	switch d.Tag {
	case "multiplicity":
		if c.persists(c.p.Multiplicity, key) {
			if ids := strings.Split(strings.TrimSuffix(strings.TrimPrefix(d.Text, "Which do you mean: "), "?"), " or "); len(ids) > 0 {
				return "I mean " + ids[0] + ".", true
			}
		}
	case "absence":
		if c.persists(c.p.Absence, key) {
			class := scenes.ClassBlock
			if strings.Contains(d.Text, " bowl") {
				class = scenes.ClassBowl
			}
			if id, ok := c.lookalike(class); ok {
				return "I mean " + id + ".", true
			}
		}
	case "underspecified":
		if c.persists(c.p.Vague, key) {
			class := scenes.ClassBlock
			if strings.HasPrefix(d.Text, "Where") {
				class = scenes.ClassBowl
			}
			if id, ok := c.lookalike(class); ok {
				return "I mean " + id + ".", true
			}
		}
	}
	return "", false
}

// objectsOf lists the objects of a class the prompt names: from its graph,
// or from its list of detected objects.
func (c *call) objectsOf(class string) []string {
	if c.cc.Graph != nil {
		ids, _ := grounding.GraphView{G: c.cc.Graph}.Nodes(scenes.NodeQuery{Attrs: map[string]string{scenes.AttrType: class}})
		return ids
	}
	if len(c.cc.Detections) > 0 {
		var ids []string
		for _, o := range c.cc.Detections {
			if o.Attributes[scenes.AttrType] == class {
				ids = append(ids, o.ID)
			}
		}
		return ids
	}
	var ids []string
	for _, id := range c.cc.Objects {
		if strings.Contains(id, " "+class+" ") {
			ids = append(ids, id)
		}
	}
	return ids
}

// lookalike picks a visible object of a class at random.
func (c *call) lookalike(class string) (string, bool) {
	ids := c.objectsOf(class)
	if len(ids) == 0 {
		return "", false
	}
	return ids[c.rng.IntN(len(ids))], true
}

// phantom names an object of a class that is not in view.
func (c *call) phantom(class string) string {
	for _, col := range scenes.Colors {
		id := scenes.ObjectID(col, class, 1)
		if !slices.Contains(c.objectsOf(class), id) {
			return id
		}
	}
	return scenes.ObjectID("silver", class, 1)
}

func otherTag(rng *rand.Rand, tag string) string {
	var others []string
	for _, t := range []string{"absence", "multiplicity", "underspecified"} {
		if t != tag {
			others = append(others, t)
		}
	}
	return others[rng.IntN(len(others))]
}

// remaining drops the moves already carried out.
func remaining(moves, placed []grounding.Binding) []grounding.Binding {
	var out []grounding.Binding
	done := map[grounding.Binding]int{}
	for _, p := range placed {
		done[p]++
	}
	for _, m := range moves {
		if done[m] > 0 {
			done[m]--
			continue
		}
		out = append(out, m)
	}
	return out
}

// answer serves the partner robot's message: bring the block it names to
// the shared workspace, then say so.
func (c *call) answer() llm.Reply {
	_, placed := history(c.req)
	if len(placed) > 0 {
		last := placed[len(placed)-1]
		if last.Place != scenes.SharedPlace {
			return llm.Reply{Text: grounding.DeliverReply(last.Pick, last.Place), FinishReason: llm.FinishStop}
		}
		return llm.Reply{Text: grounding.HandReply(last.Pick), FinishReason: llm.FinishStop}
	}
	pick, place, reply := c.partnerMove()
	if reply != nil {
		return *reply
	}
	return c.calls(toolCall("pick_and_place", map[string]string{"pick": pick, "place": place}))
}

// partnerMove is the move the other robot's message asks for, in what
// this robot knows of the table: a block it sees to the shared workspace,
// or a block from the shared workspace to a destination it sees. When
// there is no move to make yet, reply is the answer instead: a retrieval
// (a partner that retrieves, SG-CoT's, and has yet to look) or a sentence
// saying why not.
func (c *call) partnerMove() (pick, place string, reply *llm.Reply) {
	view, looking := c.answerView(), c.looking()
	resolve := func(ref grounding.Ref) (string, *llm.Reply) {
		v := view
		if ref.Anchor != nil && looking != nil {
			// The other robot said where the object is: look there.
			v = looking
		}
		ids, err := grounding.Resolve(v, ref)
		if u := (*grounding.Unknown)(nil); errors.As(err, &u) {
			r := c.calls(retrieveCall(u))
			return "", &r
		}
		if len(ids) != 1 {
			return "", &llm.Reply{Text: fmt.Sprintf("I see %d objects matching %s.", len(ids), ref.Phrase), FinishReason: llm.FinishStop}
		}
		return ids[0], nil
	}
	if id, dst, err := grounding.ParseDeliverRequest(c.cc.Message); err == nil {
		if ref, err := grounding.ParseRef(id); err == nil && ref.ID == "" {
			// Described, not named by id: find it.
			got, r := resolve(ref)
			if r != nil {
				return "", "", r
			}
			id = got
		}
		if dst.Place != "" {
			return id, dst.Place, nil
		}
		to, r := resolve(dst)
		return id, to, r
	}
	ref, err := grounding.ParseHandRequest(c.cc.Message)
	if err != nil {
		return "", "", &llm.Reply{Text: "I do not understand the request.", FinishReason: llm.FinishStop}
	}
	id, r := resolve(ref)
	return id, scenes.SharedPlace, r
}

// answerView is the table as the answering robot knows it: the graph or
// the object list its prompt shows, or, for a partner that retrieves
// (SG-CoT's), what it has retrieved so far, and once it may retrieve no
// more, the object list besides.
func (c *call) answerView() grounding.View {
	if v, shown := c.sceneView(); shown {
		return v
	}
	known := retrievals(c.req)
	if !canRetrieve(c.req) {
		return newListView(known, c.cc.Objects)
	}
	return known
}
