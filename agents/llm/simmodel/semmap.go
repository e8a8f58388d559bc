package simmodel

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// The semmap track (the agentic-workflows paper). The model reads the query
// and the map from the context and answers with the reference resolver
// (scenes.ParseObjectQuery, scenes.ResolveObjects), erring at the
// profile's rates:
//
//   - negation: it drops the query's exclusion ("not a couch", "does not
//     open"), or reads "not near" as "near";
//   - multiplicity: in the uncertainty input, it counts an object whose
//     mapper was torn between two classes as the runner-up class too (the
//     truth, like a careful reader, takes the most probable class);
//   - absence: when nothing serves the query it answers anyway, with what
//     serves a looser reading (the relation dropped, then the class);
//   - hallucinate: it puts an id that is not in the map first;
//   - overreflect: reviewing an answer it finds nothing wrong with, it
//     criticises it anyway (the agentic-workflows paper's
//     over-reflection), so that the refinement adds objects where none
//     serve, removes the first, or reorders.
//
// Each misreading is drawn with persists, keyed by the situation, so the
// baseline and the first answer of a reflection workflow are the same
// answer, and a reflection sees the map as the first answer did.
//
// Reply formats. plan and refine (format json): a line of prose, then a
// ```json fence around {"inferred_query", "query_achievable",
// "relevant_objects", "explanation"}. reflect (format text): three scored
// criteria, then "Suggestions:" and lines "- remove ID: …", "- add ID: …",
// "- put ID first: …", "- answer with no objects: …" or "- keep the
// answer", which refine applies. choose (format text): one letter.

// semmapHedge is the probability above which a reader of the
// uncertainty input is tempted to count an object as a class other than
// its most probable one.
const semmapHedge = 0.3

// semmapAnswer is the JSON reply of plan and refine.
type semmapAnswer struct {
	InferredQuery   string   `json:"inferred_query"`
	QueryAchievable bool     `json:"query_achievable"`
	RelevantObjects []string `json:"relevant_objects"`
	Explanation     string   `json:"explanation"`
}

func init() { Teach("semmap", func(c *Call) llm.Reply { return c.c.semmap() }) }

// semmap answers a semmap call.
func (c *call) semmap() llm.Reply {
	if c.cc.SemanticMap == nil {
		return llm.Reply{Text: "The prompt holds no semantic map, so I cannot name any object.", FinishReason: llm.FinishStop}
	}
	switch c.cc.Role {
	case llm.CallPlan:
		return c.semmapReply(c.semmapPlan(), "Here is my answer.")
	case llm.CallReflect:
		return llm.Reply{Text: c.semmapReflect(), FinishReason: llm.FinishStop}
	case llm.CallRefine:
		return c.semmapReply(c.semmapRefine(), "Here is the revised answer.")
	case llm.CallChoose:
		return llm.Reply{Text: c.semmapChoose(), FinishReason: llm.FinishStop}
	}
	return llm.Reply{Text: fmt.Sprintf("I do not handle semmap calls of role %q.", c.cc.Role), FinishReason: llm.FinishStop}
}

func (c *call) semmapReply(ids []string, lead string) llm.Reply {
	a := semmapAnswer{InferredQuery: c.cc.Instruction, QueryAchievable: len(ids) > 0, RelevantObjects: ids,
		Explanation: "No object in the map serves the request."}
	if a.RelevantObjects == nil {
		a.RelevantObjects = []string{}
	}
	if len(ids) > 0 {
		a.Explanation = "These objects serve the request, the most useful first: " + strings.Join(ids, ", ") + "."
	}
	data, _ := json.MarshalIndent(a, "", "  ") // strings, a bool and strings always encode
	return llm.Reply{Text: lead + "\n```json\n" + string(data) + "\n```", FinishReason: llm.FinishStop}
}

// semmapRequest is the query as the model parses it; ok is false when it
// finds nothing wanted in it.
func (c *call) semmapRequest() (scenes.ObjectQuery, bool) {
	return scenes.ParseObjectQuery(c.cc.Instruction)
}

// semmapView is the map as the model reads it. The truth takes every
// object as its most probable class; in the uncertainty input, an object
// torn between classes (runner-up at semmapHedge or more) tempts the
// model to count it as the runner-up too, at the profile's multiplicity
// rate, persistently per object. A perfect model never hedges.
func (c *call) semmapView() (*scenes.SemanticMap, scenes.ResolveOptions) {
	m := c.cc.SemanticMap
	if c.cc.Mode != "uncertainty" {
		return m, scenes.ResolveOptions{}
	}
	out := &scenes.SemanticMap{Name: m.Name, Instances: slices.Clone(m.Instances)}
	for i, in := range out.Instances {
		if len(in.Classes) > 1 && in.Classes[1].P >= semmapHedge && !c.persists(c.p.Multiplicity, "semmap-hedge\x00"+in.ID) {
			out.Instances[i].Classes = []scenes.ClassScore{{Class: in.Classes[0].Class, P: 1}}
		}
	}
	return out, scenes.ResolveOptions{MinP: semmapHedge}
}

// semmapReading is the answer the model believes right: the resolver
// over its view of the map, without the slips of a first answer. A
// reflection judges by it.
func (c *call) semmapReading() []string {
	req, ok := c.semmapRequest()
	if !ok {
		return nil
	}
	m, opts := c.semmapView()
	return scenes.ResolveObjectsWith(m, req, opts)
}

// semmapPlan is a first answer, with the profile's slips.
func (c *call) semmapPlan() []string {
	req, ok := c.semmapRequest()
	if !ok {
		return nil
	}
	m, opts := c.semmapView()
	if negated(req) && c.persists(c.p.Negation, "semmap-negation") {
		req.Exclude, req.ExcludeAffordance = nil, ""
		if req.Relation == scenes.MapRelFar {
			req.Relation = scenes.MapRelNear
		}
	}
	ids := scenes.ResolveObjectsWith(m, req, opts)
	if len(ids) == 0 && c.persists(c.p.Absence, "semmap-absence") {
		ids = looser(m, req, opts)
	}
	if c.persists(c.p.Hallucinate, "semmap-hallucinate") {
		ids = append([]string{phantomID(c.cc.SemanticMap)}, ids...)
	}
	return ids
}

func negated(req scenes.ObjectQuery) bool {
	return len(req.Exclude) > 0 || req.ExcludeAffordance != "" || req.Relation == scenes.MapRelFar
}

// looser answers a looser reading of a query nothing serves: without its
// relation, then without its classes (the affordance alone). This is the
// answer of the agentic-workflows paper's over-reflection example — seats,
// when no seat is near a book because there is no book.
func looser(m *scenes.SemanticMap, req scenes.ObjectQuery, opts scenes.ResolveOptions) []string {
	if req.Relation != "" {
		r := req
		r.Relation, r.Anchor = "", ""
		if ids := scenes.ResolveObjectsWith(m, r, opts); len(ids) > 0 {
			return ids[:min(len(ids), 3)]
		}
	}
	if req.Affordance != "" && len(req.Classes) > 0 {
		r := req
		r.Classes, r.Relation, r.Anchor = nil, "", ""
		if ids := scenes.ResolveObjectsWith(m, r, opts); len(ids) > 0 {
			return ids[:min(len(ids), 3)]
		}
	}
	return nil
}

// phantomID names an object the map does not have.
func phantomID(m *scenes.SemanticMap) string {
	have := map[string]bool{}
	for _, in := range m.Instances {
		have[in.ID] = true
	}
	for k := len(m.Instances) + 1; ; k++ {
		if id := "obj" + strconv.Itoa(k); !have[id] {
			return id
		}
	}
}

// lastAnswer reads the last of the context's answers.
func (c *call) lastAnswer() []string {
	if len(c.cc.Answers) == 0 {
		return nil
	}
	return answerIDs(c.cc.Answers[len(c.cc.Answers)-1])
}

func answerIDs(text string) []string {
	var a semmapAnswer
	if json.Unmarshal([]byte(text), &a) != nil {
		return nil
	}
	return a.RelevantObjects
}

// suggestion is one line of a critique.
type suggestion struct {
	verb string // remove, add, first, none, keep
	id   string
	why  string
}

func (s suggestion) String() string {
	switch s.verb {
	case "remove":
		return "- remove " + s.id + ": " + s.why
	case "add":
		return "- add " + s.id + ": " + s.why
	case "first":
		return "- put " + s.id + " first: " + s.why
	case "none":
		return "- answer with no objects: " + s.why
	}
	return "- keep the answer"
}

// semmapReflect reviews the last answer. It finds the problems a careful
// reader can see — ids not in the map, objects a negation excludes (and
// the ones it leaves), an answer where nothing serves — and otherwise,
// at the overreflect rate, finds fault with a sound answer.
func (c *call) semmapReflect() string {
	y := c.lastAnswer()
	m := c.cc.SemanticMap
	want := c.semmapReading()
	var sug []suggestion
	inMap := map[string]bool{}
	for _, in := range m.Instances {
		inMap[in.ID] = true
	}
	kept := []string{}
	for _, id := range y {
		if !inMap[id] {
			sug = append(sug, suggestion{"remove", id, "there is no object " + id + " in the map."})
			continue
		}
		kept = append(kept, id)
	}
	req, parsed := c.semmapRequest()
	switch {
	case len(want) == 0 && len(kept) > 0:
		sug = append(sug, suggestion{verb: "none", why: "nothing in the map serves the request; the listed objects only loosely relate to it."})
	case parsed && negated(req):
		for _, id := range kept {
			if !slices.Contains(want, id) {
				sug = append(sug, suggestion{"remove", id, "the request excludes it."})
			}
		}
		for _, id := range want {
			if !slices.Contains(kept, id) {
				sug = append(sug, suggestion{"add", id, "it serves the request and is not excluded."})
			}
		}
	}
	scores := "Correctness: 9/10.\nRelevance: 9/10.\nClarity: 9/10.\n"
	if len(sug) > 0 {
		scores = "Correctness: 4/10. The answer lists objects it should not.\nRelevance: 5/10.\nClarity: 8/10.\n"
	} else if s, ok := c.overreflect(y); ok {
		sug = append(sug, s)
		scores = "Correctness: 6/10.\nRelevance: 5/10. The answer may not be the best use of the map.\nClarity: 8/10.\n"
	}
	if len(sug) == 0 {
		sug = append(sug, suggestion{verb: "keep"})
	}
	var b strings.Builder
	b.WriteString(scores)
	b.WriteString("Suggestions:\n")
	for _, s := range sug {
		b.WriteString(s.String() + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// overreflect draws whether the review of a sound answer finds fault
// anyway, and which: objects added to an empty answer (the loosest
// reading, else any object), the first object removed, or the last put
// first.
func (c *call) overreflect(y []string) (suggestion, bool) {
	key := fmt.Sprintf("semmap-overreflect\x00%d\x00%s", len(c.cc.Answers), strings.Join(y, ","))
	if !c.persists(c.p.OverReflect, key) {
		return suggestion{}, false
	}
	m := c.cc.SemanticMap
	if len(y) == 0 {
		req, _ := c.semmapRequest()
		v, opts := c.semmapView()
		ids := looser(v, req, opts)
		if len(ids) == 0 && len(m.Instances) > 0 {
			ids = []string{m.Instances[c.rng.IntN(len(m.Instances))].ID}
		}
		if len(ids) == 0 {
			return suggestion{}, false
		}
		return suggestion{"add", ids[0], "though nothing serves the request directly, it could be used for it."}, true
	}
	if len(y) >= 2 && c.rng.IntN(2) == 0 {
		return suggestion{"first", y[len(y)-1], "it looks more useful than the others."}, true
	}
	return suggestion{"remove", y[0], "it may not serve the request."}, true
}

// parseSuggestions reads a critique's suggestion lines.
func parseSuggestions(text string) []suggestion {
	var out []suggestion
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "- ") {
			continue
		}
		head, why, _ := strings.Cut(line[2:], ":")
		f := strings.Fields(head)
		switch {
		case len(f) == 2 && f[0] == "remove":
			out = append(out, suggestion{"remove", f[1], strings.TrimSpace(why)})
		case len(f) == 2 && f[0] == "add":
			out = append(out, suggestion{"add", f[1], strings.TrimSpace(why)})
		case len(f) == 3 && f[0] == "put" && f[2] == "first":
			out = append(out, suggestion{"first", f[1], strings.TrimSpace(why)})
		case strings.HasPrefix(head, "answer with no objects"):
			out = append(out, suggestion{verb: "none"})
		}
	}
	return out
}

// semmapRefine applies the last critique to the last answer. With memory
// (earlier critiques in the context) it skips a suggestion that undoes an
// earlier one: what memory buys against a critic that changes its mind.
func (c *call) semmapRefine() []string {
	y := slices.Clone(c.lastAnswer())
	if len(c.cc.Feedback) == 0 {
		return y
	}
	earlier := map[string]bool{} // "verb id" of earlier suggestions
	for _, fb := range c.cc.Feedback[:len(c.cc.Feedback)-1] {
		for _, s := range parseSuggestions(fb) {
			earlier[s.verb+" "+s.id] = true
		}
	}
	for _, s := range parseSuggestions(c.cc.Feedback[len(c.cc.Feedback)-1]) {
		switch s.verb {
		case "remove":
			if !earlier["add "+s.id] {
				y = slices.DeleteFunc(y, func(id string) bool { return id == s.id })
			}
		case "add":
			if !earlier["remove "+s.id] && !slices.Contains(y, s.id) {
				y = append(y, s.id)
			}
		case "first":
			if i := slices.Index(y, s.id); i > 0 {
				y = append([]string{s.id}, slices.Delete(y, i, i+1)...)
			}
		case "none":
			y = nil
		}
	}
	return y
}

// semmapChoose picks the response most others agree with, ties going to
// the one that matches the model's own reading, then to the first.
func (c *call) semmapChoose() string {
	if len(c.cc.Answers) == 0 {
		return "There are no responses to choose from."
	}
	want := c.semmapReading()
	lists := make([][]string, len(c.cc.Answers))
	for i, a := range c.cc.Answers {
		lists[i] = answerIDs(a)
	}
	best, bestScore := 0, -1
	for i, l := range lists {
		score := 0
		for _, o := range lists {
			if slices.Equal(l, o) {
				score += 2
			}
		}
		if slices.Equal(l, want) {
			score++
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return string(rune('A' + best))
}
