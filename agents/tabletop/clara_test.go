package tabletop

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/internal/agenttest"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/llmtest"
	"github.com/ambibench/ambibench/agents/llm/simmodel"
)

func TestParseClaraPlan(t *testing.T) {
	for _, tc := range []struct {
		why, text string
		steps     int
		err       string
	}{
		{"a plain plan", `{"plan": [{"pick": "red block 1", "place": "blue bowl 1"}]}`, 1, ""},
		{"prose and a fence around it", "Sure:\n```json\n{\"plan\": [{\"ask_robot\": \"Please help.\"}]}\n```", 1, ""},
		{"an empty plan is a plan", `{"plan": []}`, 0, ""},
		{"no JSON at all", `I would put the red block in the bowl.`, 0, "no JSON object"},
		{"no plan field", `{"steps": []}`, 0, `no field "plan"`},
		{"a move without a place", `{"plan": [{"pick": "red block 1"}]}`, 0, "step 1: want pick and place"},
		{"a move and a message in one step", `{"plan": [{"pick": "a", "place": "b", "ask_robot": "c"}]}`, 0, "step 1: both"},
		{"broken JSON", `{"plan": [}`, 0, "plan:"},
	} {
		steps, err := ParseClaraPlan(tc.text)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.why, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want one containing %q", tc.why, err, tc.err)
		case tc.err == "" && len(steps) != tc.steps:
			t.Errorf("%s: %d steps, want %d", tc.why, len(steps), tc.steps)
		}
	}
}

func TestParseClaraClass(t *testing.T) {
	for _, tc := range []struct{ why, text, err string }{
		{"act", `{"feasible": true, "ambiguous": false, "action": "act"}`, ""},
		{"ask with a tag", `{"feasible": false, "action": "ask", "tag": "absence", "question": "Which one?"}`, ""},
		{"ask_robot needs no tag", `{"feasible": true, "action": "ask_robot", "question": "Do you see it?"}`, ""},
		{"a tag that is not one", `{"action": "ask", "tag": "vague", "question": "?"}`, `"vague" is not one of`},
		{"a question without text", `{"action": "ask", "tag": "multiplicity", "question": " "}`, "empty"},
		{"an unknown action", `{"action": "wait"}`, `"wait" is not ask`},
	} {
		_, err := ParseClaraClass(tc.text)
		if (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: error %v, want %q", tc.why, err, tc.err)
		}
	}
}

func FuzzParseClara(f *testing.F) {
	for _, s := range []string{`{"plan": [{"pick": "a", "place": "b"}]}`, `{"plan": [{"ask_robot": "x"}]}`, `{"action": "ask", "tag": "absence", "question": "q"}`, `{`, `}{`, ``} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if steps, err := ParseClaraPlan(s); err == nil {
			for _, st := range steps {
				if st.AskRobot == "" && (st.Pick == "" || st.Place == "") {
					t.Fatalf("accepted an incomplete step %+v", st)
				}
			}
		}
		if c, err := ParseClaraClass(s); err == nil && c.Action != "act" && strings.TrimSpace(c.Question) == "" {
			t.Fatalf("accepted %+v without a question", c)
		}
	})
}

// ambiguousRelTable is relTable with an instruction that names no block:
// the red one and the green one both fit.
type ambiguousRelTable struct{ *relTable }

func (ambiguousRelTable) Instruction() string { return "Put the block in the yellow bowl." }

// CLARA samples as its authors' code does: 5 prompts, 3 samples of each at
// temperature 0.8, each prompt with from 4 to all 6 worked examples and
// its own order; the 15 samples are numbered 0 to 14, so no two share a
// draw. The sampling is fixed by what the robot sees: a second run sends
// the same prompts. On sim:perfect it acts on a clear instruction without
// a classifying call, and on an ambiguous one classifies and asks.
func TestClaraSamplesPromptsTimesDraws(t *testing.T) {
	run := func(env agents.Env) []llm.Request {
		t.Helper()
		m := &llmtest.Recorder{Model: simmodel.New(simmodel.Perfect, "sim:perfect")}
		agent, err := agenttest.Workflow(t, "clara", m)
		if err != nil {
			t.Fatal(err)
		}
		if err := agent.Run(context.Background(), env); err != nil {
			t.Fatalf("%s: %v", env.Instruction(), err)
		}
		return m.Requests()
	}
	sampling := func(reqs []llm.Request) (out []llm.Request) {
		for _, r := range reqs {
			if r.Context != nil && r.Context.Role == llm.CallPlan && r.Context.Format == llm.FormatJSON {
				out = append(out, r)
			}
		}
		return out
	}
	classified := func(reqs []llm.Request) bool {
		return slices.ContainsFunc(reqs, func(r llm.Request) bool { return r.Context != nil && r.Context.Role == llm.CallClassify })
	}

	clear := run(newRelTable())
	samples := sampling(clear)
	if len(samples) != claraPrompts*claraDraws || claraPrompts != 5 || claraDraws != 3 {
		t.Fatalf("%d sampling calls (%d prompts × %d draws), want 5 × 3", len(samples), claraPrompts, claraDraws)
	}
	var prompts []string
	for i, r := range samples {
		if r.Sample != i || r.Temperature != 0.8 {
			t.Errorf("sampling call %d: sample %d at temperature %v, want sample %d at 0.8", i, r.Sample, r.Temperature, i)
		}
		text := r.Messages[0].Text
		if i%claraDraws != 0 {
			if text != prompts[len(prompts)-1] {
				t.Errorf("sampling call %d: a draw of prompt %d sends another prompt", i, i/claraDraws)
			}
			continue
		}
		prompts = append(prompts, text)
		if n := strings.Count(text, "\nAnswer: {"); n < claraShots || n > len(claraExamples) {
			t.Errorf("prompt %d shows %d worked examples, want %d to %d", len(prompts)-1, n, claraShots, len(claraExamples))
		}
	}
	if len(slices.Compact(slices.Sorted(slices.Values(prompts)))) != claraPrompts {
		t.Errorf("the %d prompts are not all different", claraPrompts)
	}
	again := sampling(run(newRelTable()))
	for i := range samples {
		if again[i].Messages[0].Text != samples[i].Messages[0].Text {
			t.Errorf("sampling call %d: a second run of the episode sends another prompt", i)
		}
	}
	if classified(clear) {
		t.Error("a clear instruction went to the classifying call: its samples should agree")
	}
	if amb := run(ambiguousRelTable{newRelTable()}); !classified(amb) {
		t.Error("an ambiguous instruction was carried out without the classifying call")
	}
}
