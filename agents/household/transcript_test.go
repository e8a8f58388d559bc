package household

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
)

// After every step, a transcript's prompt is react_user.tmpl rendered
// whole over the trajectory so far, byte for byte (in the text shape,
// after its instructions), and its context is householdContext's:
// writing each step once changes no request.
func TestTranscriptIsTheTemplate(t *testing.T) {
	act := func(cmd, obs string) householdStep {
		return householdStep{Tool: agents.ToolAct, Command: cmd, Result: obs}
	}
	list := func(cmds string) householdStep { return householdStep{Tool: agents.ToolAdmissible, Result: cmds} }
	notes := []agents.ReflectionRecord{{Trial: 1, Text: " Open the fridge 1 first. "}, {Trial: 2, Text: "Ask which apple."}}
	for _, tc := range []struct {
		why         string
		steps       []householdStep
		reflections []agents.ReflectionRecord
	}{
		{"no step yet: the head and the tail alone", nil, nil},
		{"acts only", []householdStep{act("go to fridge 1", "The fridge 1 is closed."), act("open fridge 1", "You open the fridge 1.")}, nil},
		{"a second listing shortens the first, which was written in full",
			[]householdStep{list("go to fridge 1\nlook"), act("go to fridge 1", "The fridge 1 is closed."), list("open fridge 1\nlook"), list("open fridge 1\nlook\ninventory")}, nil},
		{"an ask, a refused call and a call whose arguments did not decode",
			[]householdStep{
				{Tool: agents.ToolAsk, Command: "multiplicity", Question: "Which apple?", Result: "The apple 2."},
				{Tool: "fly", Result: "error: not a household tool"},
				{Tool: agents.ToolAct, Command: `{"command":`, Undecoded: true, Result: "error: bad arguments"},
			}, nil},
		{"reflections: the head holds them and the context numbers the trial",
			[]householdStep{act("look", "You are in the middle of a room.")}, notes},
	} {
		for _, text := range []bool{false, true} {
			const opening, trial = "You are in the middle of a room.\n\nYour task is to: put some apple in fridge.", 3
			env := newFakeHouse(1)
			p, preamble, shown := newReactPlayer(nil, env), "", opening
			if text {
				// The text shape's prompt begins with its instructions and
				// shows the room and the task on consecutive lines.
				p, preamble, shown = newTextPlayer(nil, env), "The instructions and the worked games.\n", textOpening(opening)
			}
			tr, err := newTranscript(context.Background(), preamble, opening, trial, tc.reflections, text)
			if err != nil {
				t.Fatal(err)
			}
			for n := 0; n <= len(tc.steps); n++ {
				if n > 0 {
					if err := tr.add(tc.steps[n-1]); err != nil {
						t.Fatal(err)
					}
				}
				for _, retry := range []bool{false, true} {
					want, err := render("react_user.tmpl", reactPrompt{Opening: shown, Steps: views(tc.steps[:n]), Reflections: reflectionViews(tc.reflections, text), Retry: retry, Trial: trial, Text: text})
					if err != nil {
						t.Fatal(err)
					}
					want = preamble + want
					tail, err := p.tail(context.Background(), retry)
					if err != nil {
						t.Fatal(err)
					}
					if got := tr.prompt(tail); got != want {
						t.Errorf("%s: after %d steps (retry %v) the prompt is\n%s\nwant the template's\n%s", tc.why, n, retry, got, want)
					}
				}
				want := householdContext(env, llm.CallPlan, llm.FormatToolCalls, opening, trial, tc.steps[:n], tc.reflections)
				got := houseCallContext(env, llm.CallPlan, llm.FormatToolCalls, opening, trial, slices.Clip(tr.house), slices.Clip(tr.reflections))
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s: after %d steps the context is %+v, want %+v", tc.why, n, got, want)
				}
			}
		}
	}
}
