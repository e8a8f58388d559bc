package simmodel

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/program"
	"github.com/ambibench/ambibench/scenes"
)

// programRequest asks for a ProgPrompt program on planRequest's table (two
// red blocks, a blue bowl), with the episode so far in the block.
func programRequest(instruction string, ex []llm.Exchange, done []llm.Move) llm.Request {
	g := scenes.BuildGraph([]scenes.Object{
		scenes.NewBlock("red block 1", "red", -0.2, -0.3),
		scenes.NewBlock("red block 2", "red", 0.2, -0.3),
		scenes.NewBowl("blue bowl 1", "blue", 0, -0.6),
	})
	b := &llm.CallContext{Role: llm.CallPlan, Track: "tabletop", Instruction: instruction, Robot: "robot1", Graph: g,
		Exchanges: ex, Done: done, Format: llm.FormatProgram}
	return llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "def task():\n"}}, Context: b}
}

func parsed(t *testing.T, r llm.Reply) program.Program {
	t.Helper()
	if len(r.ToolCalls) != 0 {
		t.Fatalf("a program was asked for, got tool calls %+v", r.ToolCalls)
	}
	p, err := program.Parse(r.Text)
	if err != nil {
		t.Fatalf("the program does not parse: %v\n%s", err, r.Text)
	}
	return p
}

func TestPerfectPrograms(t *testing.T) {
	m := New(Perfect, "sim:perfect")
	ask := func(tag, q string) []program.Stmt {
		return []program.Stmt{program.Call{Name: program.Ask, Args: []string{tag, q}}}
	}
	for _, tc := range []struct {
		why, instruction string
		ex               []llm.Exchange
		done             []llm.Move
		want             []program.Stmt
	}{
		{"two red blocks: the program is the multiplicity question alone", "Put the red block in the blue bowl.", nil, nil,
			ask("multiplicity", "Which do you mean: red block 1 or red block 2?")},
		{"no green block: an absence question", "Put the green block in the blue bowl.", nil, nil,
			ask("absence", "I cannot find the green block. What should I use instead?")},
		{"a clear instruction: the move, its assertion and its recovery", "Put red block 2 in the blue bowl.", nil, nil,
			program.Move("red block 2", "blue bowl 1")},
		{"a block as destination is asserted with on", "Put red block 2 on red block 1.", nil, nil,
			program.Move("red block 2", "red block 1")},
		{"the reply in the block's exchanges settles the question", "Put the red block in the blue bowl.",
			[]llm.Exchange{{Kind: "ask", Tag: "multiplicity", Text: "Which do you mean: red block 1 or red block 2?", Reply: "I mean red block 2."}}, nil,
			program.Move("red block 2", "blue bowl 1")},
		{"moves already done are not written again", "Put red block 1 in the blue bowl, then red block 2 in the blue bowl.", nil,
			[]llm.Move{{Pick: "red block 1", Place: "blue bowl 1"}},
			program.Move("red block 2", "blue bowl 1")},
	} {
		r, err := m.Generate(context.Background(), programRequest(tc.instruction, tc.ex, tc.done))
		if err != nil {
			t.Fatal(err)
		}
		if got := parsed(t, r); !reflect.DeepEqual(zeroLines(got.Body), tc.want) {
			t.Errorf("%s: got\n%s", tc.why, r.Text)
		}
		if r.OutputTokens == 0 {
			t.Errorf("%s: no output tokens", tc.why)
		}
	}
}

// With everything done the model writes a body that runs nothing, but
// still a program: the workflow then ends the episode.
func TestProgramWithNothingLeft(t *testing.T) {
	r, _ := New(Perfect, "sim:perfect").Generate(context.Background(), programRequest("Put red block 2 in the blue bowl.", nil,
		[]llm.Move{{Pick: "red block 2", Place: "blue bowl 1"}}))
	if p := parsed(t, r); len(p.Body) != 0 || r.OutputTokens == 0 {
		t.Errorf("got %q; want a comment only", r.Text)
	}
}

// The profile's errors show in programs as in tool calls: a wrong tag,
// a guess instead of a question, a phantom block, an unreadable reply.
func TestProgramErrorRates(t *testing.T) {
	for _, tc := range []struct {
		why  string
		p    Profile
		test func(r llm.Reply) bool
	}{
		{"a wrong tag is not multiplicity", Profile{Tag: 1}, func(r llm.Reply) bool {
			return strings.HasPrefix(r.Text, "    ask(") && !strings.Contains(r.Text, `"multiplicity"`)
		}},
		{"ignored multiplicity moves a red block at once", Profile{Multiplicity: 1}, func(r llm.Reply) bool {
			return strings.HasPrefix(r.Text, `    pick_and_place("red block 1", "blue bowl 1")`)
		}},
		{"malformed replies do not parse as programs", Profile{Malformed: 1}, func(r llm.Reply) bool {
			_, err := program.Parse(r.Text)
			return err != nil
		}},
	} {
		r, err := New(tc.p, "sim:test").Generate(context.Background(), programRequest("Put the red block in the blue bowl.", nil, nil))
		if err != nil {
			t.Fatal(err)
		}
		if !tc.test(r) {
			t.Errorf("%s: got %q", tc.why, r.Text)
		}
	}
	r, _ := New(Profile{Hallucinate: 1}, "sim:test").Generate(context.Background(), programRequest("Put red block 2 in the blue bowl.", nil, nil))
	if p := parsed(t, r); len(p.Body) != 2 || p.Body[0].(program.Call).Args[0] == "red block 2" {
		t.Errorf("hallucination: got %q; want a move of a block not on the table", r.Text)
	}
}

func zeroLines(body []program.Stmt) []program.Stmt {
	var out []program.Stmt
	for _, s := range body {
		switch s := s.(type) {
		case program.Call:
			s.Line = 0
			out = append(out, s)
		case program.Assert:
			s.Line = 0
			if s.Else != nil {
				e := *s.Else
				e.Line = 0
				s.Else = &e
			}
			out = append(out, s)
		}
	}
	return out
}
