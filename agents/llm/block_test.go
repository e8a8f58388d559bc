package llm

import (
	"math"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

func TestBlockRoundTrip(t *testing.T) {
	b := Block{Role: CallPlan, Track: "tabletop", Instruction: "Put the red block in the blue bowl.",
		Graph: scenes.BuildGraph([]scenes.Object{scenes.NewBlock("red block 1", "red", 0, -0.5)}), Format: FormatToolCalls}
	text := "Some prose.\n" + b.Render() + "\nMore prose."
	got, ok, err := ExtractBlock(text)
	if !ok || err != nil || got.Instruction != b.Instruction || got.Version != BlockVersion || len(got.Graph.Nodes) != 1 {
		t.Errorf("got %+v, %v, %v", got, ok, err)
	}
	req := Request{System: "no block here", Messages: []Message{{Role: RoleUser, Text: text}}}
	if fb, err := FindBlock(req); err != nil || fb.Role != CallPlan {
		t.Errorf("FindBlock: %+v, %v", fb, err)
	}
}

func TestExtractBlockErrors(t *testing.T) {
	for _, tc := range []struct{ why, in, want string }{
		{"no closing fence", "```ambibench\n{\"v\":1}", "no closing fence"},
		{"not JSON", "```ambibench\nhello\n```", "ambibench block"},
		{"another version", "```ambibench\n{\"v\":9}\n```", "version 9"},
	} {
		_, ok, err := ExtractBlock(tc.in)
		if !ok || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: ok %v err %v", tc.why, ok, err)
		}
	}
	if _, ok, _ := ExtractBlock("plain prose"); ok {
		t.Error("found a block in plain prose")
	}
}

func FuzzExtractBlock(f *testing.F) {
	f.Add("```ambibench\n{\"v\":1,\"role\":\"plan\"}\n```")
	f.Add("```ambibench\n{\"v\":1,\"graph\":{\"nodes\":[{\"id\":\"a\"}]}}\n```")
	f.Add("```ambibench")
	f.Fuzz(func(t *testing.T, s string) {
		b, ok, err := ExtractBlock(s)
		if !ok && err != nil {
			t.Fatalf("no block but an error: %v", err)
		}
		if ok && err == nil {
			// A block read back renders and reads again the same.
			again, ok2, err2 := ExtractBlock(b.Render())
			if !ok2 || err2 != nil || again.Role != b.Role || again.Instruction != b.Instruction {
				t.Fatalf("re-read %+v: %v", again, err2)
			}
		}
	})
}

func TestHashIgnoresNothingAndSurvivesBadJSON(t *testing.T) {
	a := Request{Messages: []Message{{Role: RoleUser, Text: "x"}}}
	b := a
	b.Sample = 1
	if Hash("m", a) == Hash("m", b) {
		t.Error("the sample index does not change the hash")
	}
	if Hash("m", a) == Hash("n", a) {
		t.Error("the model does not change the hash")
	}
	bad := Request{Messages: []Message{{Role: RoleAssistant, ToolCalls: []ToolCall{{Name: "f", Args: []byte("{")}}}}}
	worse := Request{Messages: []Message{{Role: RoleAssistant, ToolCalls: []ToolCall{{Name: "f", Args: []byte("{{")}}}}}
	if Hash("m", bad) == Hash("m", worse) {
		t.Error("two different malformed arguments hash alike")
	}
}

func TestHashOfNonFiniteTemperature(t *testing.T) {
	seen := map[string]bool{}
	for _, temp := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0} {
		h := Hash("m", Request{Temperature: temp})
		if seen[h] {
			t.Errorf("temperature %v hashes like another", temp)
		}
		seen[h] = true
	}
}

// Re-encoding raw JSON, as an SDK may on the way to a server, leaves the
// hash alone.
func TestHashNormalisesRawJSON(t *testing.T) {
	a := Request{Tools: []ToolDecl{{Name: "f", Schema: []byte(`{"type": "object", "properties": {"b": {}, "a": {}}}`)}}}
	b := Request{Tools: []ToolDecl{{Name: "f", Schema: []byte(`{"properties":{"a":{},"b":{}},"type":"object"}`)}}}
	if Hash("m", a) != Hash("m", b) {
		t.Error("key order and spacing change the hash")
	}
}
