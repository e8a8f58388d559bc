package tabletop

import (
	"context"
	"encoding/json"
	"github.com/ambibench/ambibench/bench"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm/models"
	"github.com/ambibench/ambibench/results"
	"github.com/ambibench/ambibench/sim/physics"
	"github.com/ambibench/ambibench/tasks"
)

// newTestEnv builds robot 1's view of episode 0 of a cell.
func newTestEnv(t *testing.T, family, perturbation string, limit int) (*robotEnv, *episodeState) {
	t.Helper()
	ep, err := MakeEpisode(1, family, perturbation, 0)
	if err != nil {
		t.Fatal(err)
	}
	w, err := physics.New(ep.Objects, physics.Config{TwoRobots: ep.TwoRobots, PartialView: ep.PartialView})
	if err != nil {
		t.Fatal(err)
	}
	st := &episodeState{ep: ep, world: w, limit: limit, toolCalls: map[string]int{}}
	return &robotEnv{st: st, robot: "robot1", instruction: ep.Instruction(), tools: agents.Tools(false)}, st
}

func callTool(t *testing.T, e agents.Env, name, args string) agents.Result {
	t.Helper()
	r, err := e.Call(context.Background(), agents.ToolCall{Name: name, Args: json.RawMessage(args)})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestUserAnswersOnlyTheRightTag(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why, perturbation, tag string
		answered               bool
	}{
		{"the right tag gets the recorded answer", "absence", "absence", true},
		{"a wrong tag on an ambiguous episode ends it", "absence", "multiplicity", false},
		{"any question on a clear episode ends it", "none", "underspecified", false},
		{"the user never answers under partial observability", "partial_observability", "absence", false},
	} {
		t.Run(tc.why, func(t *testing.T) {
			e, st := newTestEnv(t, "pick_place", tc.perturbation, 40)
			r := callTool(t, e, agents.ToolAsk, `{"tag":"`+tc.tag+`","question":"which?"}`)
			if tc.answered {
				if r.Ended || r.Text != st.ep.Answer || st.TagCorrect != 1 {
					t.Errorf("got %+v, want the answer %q", r, st.ep.Answer)
				}
				return
			}
			if !r.Ended || !st.WrongTag {
				t.Errorf("got %+v, want the episode ended", r)
			}
			if r := callTool(t, e, agents.ToolRetrieveNode, `{}`); !r.Ended {
				t.Error("a call after the end was served")
			}
		})
	}
}

func TestStepLimitEndsEpisode(t *testing.T) {
	t.Parallel()
	e, st := newTestEnv(t, "pick_place", "none", 2)
	for i := range 2 {
		if r := callTool(t, e, agents.ToolRetrieveNode, `{}`); r.Ended {
			t.Fatalf("call %d ended the episode early", i+1)
		}
	}
	if r := callTool(t, e, agents.ToolRetrieveNode, `{}`); !r.Ended || !strings.Contains(r.Text, "step limit") {
		t.Errorf("third call: %+v, want the step limit", r)
	}
	if st.steps != 3 {
		t.Errorf("steps %d, want 3", st.steps)
	}
}

func TestRefusedCallsNameTheProblem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why, tool, args, want string
	}{
		{"missing field", agents.ToolPickAndPlace, `{"pick":"red block 1"}`, `"place"`},
		{"malformed JSON", agents.ToolPickAndPlace, `{"pick":`, "malformed"},
		{"unknown tool", "teleport", `{}`, "unknown tool"},
		{"no partner at a one-robot table", agents.ToolAskRobot, `{"message":"hi"}`, "no other robot"},
		{"impossible action", agents.ToolPickAndPlace, `{"pick":"nothing 9","place":"middle"}`, "no object"},
	} {
		t.Run(tc.why, func(t *testing.T) {
			e, st := newTestEnv(t, "pick_place", "none", 40)
			r := callTool(t, e, tc.tool, tc.args)
			if r.Error == "" || !strings.Contains(r.Error, tc.want) || r.Ended {
				t.Errorf("got %+v, want a refusal mentioning %q", r, tc.want)
			}
			if st.steps != 1 {
				t.Errorf("a refused call counts as a step; steps = %d", st.steps)
			}
		})
	}
}

func TestOnlyTheOracleSeesTheTruth(t *testing.T) {
	t.Parallel()
	e, st := newTestEnv(t, "pick_place", "absence", 40)
	truth := truthOf(st.ep)
	model, err := models.Open("sim:perfect", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range agents.Names() {
		info, _ := agents.Lookup(name)
		a, err := info.New(agents.Config{Model: model})
		if err != nil {
			t.Fatal(err)
		}
		_, sees := envFor(a, e, truth).(agents.TruthSource)
		if sees != (name == "oracle") {
			t.Errorf("agent %s sees the truth: %v", name, sees)
		}
	}
}

// Two-robot episodes record the messages and which robot acted.
func TestHandoverRecordsMessagesAndActors(t *testing.T) {
	t.Parallel()
	for _, agent := range []string{"oracle", "rules"} {
		rec, err := runEpisode(context.Background(), bench.Job{Cell: bench.Cell{Family: "handover", Perturbation: "none"}, Agent: agent}, bench.Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !rec.Success || len(rec.Messages) == 0 || strings.Join(rec.ActedBy, ",") != "robot2,robot1" {
			t.Errorf("%s: success %v, messages %v, acted by %v", agent, rec.Success, rec.Messages, rec.ActedBy)
		}
	}
	rec, err := runEpisode(context.Background(), bench.Job{Cell: bench.Cell{Family: "pick_place", Perturbation: tasks.LabelPartialObservability}, Agent: "rules"}, bench.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !rec.ADA || rec.Tag != tasks.LabelPartialObservability || rec.TagCorrect != rec.Questions {
		t.Errorf("partial observability: ADA %v, tag %q, %d of %d questions right", rec.ADA, rec.Tag, rec.TagCorrect, rec.Questions)
	}
}

// Both cases of partial observability occur, and the reference agents
// solve each: the object case with robot 2 bringing the block, the
// destination case with robot 1 putting it in the shared workspace and
// robot 2 placing it. The record says which case it was.
func TestPartialObservabilityCasesAreSolved(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		why, outOfView, actedBy string
	}{
		{"the object out of view: robot 2 brings it, robot 1 places it", tasks.OutOfViewObject, "robot2,robot1"},
		{"the destination out of view: robot 1 hands it over, robot 2 places it", tasks.OutOfViewDestination, "robot1,robot2"},
	} {
		t.Run(tc.why, func(t *testing.T) {
			for _, agent := range []string{"oracle", "rules"} {
				for _, family := range []string{"pick_place", "handover"} {
					seen := 0
					for i := range 20 {
						rec, err := runEpisode(context.Background(), bench.Job{Cell: bench.Cell{Family: family, Perturbation: tasks.LabelPartialObservability}, Index: i, Agent: agent}, bench.Options{Seed: 1})
						if err != nil {
							t.Fatal(err)
						}
						if rec.OutOfView != tc.outOfView {
							continue
						}
						seen++
						if !rec.Success || !rec.ADA || rec.Asked != true || len(rec.Messages) != 1 || strings.Join(rec.ActedBy, ",") != tc.actedBy {
							t.Errorf("%s %s episode %d: success %v, ADA %v, messages %v, acted by %v (want %s); error %q",
								agent, family, i, rec.Success, rec.ADA, rec.Messages, rec.ActedBy, tc.actedBy, rec.Error)
						}
					}
					if seen == 0 {
						t.Errorf("%s %s: no episode of this case in 20", agent, family)
					}
				}
			}
		})
	}
}

// The destination exists, in the other robot's workspace: telling the
// user it is absent is a wrong tag and fails the episode, even if the
// block is then put in the shared workspace.
func TestDestinationOutOfViewIsNotAbsent(t *testing.T) {
	t.Parallel()
	var ep *tasks.Episode
	for i := range 20 {
		e, err := MakeEpisode(1, "pick_place", tasks.LabelPartialObservability, i)
		if err != nil {
			t.Fatal(err)
		}
		if e.OutOfView == tasks.OutOfViewDestination {
			ep = e
			break
		}
	}
	if ep == nil {
		t.Fatal("no destination-case episode in 20")
	}
	w, err := physics.New(ep.Objects, physics.Config{TwoRobots: ep.TwoRobots, PartialView: ep.PartialView})
	if err != nil {
		t.Fatal(err)
	}
	st := &episodeState{ep: ep, world: w, limit: 40, toolCalls: map[string]int{}}
	e := &robotEnv{st: st, robot: "robot1", partner: "robot2", instruction: ep.Instruction(), tools: agents.Tools(true)}
	r := callTool(t, e, agents.ToolAsk, `{"tag":"absence","question":"I cannot find the bowl. Where should I put it instead?"}`)
	if !r.Ended {
		t.Errorf("asking the user with the absence tag: %+v, want the episode ended", r)
	}
	var rec results.Record
	(&episode{job: bench.Job{Cell: bench.Cell{Family: "pick_place", Perturbation: tasks.LabelPartialObservability}}, ep: ep, st: st}).Score(&rec, nil)
	if rec.Success || rec.ADA || rec.TagCorrect != 0 || rec.OutOfView != tasks.OutOfViewDestination {
		t.Errorf("record: success %v, ADA %v, tag correct %d, out of view %q; want a failure of the destination case", rec.Success, rec.ADA, rec.TagCorrect, rec.OutOfView)
	}
}
