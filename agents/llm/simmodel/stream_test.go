package simmodel

import (
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
)

// TestStreamKey holds a call's random stream to what the package comment
// says it is keyed by: a change to any listed part draws afresh; the
// middle of a long last text, the earlier messages' texts at the same
// length and the response schema do not.
func TestStreamKey(t *testing.T) {
	long := strings.Repeat("a", 300) + strings.Repeat("b", 400) + strings.Repeat("c", 300)
	base := func() llm.Request {
		r := planRequest("Put the red block in the blue bowl.", 0, 0)
		r.Messages = []llm.Message{{Role: llm.RoleUser, Text: "Plan.\n"}, {Role: llm.RoleAssistant, Text: "ok"}, {Role: llm.RoleUser, Text: long}}
		r.Tools = []llm.ToolDecl{{Name: "pick_and_place"}}
		return r
	}
	first := func(r llm.Request) uint64 {
		c := &call{model: "sim", req: r, cc: *r.Context}
		c.opening = c.situation()
		g := genKey{temp: r.Temperature, seed: r.Seed, sample: r.Sample}
		if g.temp == 0 {
			g.sample = 0
		}
		return c.stream(g).Uint64()
	}
	want := first(base())
	for _, tc := range []struct {
		why    string
		change func(r *llm.Request)
		same   bool
	}{
		{"the same request", func(*llm.Request) {}, true},
		{"the middle of a long last text", func(r *llm.Request) { r.Messages[2].Text = long[:400] + "B" + long[401:] }, true},
		{"an earlier text at the same length", func(r *llm.Request) { r.Messages[0].Text = "Plot.\n" }, true},
		{"the response schema", func(r *llm.Request) { r.ResponseSchema = []byte(`{"type":"object"}`) }, true},
		{"the last text's end", func(r *llm.Request) { r.Messages[2].Text = long[:999] + "C" }, false},
		{"the last text's start", func(r *llm.Request) { r.Messages[2].Text = "A" + long[1:] }, false},
		{"an earlier text's length", func(r *llm.Request) { r.Messages[0].Text = "Plan!!\n" }, false},
		{"a message more", func(r *llm.Request) { r.Messages = append(r.Messages, llm.Message{Role: llm.RoleUser}) }, false},
		{"the system text's length", func(r *llm.Request) { r.System = "x" }, false},
		{"a tool's name", func(r *llm.Request) { r.Tools[0].Name = "pick" }, false},
		{"the role of the call", func(r *llm.Request) { r.Context.Role = llm.CallReflect }, false},
		{"the situation", func(r *llm.Request) { r.Context.Instruction = "Put a red block in the blue bowl." }, false},
		{"an exchange more", func(r *llm.Request) { r.Context.Exchanges = []llm.Exchange{{Kind: "ask"}} }, false},
		{"the seed", func(r *llm.Request) { r.Seed = 1 }, false},
		{"the temperature", func(r *llm.Request) { r.Temperature = 0.5 }, false},
		{"the sample at temperature > 0", func(r *llm.Request) { r.Temperature, r.Sample = 0.5, 1 }, false},
		{"an image in the last message", func(r *llm.Request) { r.Messages[2].Images = []llm.Image{{Digest: "d"}} }, false},
	} {
		r := base()
		cc := *r.Context
		r.Context = &cc
		tc.change(&r)
		if got := first(r); (got == want) != tc.same {
			t.Errorf("%s: same stream %v, want %v", tc.why, got == want, tc.same)
		}
	}
}
