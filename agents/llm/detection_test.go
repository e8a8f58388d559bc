package llm_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// DetectionsJSON writes json.Marshal's bytes. Rows: the detector's own
// output, at a two-robot table; numbers JSON writes otherwise (negative
// zero, exponents); strings it escapes; attributes nil and empty; an
// empty list.
func TestDetectionsJSONIsMarshal(t *testing.T) {
	red := scenes.NewBlock("red block 1", "red", -0.1234567, 0.5)
	red.Region = scenes.RegionRobot2
	table := []llm.Detection{llm.DetectionOf(red), llm.DetectionOf(scenes.NewBowl("blue bowl 1", "blue", 0.2, -0.6))}
	for _, tc := range []struct {
		why string
		ds  []llm.Detection
	}{
		{"the detector's list", table},
		{"negative zero and numbers written with exponents", []llm.Detection{{ID: "a", Attributes: map[string]string{}, Pos: [3]float64{math.Copysign(0, -1), 1e-7, 3e21}, Size: [3]float64{1e20, -2.5, 0}}}},
		{"strings JSON escapes", []llm.Detection{{ID: `a "b" <c> & d\`, Attributes: map[string]string{"k\n": "é"}}}},
		{"attributes nil", []llm.Detection{{ID: "x"}}},
		{"an empty list", []llm.Detection{}},
	} {
		want, _ := json.Marshal(tc.ds)
		if got := llm.DetectionsJSON(tc.ds); string(got) != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.why, got, want)
		}
	}
}
