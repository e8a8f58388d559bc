package simmodel

import (
	"context"
	"math"
	"strings"
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
// text: it must never panic, every rate of a profile it accepts is a
// probability (growth a finite number from 0), no rate is set twice, and
// the profile keeps its salt when written back as "salt=N" after the
// rest.
func FuzzParseProfile(f *testing.F) {
	for _, s := range []string{"", "weak", "salt=2", "weak,salt=3", "tag=0.3,salt=1", "salt=", "salt=1,salt=2", "salt=-1", ",salt=1,",
		"hallucinate=NaN", "growth=Inf", "tag=0.1,tag=0.2", "growth=3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseProfile(s)
		if err != nil {
			return
		}
		for _, name := range rateNames {
			r := *p.rate(name)
			if name == "growth" && !(r >= 0 && !math.IsInf(r, 1)) || name != "growth" && !(r >= 0 && r <= 1) {
				t.Fatalf("%q: accepted %s=%v", s, name, r)
			}
			if n := strings.Count(","+s, ","+name+"="); n > 1 {
				t.Fatalf("%q: accepted %s %d times", s, name, n)
			}
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
