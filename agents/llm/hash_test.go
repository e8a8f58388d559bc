package llm_test

import (
	"encoding/json"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
)

// TestHashSignatures: a tool call's signature counts in the hash when it
// is set, and a request without signatures hashes as it did before they
// existed, so that no recorded cassette is orphaned.
func TestHashSignatures(t *testing.T) {
	req := func(sig []byte) llm.Request {
		return llm.Request{System: "s", Messages: []llm.Message{{Role: llm.RoleUser, Text: "go"},
			{Role: llm.RoleAssistant, Text: "t", ToolCalls: []llm.ToolCall{{ID: "a", Name: "f", Args: json.RawMessage(`{"x": 1}`), Signature: sig}}},
			{Role: llm.RoleTool, ToolCallID: "a", Name: "f", Text: "ok"}}, Temperature: 0.5, Seed: 3}
	}
	// Computed by the hash before signatures were added to llm.ToolCall.
	const before = "8d39bf8182624626a70492e1e6af9d8f"
	tests := []struct {
		name, why string
		a, b      []byte
		same      bool
	}{
		{"none", "no signature: the old hash", nil, nil, true},
		{"empty", "an empty signature is none", []byte{}, nil, true},
		{"set", "a signature is sent, so it counts", []byte("sig"), nil, false},
		{"differ", "two signatures are two requests", []byte("sig1"), []byte("sig2"), false},
	}
	for _, tc := range tests {
		ha, hb := llm.Hash("gemini:g", req(tc.a)), llm.Hash("gemini:g", req(tc.b))
		if (ha == hb) != tc.same {
			t.Errorf("%s (%s): hashes %s and %s, want same=%v", tc.name, tc.why, ha, hb, tc.same)
		}
	}
	if h := llm.Hash("gemini:g", req(nil)); h != before {
		t.Errorf("unsigned request hashes to %s, want %s as before", h, before)
	}
}

// TestHashOmitTemperature: a request that leaves the temperature to the
// provider is another request than one at temperature 0 (a cassette must
// not replay one for the other), and its Temperature field, which is not
// sent, does not count; a request that sets a temperature hashes as it
// did before the field existed (TestHashPinned's "user").
func TestHashOmitTemperature(t *testing.T) {
	base := llm.Request{System: "You plan.", Messages: []llm.Message{{Role: llm.RoleUser, Text: "put the red block in the bowl"}}, Temperature: 0.7, Seed: 42}
	if h := llm.Hash("sim:weak", base); h != "de8b9d747e5cab7da36bfdbe84ded3d7" {
		t.Fatalf("a request that sets its temperature hashes %s, not its pinned hash", h)
	}
	zero, omit := base, base
	zero.Temperature = 0
	omit.OmitTemperature = true
	omitZero := omit
	omitZero.Temperature = 0
	h := func(r llm.Request) string { return llm.Hash("sim:weak", r) }
	if h(omit) == h(zero) || h(omit) == h(base) {
		t.Error("a request that leaves the temperature to the provider hashes as one that sets it")
	}
	if h(omit) != h(omitZero) {
		t.Error("the Temperature of a request that leaves it to the provider counts, though it is not sent")
	}
}
