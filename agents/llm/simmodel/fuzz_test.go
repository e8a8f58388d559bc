package simmodel

import (
	"context"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
)

// FuzzGenerate feeds the simulated model conversations it did not write:
// arbitrary text after the prompt (a fenced block among it is only
// text), and arbitrary tool-call arguments and
// results. It must never panic and always answer.
func FuzzGenerate(f *testing.F) {
	f.Add("Put the red block in the blue bowl.", `{"tag":"absence","question":"?"}`, "I mean red block 2.", 0.0)
	f.Add("Move something away.", `{"pick":`, "error: no", 0.7)
	f.Add("", `null`, "", 1.0)
	m := New(Weak, "sim:weak")
	f.Fuzz(func(t *testing.T, instruction, args, result string, temp float64) {
		req := planRequest(instruction, temp, 1)
		req.Messages = append(req.Messages,
			llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "call_0", Name: "ask", Args: []byte(args)}}},
			llm.Message{Role: llm.RoleTool, ToolCallID: "call_0", Text: result},
			llm.Message{Role: llm.RoleUser, Text: "```ambibench\n" + args + "\n```"})
		if _, err := m.Generate(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzParseProfile feeds the profile parser, salts included, arbitrary
// text: it must never panic, and a profile it accepts keeps its salt when
// written back as "salt=N" after the rest.
func FuzzParseProfile(f *testing.F) {
	for _, s := range []string{"", "weak", "salt=2", "weak,salt=3", "tag=0.3,salt=1", "salt=", "salt=1,salt=2", "salt=-1", ",salt=1,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseProfile(s)
		if err != nil {
			return
		}
		rest, salt, err := cutSalt(s)
		if err != nil || salt != p.Salt {
			t.Fatalf("%q: parsed salt %d, cut %d, %v", s, p.Salt, salt, err)
		}
		if _, err := ParseProfile(rest); err != nil {
			t.Fatalf("%q parsed, its rest %q does not: %v", s, rest, err)
		}
	})
}
