package tabletop

import (
	"context"
	"flag"
	"io"
	"regexp"
	"sync"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/simmodel"
	"github.com/ambibench/ambibench/bench"
)

// askFirst is the ordering --ask-robot-first adds to a two-robot prompt,
// in each workflow's wording (sgcot's, and the others').
var askFirst = regexp.MustCompile(`before telling the person anything is absent|absent before\s+asking`)

// TestAskRobotFirstFlag: --ask-robot-first is off unless given, and
// run.json records it only when it is on, so that a run with it is never
// resumed into a directory of runs without it (nor the other way round).
func TestAskRobotFirstFlag(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		on   bool
		want string // the setting ask_robot_first
	}{
		{nil, false, ""},
		{[]string{"--ask-robot-first"}, true, "true"},
		{[]string{"--ask-robot-first=false"}, false, ""},
	} {
		track := New()
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		track.Flags(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if err := track.Prepare(io.Discard); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if track.AskRobotFirst != tc.on {
			t.Errorf("%v: AskRobotFirst %v, want %v", tc.args, track.AskRobotFirst, tc.on)
		}
		s, err := track.Settings()
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := s["ask_robot_first"]; v != tc.want || ok != (tc.want != "") {
			t.Errorf("%v: setting ask_robot_first = %q (present %v), want %q", tc.args, v, ok, tc.want)
		}
	}
}

// promptLog is a model that keeps every system prompt it is sent and
// answers as the model it wraps.
type promptLog struct {
	llm.Model
	mu      sync.Mutex
	systems []string
}

func (m *promptLog) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	m.mu.Lock()
	m.systems = append(m.systems, req.System)
	m.mu.Unlock()
	return m.Model.Generate(ctx, req)
}

// TestAskRobotFirstReachesThePrompts: in two-robot episodes each workflow
// whose prompt tells the robot to ask the other robot says the ordering
// only under --ask-robot-first; without it the prompts still say to ask
// the other robot and use the shared workspace, as the SG-CoT paper does.
func TestAskRobotFirstReachesThePrompts(t *testing.T) {
	t.Parallel()
	for _, agent := range []string{"direct", "sgcot", "sgcot-full-graph", "inner-monologue", "progprompt"} {
		for _, on := range []bool{false, true} {
			track := New()
			track.Perception = agents.PerceptionDetector // no image calls: quicker, and the same prompts' text
			track.AskRobotFirst = on
			m := &promptLog{Model: simmodel.New(simmodel.Perfect, "sim:perfect")}
			opts := bench.Options{Track: track, Seed: 1, Agents: []string{agent}, Perturbations: []string{"partial_observability"},
				Families: []string{"pick_place"}, Episodes: 2, Model: m}
			if _, err := bench.Run(context.Background(), opts, nil, nil); err != nil {
				t.Fatal(err)
			}
			ordered, shared := 0, 0
			for _, s := range m.systems {
				if askFirst.MatchString(s) {
					ordered++
				}
				if regexp.MustCompile(`ask_robot[\s\S]*shared workspace`).MatchString(s) {
					shared++
				}
			}
			if shared == 0 {
				t.Errorf("%s (--ask-robot-first=%v): no system prompt of %d says to ask the other robot for the shared workspace", agent, on, len(m.systems))
			}
			if on && ordered == 0 {
				t.Errorf("%s with --ask-robot-first: no system prompt of %d says to ask the other robot first", agent, len(m.systems))
			}
			if !on && ordered > 0 {
				t.Errorf("%s without --ask-robot-first: %d system prompts say to ask the other robot first", agent, ordered)
			}
		}
	}
}
