package tabletop

import (
	"strings"
	"testing"
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
