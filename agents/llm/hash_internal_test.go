package llm

import (
	"math"
	"testing"
)

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
