package simmodel

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

func semmapMap(name string) *scenes.SemanticMap {
	in := func(id string, x, y, z float64, cs ...scenes.ClassScore) scenes.Instance {
		return scenes.Instance{ID: id, Center: [3]float64{x, y, z}, Size: [3]float64{0.5, 0.5, 0.5}, Observations: 9, Classes: cs}
	}
	cs := func(c string, p float64) scenes.ClassScore { return scenes.ClassScore{Class: c, P: p} }
	return &scenes.SemanticMap{Name: name, Instances: []scenes.Instance{
		in("obj1", 1, 0, 0.45, cs("chair", 0.6), cs("couch", 0.4)),
		in("obj2", 0, 2, 0.4, cs("couch", 0.9), cs("bed", 0.1)),
		in("obj3", 1, 0.6, 0.38, cs("dining table", 1)),
		in("obj4", 3, 3, 1, cs("microwave", 1)),
	}}
}

func semmapCall(t *testing.T, m *Model, b *llm.CallContext, temperature float64, sample int) string {
	t.Helper()
	b.Track = "semmap"
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "Prompt.\n"}}, Context: b, Temperature: temperature, Sample: sample}
	r, err := m.Generate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return r.Text
}

// fenced reads the JSON answer of a plan or refine reply.
func fenced(t *testing.T, text string) []string {
	t.Helper()
	i, j := strings.Index(text, "```json\n"), strings.LastIndex(text, "```")
	if i < 0 || j <= i {
		t.Fatalf("reply %q has no json fence", text)
	}
	var a semmapAnswer
	if err := json.Unmarshal([]byte(text[i+8:j]), &a); err != nil {
		t.Fatalf("reply %q: %v", text, err)
	}
	return a.RelevantObjects
}

func answerJSON(ids ...string) string {
	data, _ := json.Marshal(semmapAnswer{RelevantObjects: append([]string{}, ids...)})
	return string(data)
}

func profile(t *testing.T, spec string) *Model {
	t.Helper()
	p, err := ParseProfile(spec)
	if err != nil {
		t.Fatal(err)
	}
	return New(p, "sim:"+spec)
}

// Each slip of a first answer, at rate 1, against the perfect answer.
func TestSemmapPlanSlips(t *testing.T) {
	m := semmapMap("room")
	for _, tc := range []struct {
		why, spec, mode, query string
		want                   []string
	}{
		{"perfect: the resolver", "perfect", "certainty", "Where can I sit?", []string{"obj1", "obj2"}},
		{"perfect, uncertainty: a torn object is its best class only", "perfect", "uncertainty", "Is there a couch?", []string{"obj2"}},
		{"hedge: the torn object counts as its runner-up too", "multiplicity=1", "uncertainty", "Is there a couch?", []string{"obj2", "obj1"}},
		{"hedging needs the distribution: certainty shows none", "multiplicity=1", "certainty", "Is there a couch?", []string{"obj2"}},
		{"negation dropped: the couch comes back", "negation=1", "certainty", "Tell me something I can sit on that is not a couch.", []string{"obj1", "obj2"}},
		{"absence: seats, though there is no book", "absence=1", "certainty", "What can I sit on that is near a book?", []string{"obj1", "obj2"}},
		{"hallucination: an id not in the map first", "hallucinate=1", "certainty", "Is there a microwave?", []string{"obj5", "obj4"}},
	} {
		got := fenced(t, semmapCall(t, profile(t, tc.spec), &llm.CallContext{Role: llm.CallPlan, Instruction: tc.query, SemanticMap: m, Mode: tc.mode, Format: llm.FormatJSON}, 0, 0))
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.why, got, tc.want)
		}
	}
}

// A reflection names what a careful reader sees, and the refinement
// applies it: a phantom id removed, an excluded class removed, an answer
// where nothing serves emptied; a right answer is kept.
func TestSemmapReflectThenRefine(t *testing.T) {
	m := semmapMap("room")
	perfect := New(Perfect, "sim:perfect")
	for _, tc := range []struct {
		why, query string
		answer     []string
		critique   string
		want       []string
	}{
		{"phantom id", "Where can I sit?", []string{"obj9", "obj1", "obj2"}, "- remove obj9: there is no object obj9", []string{"obj1", "obj2"}},
		{"negated class", "Tell me something I can sit on that is not a couch.", []string{"obj2", "obj1"}, "- remove obj2: the request excludes it", []string{"obj1"}},
		{"negated class, the allowed one missing", "Tell me something I can sit on that is not a couch.", []string{"obj2"}, "- add obj1", []string{"obj1"}},
		{"nothing serves", "What can I sit on that is near a book?", []string{"obj1"}, "- answer with no objects", nil},
		{"right answer", "Where can I sit?", []string{"obj1", "obj2"}, "- keep the answer", []string{"obj1", "obj2"}},
	} {
		b := &llm.CallContext{Instruction: tc.query, SemanticMap: m, Mode: "certainty", Answers: []string{answerJSON(tc.answer...)}}
		b.Role, b.Format = llm.CallReflect, llm.FormatText
		fb := semmapCall(t, perfect, b, 0, 0)
		if !strings.Contains(fb, tc.critique) {
			t.Errorf("%s: critique %q lacks %q", tc.why, fb, tc.critique)
		}
		b.Role, b.Format, b.Feedback = llm.CallRefine, llm.FormatJSON, []string{fb}
		if got := fenced(t, semmapCall(t, perfect, b, 0, 0)); !slices.Equal(got, tc.want) && len(got)+len(tc.want) > 0 {
			t.Errorf("%s: refined to %v, want %v", tc.why, got, tc.want)
		}
	}
}

// Over-reflection happens at its rate on sound answers, each time making
// the refined answer differ from the right one, and never with perfect.
func TestSemmapOverReflectionRate(t *testing.T) {
	const n, rate = 600, 0.3
	model := profile(t, fmt.Sprintf("overreflect=%g", rate))
	queries := []string{"Where can I sit?", "What can I sit on that is near a book?", "Is there a microwave?"}
	spoiled := 0
	for i := range n {
		// Each room differs in what its text shows (a far lamp's place),
		// since the model tells maps apart by their text alone.
		m := semmapMap(fmt.Sprintf("room%d", i))
		m.Instances = append(m.Instances, scenes.Instance{ID: "obj99", Center: [3]float64{100 + float64(i), 50, 1},
			Size: [3]float64{0.3, 0.3, 0.5}, Classes: []scenes.ClassScore{{Class: "lamp", P: 1}}})
		q := queries[i%len(queries)]
		req, _ := scenes.ParseObjectQuery(q)
		right := scenes.ResolveObjects(m, req)
		b := &llm.CallContext{Role: llm.CallReflect, Instruction: q, SemanticMap: m, Mode: "certainty", Answers: []string{answerJSON(right...)}, Format: llm.FormatText}
		fb := semmapCall(t, model, b, 0, 0)
		if strings.Contains(fb, "- keep the answer") {
			continue
		}
		spoiled++
		b.Role, b.Format, b.Feedback = llm.CallRefine, llm.FormatJSON, []string{fb}
		if got := fenced(t, semmapCall(t, model, b, 0, 0)); slices.Equal(got, right) || (len(got) == 0 && len(right) == 0) {
			t.Fatalf("%q: critique %q left the answer %v as it was", q, fb, got)
		}
		if strings.Contains(fb, "- keep") {
			t.Fatalf("critique %q both keeps and changes", fb)
		}
	}
	if got := float64(spoiled) / n; got < rate-0.06 || got > rate+0.06 {
		t.Errorf("over-reflected on %.3f of %d sound answers, want about %.2f", got, n, rate)
	}
	if Perfect.OverReflect != 0 || Default.OverReflect != 0.10 || Weak.OverReflect != 0.25 {
		t.Errorf("overreflect rates perfect %g, default %g, weak %g; want 0, 0.10, 0.25", Perfect.OverReflect, Default.OverReflect, Weak.OverReflect)
	}
}

// With memory, a refinement does not undo what an earlier critique
// asked; without, it follows the last critique.
func TestSemmapRefineMemory(t *testing.T) {
	m := semmapMap("room")
	first := "Suggestions:\n- remove obj2: the request excludes it."
	undo := "Suggestions:\n- add obj2: it could serve the request."
	for _, tc := range []struct {
		why      string
		feedback []string
		want     []string
	}{
		{"memory: the earlier removal stands", []string{first, undo}, []string{"obj1"}},
		{"no memory: the last critique is followed", []string{undo}, []string{"obj1", "obj2"}},
	} {
		b := &llm.CallContext{Role: llm.CallRefine, Instruction: "Tell me something I can sit on that is not a couch.", SemanticMap: m, Mode: "certainty",
			Answers: []string{answerJSON("obj1")}, Feedback: tc.feedback, Format: llm.FormatJSON}
		if got := fenced(t, semmapCall(t, New(Perfect, "sim:perfect"), b, 0, 0)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.why, got, tc.want)
		}
	}
}

// The chooser takes the answer most responses share; a tie goes to the
// one its own reading agrees with.
func TestSemmapChoose(t *testing.T) {
	m := semmapMap("room")
	for _, tc := range []struct {
		why     string
		answers []string
		want    string
	}{
		{"majority", []string{answerJSON("obj2"), answerJSON("obj1", "obj2"), answerJSON("obj1", "obj2")}, "B"},
		{"tie: the resolver's reading", []string{answerJSON("obj9"), answerJSON("obj1", "obj2")}, "B"},
		{"an unreadable response loses", []string{"not json", answerJSON("obj1", "obj2")}, "B"},
	} {
		b := &llm.CallContext{Role: llm.CallChoose, Instruction: "Where can I sit?", SemanticMap: m, Mode: "certainty", Answers: tc.answers, Format: llm.FormatText}
		if got := semmapCall(t, New(Perfect, "sim:perfect"), b, 0, 0); got != tc.want {
			t.Errorf("%s: chose %q, want %q", tc.why, got, tc.want)
		}
	}
}

// At temperature > 0 samples draw their slips apart, so an ensemble sees
// disagreement; at temperature 0 they are one answer.
func TestSemmapSamplesDiffer(t *testing.T) {
	model := profile(t, "negation=0.5")
	b := &llm.CallContext{Role: llm.CallPlan, Instruction: "Tell me something I can sit on that is not a couch.", SemanticMap: semmapMap("room"), Mode: "certainty", Format: llm.FormatJSON}
	seen := map[string]bool{}
	for k := 1; k <= 12; k++ {
		seen[strings.Join(fenced(t, semmapCall(t, model, b, 0.8, k)), ",")] = true
	}
	if len(seen) != 2 {
		t.Errorf("12 samples gave answers %v; want both readings", seen)
	}
	cold := map[string]bool{}
	for k := 1; k <= 5; k++ {
		cold[strings.Join(fenced(t, semmapCall(t, model, b, 0, k)), ",")] = true
	}
	if len(cold) != 1 {
		t.Errorf("temperature 0 gave %d answers", len(cold))
	}
}

// Every suggestion the reflection writes reads back as itself.
func FuzzParseSuggestions(f *testing.F) {
	for _, s := range []string{"- remove obj1: x", "- add obj2: y\n- put obj3 first: z", "- answer with no objects: w", "- keep the answer", "--", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, s := range parseSuggestions(text) {
			if s.verb != "none" && (s.id == "" || strings.ContainsAny(s.id, " \n")) {
				t.Fatalf("%q: suggestion %+v", text, s)
			}
			back := parseSuggestions(s.String())
			if len(back) != 1 || back[0].verb != s.verb || back[0].id != s.id {
				t.Fatalf("%q: %+v reads back as %+v", text, s, back)
			}
		}
	})
}

// A request that leaves the temperature to the provider (the semmap
// workflows' every call but the ensemble's samples) draws as serve-sim
// reads it off the wire, temperature 1 and its sample sent as the seed;
// its samples, the attempts of a workflow that asks again, draw their
// slips apart, and its misreadings are the situation's, whatever the
// sample.
func TestSemmapProviderTemperature(t *testing.T) {
	m := profile(t, "malformed=0.5,negation=0.5")
	cc := func() *llm.CallContext {
		return &llm.CallContext{Track: "semmap", Role: llm.CallPlan, Format: llm.FormatJSON, Instruction: "Tell me something to sit on that is not a chair",
			SemanticMap: semmapMap("room"), Mode: "certainty"}
	}
	gen := func(req llm.Request) string {
		t.Helper()
		r, err := m.Generate(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		return r.Text
	}
	msgs := []llm.Message{{Role: llm.RoleUser, Text: "Prompt.\n"}}
	malformed, answers := 0, map[string]bool{}
	for s := range 40 {
		here := gen(llm.Request{Messages: msgs, Context: cc(), OmitTemperature: true, Sample: s})
		wire := gen(llm.Request{Messages: msgs, Context: cc(), Temperature: 1, Seed: int64(s)})
		if here != wire {
			t.Fatalf("sample %d: %q in process, %q over the wire", s, here, wire)
		}
		if !strings.Contains(here, "```json") {
			malformed++
			continue
		}
		answers[strings.Join(fenced(t, here), ",")] = true
	}
	if malformed == 0 || malformed == 40 {
		t.Errorf("%d of 40 samples malformed at rate 0.5: the samples do not draw apart", malformed)
	}
	if len(answers) != 1 {
		t.Errorf("the readable samples answer %v: a misreading changed with the sample", answers)
	}
}
