package simmodel

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
	"github.com/go-gl/mathgl/mgl64"
)

// marshalledSize is what contextSize counts, written out: the context as
// readTokens measured it when it marshalled it.
func marshalledSize(cc *llm.CallContext) (int, bool) {
	c := *cc
	c.Version, c.Play = llm.ContextVersion, nil
	c.Seen, c.InImage, c.ImageSize = nil, nil, [2]int{}
	data, err := json.Marshal(c)
	return len(data), err == nil
}

// oddStrings are strings JSON writes other than as they are, each next to
// plain text so that the eight-byte fast path meets them at every offset.
var oddStrings = []string{
	"", "plain", `say "hi"`, `back\slash`, "<b>&amp;</b>", "tab\there\nnewline\r\b\f", "\x00\x01\x1f\x7f",
	"caf\u00e9 \u2603 \U0001F600", "line\u2028para\u2029", "bad \xff\xfe utf8 \xe2\x82", "trunc\xe2",
	strings.Repeat("abcdefg", 9) + "<", "1234567\"" + strings.Repeat("x", 17) + "\u2028",
}

// TestReadTokensCountsTheJSON holds contextSize to the length of
// json.Marshal byte for byte, over every field of the context, nil and
// empty lists and maps, and numbers in both of encoding/json's formats;
// and a context with strings JSON escapes to the length of the same
// context with each string written plainly (a string of as many x's).
func TestReadTokensCountsTheJSON(t *testing.T) {
	g := scenes.BuildGraph([]scenes.Object{scenes.NewBlock("red block 1", "red", -0.2, -0.3), scenes.NewBowl("blue bowl 1", "blue", 0.0, -0.6)})
	ds := []llm.Detection{llm.DetectionOf(scenes.NewBlock("red block 1", "red", -0.1234567, 0.5)),
		{ID: "odd", Attributes: map[string]string{}, Pos: [3]float64{1e-7, -2.5e21, 0}, Size: [3]float64{math.Copysign(0, -1), 1e20, 123456.789}, Box: [4]int{1, -2, 300, 4000}},
		{ID: "nil attributes"}}
	sm := &scenes.SemanticMap{Name: "scene0011_00", Instances: []scenes.Instance{
		{ID: "obj1", Center: mgl64.Vec3{0.1, -0.000001, 3}, Size: mgl64.Vec3{1e-9, 2, 1e22}, Observations: 12,
			Classes: []scenes.ClassScore{{Class: "chair", P: 0.75}, {Class: "sofa", P: 1.0 / 3}}, Evidence: 17.25},
		{ID: "obj2"},
	}}
	steps := []llm.HouseStep{{Tool: "act", Command: "go to fridge 1", Result: "The fridge 1 is closed."},
		{Tool: "ask", Command: "absence", Question: "Where?", Result: ""}, {Tool: "act"}}
	full := llm.CallContext{
		Version: 7, Role: llm.CallPlan, Track: "household", Instruction: "Put a clean egg in the fridge.", Robot: "robot1",
		Partner: "robot2", Graph: g, Objects: []string{"a", "b"}, Detections: ds,
		Seen: []llm.Seen{{ID: "x"}}, ImageSize: [2]int{640, 480}, InImage: ds, Images: []string{"d1", "d2"},
		Message: "Which one?", Exchanges: []llm.Exchange{{Kind: "ask", Tag: "absence", Text: "Which?", Reply: "That."}, {Kind: "ask_robot"}},
		Done: []llm.Move{{Pick: "a", Place: "b"}}, Opening: "You are in the middle of a room.", Trajectory: steps,
		Reflections: []string{"I forgot.", ""}, Trial: 3, Tool: "lesson", Case: steps, SemanticMap: sm, Mode: "certainty",
		Answers: []string{"{}"}, Feedback: []string{"fine"}, Format: llm.FormatToolCalls, Requests: []string{"ASK"},
		Play: &llm.Play{Repeat: 2},
	}
	// Every field of CallContext is set above, and contextSize writes each
	// readTokens measures: a new field needs counting there first.
	if n, set := reflect.TypeOf(full).NumField(), nonZeroFields(full); n != 29 || set != n {
		t.Fatalf("CallContext has %d fields (%d set here); contextSize counts 29: count the new one (and set it here)", n, set)
	}
	for i, cc := range []llm.CallContext{
		full,
		{},
		{Role: llm.CallPlan, Track: "tabletop", Graph: &scenes.Graph{}, Format: llm.FormatJSON},
		{Role: llm.CallPlan, Track: "tabletop", Graph: scenes.NewGraph([]scenes.Node{}, []scenes.Edge{}), Objects: []string{}},
		{Role: llm.CallPlan, Graph: &scenes.Graph{Nodes: []scenes.Node{{ID: "n"}, {ID: "m", Attributes: map[string]string{}}}}},
		{Role: "semmap", SemanticMap: &scenes.SemanticMap{}},
		{Role: "x", Trial: -12, Done: []llm.Move{{}}},
	} {
		want, wantOK := marshalledSize(&cc)
		if got, ok := contextSize(&cc); got != want || ok != wantOK {
			t.Errorf("context %d: size %d (ok %v), json.Marshal writes %d (ok %v)", i, got, ok, want, wantOK)
		}
	}
	for _, s := range oddStrings {
		plain := strings.Repeat("x", len(s))
		cc := stringsContext(s, s+"v")
		if got, want := readTokens(&cc), readTokens(ptr(stringsContext(plain, plain+"v"))); got != want {
			t.Errorf("a context of %q read as %d tokens, one of as many x's as %d", s, got, want)
		}
		pc := stringsContext(plain, plain+"v")
		want, _ := marshalledSize(&pc)
		if got, _ := contextSize(&cc); got != want {
			t.Errorf("a context of %q: size %d, json.Marshal writes %d with the strings plain", s, got, want)
		}
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		cc := llm.CallContext{SemanticMap: &scenes.SemanticMap{Instances: []scenes.Instance{{Evidence: bad}}}}
		if _, ok := contextSize(&cc); ok {
			t.Errorf("a map with evidence %v counted; json.Marshal refuses it", bad)
		}
		if got := readTokens(&cc); got != 0 {
			t.Errorf("a context json.Marshal refuses read as %d tokens, want 0 as before", got)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// stringsContext is a context with s in every kind of string field (and
// t beside it as a map's second key and value).
func stringsContext(s, t string) llm.CallContext {
	return llm.CallContext{
		Role: s, Track: s, Instruction: s, Format: s, Objects: []string{s, t}, Reflections: []string{s},
		Graph:       scenes.NewGraph([]scenes.Node{{ID: s, Attributes: map[string]string{s: s, "k" + t: t}}}, []scenes.Edge{{Source: s, Target: s, Relation: s}}),
		Detections:  []llm.Detection{{ID: s, Attributes: map[string]string{s: t}}},
		Trajectory:  []llm.HouseStep{{Tool: s, Command: s, Question: s, Result: t}},
		SemanticMap: &scenes.SemanticMap{Name: s, Instances: []scenes.Instance{{ID: s, Classes: []scenes.ClassScore{{Class: t}}}}},
	}
}

// nonZeroFields counts the fields of a struct that are set.
func nonZeroFields(v any) int {
	rv, n := reflect.ValueOf(v), 0
	for i := range rv.NumField() {
		if !rv.Field(i).IsZero() {
			n++
		}
	}
	return n
}

// FuzzContextSize holds contextSize to json.Marshal of the context with
// its strings written plainly, over any strings and numbers.
func FuzzContextSize(f *testing.F) {
	for _, s := range oddStrings {
		f.Add(s, s+"x", 0.5, 3)
	}
	f.Add("a", "b", 1e-7, -1)
	f.Fuzz(func(t *testing.T, a, b string, x float64, n int) {
		mk := func(a, b string) llm.CallContext {
			return llm.CallContext{Role: a, Track: b, Instruction: a + b, Trial: n, Answers: []string{b, a},
				Graph:       &scenes.Graph{Nodes: []scenes.Node{{ID: a, Attributes: map[string]string{a: b}}}},
				Detections:  []llm.Detection{{ID: b, Pos: [3]float64{x, -x, x * 1e10}, Box: [4]int{n}}},
				Trajectory:  []llm.HouseStep{{Tool: a, Command: b, Result: a}},
				SemanticMap: &scenes.SemanticMap{Name: b, Instances: []scenes.Instance{{ID: a, Observations: n, Evidence: x, Classes: []scenes.ClassScore{{Class: b, P: x / 3}}}}},
			}
		}
		cc, plain := mk(a, b), mk(strings.Repeat("x", len(a)), strings.Repeat("y", len(b)))
		want, wantOK := marshalledSize(&plain)
		if got, ok := contextSize(&cc); got != want || ok != wantOK {
			t.Errorf("size %d (ok %v), json.Marshal writes %d (ok %v) with the strings plain", got, ok, want, wantOK)
		}
	})
}
