package simmodel

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

func TestParseProfile(t *testing.T) {
	for _, tc := range []struct {
		why, in string
		want    Profile
		err     string
	}{
		{"empty is the default profile", "", Default, ""},
		{"named profiles", "weak", Weak, ""},
		{"perfect makes no error", "perfect", Perfect, ""},
		{"explicit rates, the rest zero", "hallucinate=0.1,tag=0.3", Profile{Name: "hallucinate=0.1,tag=0.3", Hallucinate: 0.1, Tag: 0.3}, ""},
		{"an unknown rate is named with the valid ones", "sloppy=0.2", Profile{}, `unknown rate "sloppy"`},
		{"a rate above one", "tag=1.5", Profile{}, "want a number in [0, 1]"},
		{"not a number", "tag=x", Profile{}, "want a number"},
		{"NaN fails every comparison, so a test of being out of range let it in (issue 33)", "hallucinate=NaN", Profile{}, "hallucinate=NaN: want a number in [0, 1]"},
		{"an infinite rate", "hallucinate=Inf", Profile{}, "want a number in [0, 1]"},
		{"a negative rate", "hallucinate=-0.5", Profile{}, "want a number in [0, 1]"},
		{"a rate that overflows a float64", "tag=1e400", Profile{}, "want a number in [0, 1]"},
		{"growth may exceed one, being no probability", "growth=2.5", Profile{Name: "growth=2.5", Growth: 2.5}, ""},
		{"growth NaN, which the old test let in", "growth=NaN", Profile{}, "growth=NaN: want a finite number ≥ 0"},
		{"growth infinite, which the old test let in", "growth=+Inf", Profile{}, "want a finite number ≥ 0"},
		{"a rate given twice: which one made the records? (issue 33)", "hallucinate=0.1,hallucinate=0.9", Profile{}, "hallucinate is given twice"},
		{"a rate given twice, once with spaces, is still twice", "tag=0.1, tag =0.2", Profile{}, "tag is given twice"},
		{"two different rates are not a repeat", "tag=0.1,skip=0.2", Profile{Name: "tag=0.1,skip=0.2", Tag: 0.1, Skip: 0.2}, ""},
		{"not name=rate", "tag", Profile{}, "is not name=rate"},
		{"a salt alone is the default profile salted", "salt=2", func() Profile { p := Default; p.Salt = 2; return p }(), ""},
		{"a salt after a named profile", "weak,salt=3", func() Profile { p := Weak; p.Salt = 3; return p }(), ""},
		{"a salt among explicit rates keeps the rates' name", "tag=0.3,salt=1", Profile{Name: "tag=0.3", Tag: 0.3, Salt: 1}, ""},
		{"salt 0 is no salt", "weak,salt=0", Weak, ""},
		{"two salts", "salt=1,salt=2", Profile{}, "salt given twice"},
		{"a negative salt", "salt=-1", Profile{}, "want a non-negative integer"},
		{"a salt that is not a number", "salt=x", Profile{}, "want a non-negative integer"},
	} {
		got, err := ParseProfile(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: got %v, want an error with %q", tc.why, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: got %+v, %v", tc.why, got, err)
		}
	}
}

// planRequest is a first planning call on a small table.
func planRequest(instruction string, temperature float64, sample int) llm.Request {
	g := scenes.BuildGraph([]scenes.Object{
		scenes.NewBlock("red block 1", "red", -0.2, -0.3),
		scenes.NewBlock("red block 2", "red", 0.2, -0.3),
		scenes.NewBowl("blue bowl 1", "blue", 0, -0.6),
	})
	b := &llm.CallContext{Role: llm.CallPlan, Track: "tabletop", Instruction: instruction, Robot: "robot1", Graph: g, Format: llm.FormatToolCalls}
	return llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "Plan.\n"}}, Context: b, Temperature: temperature, Sample: sample}
}

func TestPerfectPlans(t *testing.T) {
	m := New(Perfect, "sim:perfect")
	for _, tc := range []struct {
		why, instruction, tool, arg string
	}{
		{"two red blocks: ask which", "Put the red block in the blue bowl.", "ask", `"tag":"multiplicity"`},
		{"no green block: ask, absence", "Put the green block in the blue bowl.", "ask", `"tag":"absence"`},
		{"vague: ask, underspecified", "Put something in the blue bowl.", "ask", `"tag":"underspecified"`},
		{"clear: act", "Put red block 2 in the blue bowl.", "pick_and_place", `"pick":"red block 2"`},
	} {
		r, err := m.Generate(context.Background(), planRequest(tc.instruction, 0, 0))
		if err != nil {
			t.Fatal(err)
		}
		if len(r.ToolCalls) == 0 || r.ToolCalls[0].Name != tc.tool || !strings.Contains(string(r.ToolCalls[0].Args), tc.arg) {
			t.Errorf("%s: got %+v", tc.why, r.ToolCalls)
		}
		if r.InputTokens == 0 || r.OutputTokens == 0 {
			t.Errorf("%s: no token counts", tc.why)
		}
	}
}

// The conversation carries the answer: after the user says which, the
// model acts on it.
func TestPlanFollowsAnswers(t *testing.T) {
	m := New(Perfect, "sim:perfect")
	req := planRequest("Put the red block in the blue bowl.", 0, 0)
	first, _ := m.Generate(context.Background(), req)
	req.Messages = append(req.Messages,
		llm.Message{Role: llm.RoleAssistant, ToolCalls: first.ToolCalls},
		llm.Message{Role: llm.RoleTool, ToolCallID: first.ToolCalls[0].ID, Name: "ask", Text: "I mean red block 2."})
	r, _ := m.Generate(context.Background(), req)
	want := []string{"pick_and_place", "done"}
	var got []string
	for _, tc := range r.ToolCalls {
		got = append(got, tc.Name)
	}
	if !reflect.DeepEqual(got, want) || !strings.Contains(string(r.ToolCalls[0].Args), `"pick":"red block 2"`) {
		t.Errorf("got %+v", r.ToolCalls)
	}
	if r.ToolCalls[0].ID == first.ToolCalls[0].ID {
		t.Error("tool call ids repeat")
	}
}

func TestDeterministicAndSampled(t *testing.T) {
	m := New(Profile{Name: "noisy", Malformed: 0.5, Multiplicity: 0.5}, "sim:noisy")
	reply := func(temp float64, sample int) string {
		r, err := m.Generate(context.Background(), planRequest("Put the red block in the blue bowl.", temp, sample))
		if err != nil {
			t.Fatal(err)
		}
		r.Latency = 0
		b, _ := json.Marshal(r)
		return string(b)
	}
	if reply(0, 0) != reply(0, 0) {
		t.Error("the same request got different replies")
	}
	if reply(0, 0) != reply(0, 7) {
		t.Error("at temperature 0 the sample index changed the reply")
	}
	distinct := map[string]bool{}
	for s := range 20 {
		distinct[reply(0.8, s)] = true
	}
	if len(distinct) < 2 {
		t.Error("20 samples at temperature 0.8 all gave the same reply")
	}
}

func TestErrorRatesShowUp(t *testing.T) {
	for _, tc := range []struct {
		why  string
		p    Profile
		test func(r llm.Reply) bool
	}{
		{"malformed replies have no tool call", Profile{Malformed: 1}, func(r llm.Reply) bool { return len(r.ToolCalls) == 0 }},
		{"ignored multiplicity acts at once", Profile{Multiplicity: 1}, func(r llm.Reply) bool { return r.ToolCalls[0].Name == "pick_and_place" }},
		{"a wrong tag is not multiplicity", Profile{Tag: 1}, func(r llm.Reply) bool {
			return r.ToolCalls[0].Name == "ask" && !strings.Contains(string(r.ToolCalls[0].Args), "multiplicity")
		}},
	} {
		r, err := New(tc.p, "sim:test").Generate(context.Background(), planRequest("Put the red block in the blue bowl.", 0, 0))
		if err != nil {
			t.Fatal(err)
		}
		if !tc.test(r) {
			t.Errorf("%s: got %+v", tc.why, r)
		}
	}
}

// A request without a context, such as a plain chat client's, gets the
// plain answer, whatever its text holds: prose is never parsed for a
// context, so a fenced block in it is only text.
func TestRequestWithoutContext(t *testing.T) {
	for _, text := range []string{"hello", "```ambibench\n{\"v\":1,\"role\":\"plan\",\"track\":\"tabletop\",\"format\":\"tool_calls\"}\n```"} {
		r, err := New(Default, "sim").Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: text}}})
		if err != nil || r.Text != NoContextReply || len(r.ToolCalls) != 0 {
			t.Errorf("%q: got %+v, %v", text, r, err)
		}
	}
}

// Given objects but no graph, the model retrieves what it needs, one
// request a turn, and plans from the answers.
func TestRetrievesWhatItLacks(t *testing.T) {
	m := New(Perfect, "sim:perfect")
	b := &llm.CallContext{Role: llm.CallPlan, Track: "tabletop", Instruction: "Put the red block in the blue bowl.", Robot: "robot1",
		Objects: []string{"red block 1", "red block 2", "blue bowl 1"}, Format: llm.FormatToolCalls}
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "Prompt."}}, Context: b, Tools: retrievalTools}
	answers := map[string]string{
		`{"name":"red block"}`: `["red block 1","red block 2"]`,
	}
	var names []string
	for turn := range 4 {
		r, err := m.Generate(context.Background(), req)
		if err != nil || len(r.ToolCalls) == 0 {
			t.Fatalf("turn %d: %+v, %v", turn, r, err)
		}
		tc := r.ToolCalls[0]
		names = append(names, tc.Name)
		if tc.Name != "retrieve_node" && tc.Name != "retrieve_edge" {
			if tc.Name != "ask" || !strings.Contains(string(tc.Args), "multiplicity") {
				t.Errorf("after retrieving, got %s(%s); want a multiplicity question", tc.Name, tc.Args)
			}
			break
		}
		result, ok := answers[string(tc.Args)]
		if !ok {
			t.Fatalf("unexpected retrieval %s(%s)", tc.Name, tc.Args)
		}
		req.Messages = append(req.Messages, llm.Message{Role: llm.RoleAssistant, ToolCalls: r.ToolCalls},
			llm.Message{Role: llm.RoleTool, ToolCallID: tc.ID, Name: tc.Name, Text: result})
	}
	if len(names) < 2 || names[0] != "retrieve_node" {
		t.Errorf("calls %v: want a retrieval first", names)
	}
}

func TestParseEdge(t *testing.T) {
	e, ok := parseEdge(scenes.Edge{Source: "red block 1", Target: "blue bowl 1", Relation: "left_of"}.String())
	if !ok || e.Source != "red block 1" || e.Target != "blue bowl 1" || e.Relation != "left_of" {
		t.Errorf("got %+v, %v", e, ok)
	}
	if _, ok := parseEdge("nonsense"); ok {
		t.Error("parsed nonsense")
	}
}

var retrievalTools = []llm.ToolDecl{{Name: "retrieve_node"}, {Name: "retrieve_edge"}, {Name: "ask"}, {Name: "pick_and_place"}, {Name: "done"}}

// Once retrieval is withdrawn (sgcot-single-retrieval), the model decides
// from the object list: colours and classes it can read from the ids,
// relations it cannot, so a relational phrase finds nothing.
func TestDecidesFromObjectListWithoutRetrieval(t *testing.T) {
	m := New(Perfect, "sim:perfect")
	for _, tc := range []struct {
		why, instruction, want string
	}{
		{"colour and class are in the ids", "Put the red block in the blue bowl.", "pick_and_place"},
		{"two ids share colour and class: ask which", "Put the green block in the blue bowl.", "ask"},
		{"a relation needs edges the list lacks", "Pick up the block to the left of the blue bowl and place it in the blue bowl.", "ask"},
	} {
		b := &llm.CallContext{Role: llm.CallPlan, Track: "tabletop", Instruction: tc.instruction, Format: llm.FormatToolCalls,
			Objects: []string{"red block 1", "green block 1", "green block 2", "blue bowl 1"}}
		r, err := m.Generate(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "Prompt."}}, Context: b,
			Tools: []llm.ToolDecl{{Name: "ask"}, {Name: "pick_and_place"}, {Name: "done"}}})
		if err != nil || len(r.ToolCalls) == 0 {
			t.Fatalf("%s: %+v, %v", tc.why, r, err)
		}
		if got := r.ToolCalls[0].Name; got != tc.want {
			t.Errorf("%s: first call %s(%s), want %s", tc.why, got, r.ToolCalls[0].Args, tc.want)
		}
	}
}

// TestSaltKeepsRatesChangesDraws checks what a stream salt is for: over
// many calls a salted model errs as often as the unsalted one (the same
// rates), on other calls (independent draws). Salt 0 is tested by the
// records of a run being unchanged (the golden tests), and here by
// drawing as the unsalted model does.
func TestSaltKeepsRatesChangesDraws(t *testing.T) {
	p := Profile{Name: "malformed=0.3", Malformed: 0.3}
	salted := p
	salted.Salt = 1
	base, zero, other := New(p, "sim:malformed=0.3"), New(p, "sim:malformed=0.3"), New(salted, "sim:malformed=0.3")
	const n = 2000
	var errBase, errOther, both, differ int
	for i := range n {
		req := planRequest("Put the red block in the blue bowl.", 0, 0)
		req.Messages[0].Text = fmt.Sprintf("Plan %d.\n", i) // the draws are keyed by the request
		a, _ := base.Generate(context.Background(), req)
		z, _ := zero.Generate(context.Background(), req)
		o, err := other.Generate(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a.ToolCalls, z.ToolCalls) || a.Text != z.Text {
			differ++
		}
		ea, eo := len(a.ToolCalls) == 0, len(o.ToolCalls) == 0
		if ea {
			errBase++
		}
		if eo {
			errOther++
		}
		if ea && eo {
			both++
		}
	}
	if differ != 0 {
		t.Errorf("two unsalted models drew differently on %d of %d calls", differ, n)
	}
	rb, ro, rboth := float64(errBase)/n, float64(errOther)/n, float64(both)/n
	if math.Abs(rb-ro) > 0.05 {
		t.Errorf("error rate %.3f unsalted, %.3f salted: a salt must not change rates", rb, ro)
	}
	// Independent draws: both err about rb·ro of the time, not rb.
	if math.Abs(rboth-rb*ro) > 0.04 {
		t.Errorf("both erred on %.3f of calls, want about %.3f for independent draws (unsalted %.3f, salted %.3f)", rboth, rb*ro, rb, ro)
	}
}

// The lead robot that sees the block but not its destination puts the
// block in the shared workspace and asks the partner in one reply; the
// partner takes it to the destination it sees and says so.
func TestHandsOffAnUnseenDestination(t *testing.T) {
	m := New(Perfect, "sim:perfect")
	in := func(o scenes.Object, region string) scenes.Object { o.Region = region; return o }
	lead := scenes.BuildGraph([]scenes.Object{in(scenes.NewBlock("red block 1", "red", -0.2, -0.3), scenes.RegionRobot1)})
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "Plan.\n"}}, Context: &llm.CallContext{Role: llm.CallPlan, Track: "tabletop",
		Instruction: "Put the red block in the blue bowl.", Robot: "robot1", Partner: "robot2", Graph: lead, Format: llm.FormatToolCalls}}
	r, err := m.Generate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tc := range r.ToolCalls {
		got = append(got, tc.Name+" "+string(tc.Args))
	}
	want := []string{`pick_and_place {"pick":"red block 1","place":"shared workspace"}`,
		`ask_robot {"message":"I cannot see the blue bowl, so I put red block 1 in the shared workspace. Please put red block 1 in the blue bowl."}`}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("lead:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	helper := scenes.BuildGraph([]scenes.Object{in(scenes.NewBlock("red block 1", "red", 0, -0.5), scenes.RegionShared),
		in(scenes.NewBowl("blue bowl 1", "blue", 0.2, -0.5), scenes.RegionRobot2)})
	var args struct{ Message string }
	if err := json.Unmarshal(r.ToolCalls[1].Args, &args); err != nil {
		t.Fatal(err)
	}
	areq := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "Answer.\n"}}, Context: &llm.CallContext{Role: llm.CallAnswer, Track: "tabletop",
		Robot: "robot2", Partner: "robot1", Graph: helper, Message: args.Message, Format: llm.FormatToolCalls}}
	a, err := m.Generate(context.Background(), areq)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.ToolCalls) != 1 || string(a.ToolCalls[0].Args) != `{"pick":"red block 1","place":"blue bowl 1"}` {
		t.Fatalf("partner: %+v, want red block 1 into blue bowl 1", a.ToolCalls)
	}
	areq.Messages = append(areq.Messages, llm.Message{Role: llm.RoleAssistant, ToolCalls: a.ToolCalls},
		llm.Message{Role: llm.RoleTool, ToolCallID: a.ToolCalls[0].ID, Name: "pick_and_place", Text: "robot2 put red block 1 at blue bowl 1."})
	if a, _ := m.Generate(context.Background(), areq); a.Text != "I took red block 1 to blue bowl 1." {
		t.Errorf("partner's reply %q", a.Text)
	}
}

// TestImageTokens: an image costs llm.ImageTokens of its size, whatever
// its bytes, which are never made; the text around it counts as before.
func TestImageTokens(t *testing.T) {
	t.Parallel()
	text := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "what is on the table?"}}}
	withImage := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "what is on the table?",
		Images: []llm.Image{{Digest: "00112233445566778899", MIME: llm.ImagePNG, Width: 640, Height: 480,
			Data: func() ([]byte, error) { t.Error("the image's bytes were made"); return nil, nil }}}}}}
	if got, want := CountTokens(withImage)-CountTokens(text), 410; got != want {
		t.Errorf("a 640×480 image counts %d tokens, want %d", got, want)
	}
	for _, tc := range []struct {
		w, h, want int
		why        string
	}{
		{640, 480, 410, "the camera's default: 307,200 px / 750, rounded up"},
		{1, 1, 1, "the smallest image is a token"},
		{4000, 3000, 1600, "a large image is capped, as providers scale it down"},
		{0, 480, 0, "an image without a size costs nothing (Check refuses it before any call)"},
	} {
		if got := llm.ImageTokens(tc.w, tc.h); got != tc.want {
			t.Errorf("%s: ImageTokens(%d, %d) = %d, want %d", tc.why, tc.w, tc.h, got, tc.want)
		}
	}
}
