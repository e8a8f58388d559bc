package simmodel_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/simmodel"
)

// A fourth track, made up here, teaches the simulated model its calls with
// the exported view alone, as a track outside this package would: a
// counting game whose agent asks the model how many objects are in view.
// The model counts them, and with the profile's hallucinate rate counts one
// too many, the same way at every call of the situation (Persists).
func init() {
	simmodel.Teach("counting", func(c *simmodel.Call) llm.Reply {
		cc := c.Context()
		if cc.Role != llm.CallPlan {
			return llm.Reply{Text: fmt.Sprintf("I do not handle counting calls of role %q.", cc.Role), FinishReason: llm.FinishStop}
		}
		n := len(cc.Objects)
		if c.Persists(c.Profile().Hallucinate, "count") {
			n++
		}
		return c.ToolCalls(llm.ToolCall{Name: "answer", Args: fmt.Appendf(nil, `{"count":%d}`, n)})
	})
}

func countingRequest(track string, objects ...string) llm.Request {
	return llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Text: "How many objects do you see?"}},
		Context:  &llm.CallContext{Role: llm.CallPlan, Track: track, Instruction: "Count the objects.", Objects: objects, Format: llm.FormatToolCalls},
	}
}

func ExampleTeach() {
	// The counting track taught the model in this file's init:
	//
	//	simmodel.Teach("counting", func(c *simmodel.Call) llm.Reply { … })
	m := simmodel.New(simmodel.Perfect, "sim:perfect")
	reply, err := m.Generate(context.Background(), countingRequest("counting", "red jar 1", "blue jar 1", "green jar 1"))
	if err != nil {
		panic(err)
	}
	for _, tc := range reply.ToolCalls {
		fmt.Println(tc.ID, tc.Name, string(tc.Args))
	}
	// Output:
	// call_0 answer {"count":3}
}

// The made-up track's responder errs at the profile's rates through the
// view's draws, and answers a request the same way every time.
func TestTaughtTrackErrs(t *testing.T) {
	p, err := simmodel.ParseProfile("hallucinate=1")
	if err != nil {
		t.Fatal(err)
	}
	m := simmodel.New(p, "sim:hallucinate=1")
	req := countingRequest("counting", "red jar 1", "blue jar 1")
	first, err := m.Generate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.ToolCalls) != 1 || string(first.ToolCalls[0].Args) != `{"count":3}` {
		t.Fatalf("a model that always hallucinates answered %+v, want a count of 3", first)
	}
	again, _ := m.Generate(context.Background(), req)
	if string(again.ToolCalls[0].Args) != string(first.ToolCalls[0].Args) {
		t.Errorf("the same request answered %s, then %s", first.ToolCalls[0].Args, again.ToolCalls[0].Args)
	}
	if !slices.Contains(simmodel.Taught(), "counting") {
		t.Errorf("Taught() = %v, want the counting track among them", simmodel.Taught())
	}
}

// A call of a track nobody taught is answered, not refused: the reply
// names the track, and those the model knows.
func TestUnknownTrack(t *testing.T) {
	m := simmodel.New(simmodel.Default, "sim")
	for _, track := range []string{"nowhere", ""} {
		reply, err := m.Generate(context.Background(), countingRequest(track, "red jar 1"))
		if err != nil {
			t.Fatalf("track %q: %v", track, err)
		}
		if reply.Text != simmodel.UnknownTrackReply(track) || !strings.Contains(reply.Text, fmt.Sprintf("%q", track)) || len(reply.ToolCalls) != 0 {
			t.Errorf("track %q: got %+v", track, reply)
		}
	}
	for _, known := range []string{"tabletop", "household", "semmap"} {
		if !strings.Contains(simmodel.UnknownTrackReply("nowhere"), known) {
			t.Errorf("the reply to an unknown track does not name %s: %s", known, simmodel.UnknownTrackReply("nowhere"))
		}
	}
}

// A track is taught once: a second teacher is a mistake, not an override.
func TestTeachTwicePanics(t *testing.T) {
	for _, tc := range []struct {
		why   string
		track string
		r     simmodel.Responder
	}{
		{"a built-in track", "tabletop", func(*simmodel.Call) llm.Reply { return llm.Reply{} }},
		{"no track", "", func(*simmodel.Call) llm.Reply { return llm.Reply{} }},
		{"no responder", "elsewhere", nil},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Teach did not panic", tc.why)
				}
			}()
			simmodel.Teach(tc.track, tc.r)
		}()
	}
}
