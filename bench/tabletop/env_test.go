package tabletop

import (
	"context"
	"encoding/json"
	"github.com/ambibench/ambibench/bench"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm/models"
	"github.com/ambibench/ambibench/sim/tabletop"
	"github.com/ambibench/ambibench/tasks"
)

// newTestEnv builds robot 1's view of episode 0 of a cell.
func newTestEnv(t *testing.T, family, perturbation string, limit int) (*robotEnv, *episodeState) {
	t.Helper()
	ep, err := MakeEpisode(1, family, perturbation, 0)
	if err != nil {
		t.Fatal(err)
	}
	w, err := tabletop.New(ep.Objects, tabletop.Config{TwoRobots: ep.TwoRobots, PartialView: ep.PartialView})
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
