package household

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/housework"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/simmodel"
	"github.com/ambibench/ambibench/sim/textworld"
	"github.com/ambibench/ambibench/tasks/alfworld"
)

// BenchmarkDecision times one decision of the ReAct player with some
// steps already taken: from the world's answer to the last command to the
// next command reaching the world (the context, the prompt, the model's
// reply). A decision that replayed the trajectory would cost more at step
// 45 than at step 5; one per op, both columns should read the same.
//
// The first steps are a wanderer's (go to, open and close every
// receptacle of a real game in turn, which never wins), played with the
// timer stopped; the timed decision is the wanderer's (model=script: the
// player's own cost) or the simulated model's, reading that trajectory
// (model=sim).
//
// Each op plays its first steps untimed, so a fixed count keeps the run
// short:
//
//	go test -run '^$' -bench Decision -benchtime 2000x -count 10 ./agents/household/ | go tool benchstat -col /step -
//
// The timed decision is the one a run makes at that step, and only that.
// Two things of the untimed steps would otherwise reach into it, neither
// of which a run has at a decision:
//
//   - Their garbage. The untimed steps allocate 45 prompts of the whole
//     trial at step 45 (about 190 KB an op), which a run spreads over 45
//     decisions; collected during the benchmark, it set the collector
//     going once in 13 ops at step 45 (once in 55 at step 5), and its work
//     (assists, a stack regrown, the other core's marking) landed in the
//     timed decisions, which read from 1.05 to 1.62 times step 5's. So an
//     op whose allocation could start a collection runs one first, untimed
//     (heapWatch): no collection then starts during an op, and the op's
//     untimed steps warm the allocator again before its decision. (A
//     collection at every op, or just before the timed decision, leaves
//     the decision to refill the allocator's caches, which a run's
//     decisions seldom do: at step 5, with five steps to warm them, that
//     read 1.5 times the figure without.)
//   - The simulated model's memo of folded trials. A run's call at step N
//     starts from the state its own call at step N−1 kept, over the very
//     strings it passes again, and folds one turn. Replaying one trial op
//     after op, the timed call found instead the state an earlier op kept
//     for all N turns, whose turns are equal but other strings: it
//     compared them byte by byte and folded none. So each op starts with
//     the memo forgotten (housework.ForgetFolds), and with model=sim the
//     model also makes decision N−1, untimed, the wanderer's command
//     going to the world as before: the memo then holds what a run's
//     would.
func BenchmarkDecision(b *testing.B) {
	g, err := alfworld.EvalGames()[0].Build("")
	if err != nil {
		b.Fatal(err)
	}
	for _, model := range []string{"script", "sim"} {
		for _, step := range []int{5, 45} {
			b.Run(fmt.Sprintf("model=%s/step=%d", model, step), func(b *testing.B) {
				var last llm.Model
				if model == "sim" {
					last = simmodel.New(simmodel.Default, "sim")
				}
				benchDecision(b, g, step, last)
			})
		}
	}
}

// BenchmarkModelCall times the simulated model alone at the decision
// BenchmarkDecision times: one call with the request the player sends
// after the wanderer's first steps (step 5 or 45), built once. Its prompt
// is 3.6 KB at step 5 and 5.6 KB at step 45, its context (as JSON) 0.9
// and 4.3 KB. What the model reads grows with the step; what the call
// costs should not, but for the planner's own reading of the trial
// (housework.Decide), so both columns should read nearly the same:
//
//	go test -run '^$' -bench ModelCall -count 6 ./agents/household/ | go tool benchstat -col /step -
func BenchmarkModelCall(b *testing.B) {
	g, err := alfworld.EvalGames()[0].Build("")
	if err != nil {
		b.Fatal(err)
	}
	m := simmodel.New(simmodel.Default, "sim")
	for _, step := range []int{5, 45} {
		w, err := textworld.New(g.House, textworld.Options{})
		if err != nil {
			b.Fatal(err)
		}
		req := &keep{}
		env := &timedHouse{b: b, game: g, world: w, opening: g.Intro(w.Reset()), step: step}
		if err := (&react{model: &wanderer{cmds: wander(w.Admissible()), calls: step, last: req}}).Run(context.Background(), env); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("step=%d", step), func(b *testing.B) {
			b.ReportAllocs()
			ctx := context.Background()
			for b.Loop() {
				if _, err := m.Generate(ctx, req.req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// keep is a model that keeps the request it is sent and looks around.
type keep struct{ req llm.Request }

func (k *keep) Name() string { return "keep" }

func (k *keep) Generate(_ context.Context, req llm.Request) (llm.Reply, error) {
	k.req = req
	args, _ := json.Marshal(agents.ActArgs{Command: "look"})
	return llm.Reply{ToolCalls: []llm.ToolCall{{ID: "c0", Name: agents.ToolAct, Args: args}}, FinishReason: llm.FinishToolCalls}, nil
}

// benchDecision plays b.N trials that end at decision step+1 and times
// that decision only; last, when not nil, makes it, and decision step
// before it, untimed (see BenchmarkDecision).
func benchDecision(b *testing.B, g *alfworld.Game, step int, last llm.Model) {
	b.ReportAllocs()
	b.StopTimer()
	b.ResetTimer()
	heap := newHeapWatch()
	for range b.N {
		// The memo forgotten, and a collection first if this op could
		// start one (see BenchmarkDecision).
		heap.collectAhead()
		housework.ForgetFolds()
		w, err := textworld.New(g.House, textworld.Options{})
		if err != nil {
			b.Fatal(err)
		}
		env := &timedHouse{b: b, game: g, world: w, opening: g.Intro(w.Reset()), step: step}
		model := &wanderer{cmds: wander(w.Admissible()), calls: step, last: last, prime: last != nil}
		if err := (&react{model: model}).Run(context.Background(), env); err != nil {
			b.Fatal(err)
		}
		if env.steps != step+1 {
			b.Fatalf("the trial ended after %d calls; want %d", env.steps, step+1)
		}
	}
}

// heapWatch tells when the heap nears the point where the collector
// starts: past half the way from the heap live after the last collection
// to the goal of the next, which the pacer's trigger lies well beyond on
// a heap this small. An op at step 45 allocates about 190 KB, a twentieth
// of that way.
type heapWatch struct{ samples []metrics.Sample }

func newHeapWatch() *heapWatch {
	return &heapWatch{samples: []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/gc/heap/goal:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
	}}
}

// collectAhead collects the heap if it is past the half way.
func (h *heapWatch) collectAhead() {
	metrics.Read(h.samples)
	live, goal, now := h.samples[0].Value.Uint64(), h.samples[1].Value.Uint64(), h.samples[2].Value.Uint64()
	if goal > live && now > live+(goal-live)/2 {
		runtime.GC()
	}
}

// wander is the wanderer's round: go to, open and close each receptacle.
func wander(admissible []string) []string {
	var out []string
	for _, c := range admissible {
		if r, ok := strings.CutPrefix(c, "go to "); ok {
			out = append(out, c, "open "+r, "close "+r)
		}
	}
	return out
}

// wanderer sends its round's commands in turn; after calls of them it
// hands the decision to last, if set. With prime, last also makes the
// decision before, whose reply is dropped (the wanderer's command goes).
type wanderer struct {
	cmds  []string
	n     int
	calls int
	last  llm.Model
	prime bool
}

func (m *wanderer) Name() string { return "wanderer" }

func (m *wanderer) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	if m.n >= m.calls && m.last != nil {
		return m.last.Generate(ctx, req)
	}
	if m.prime && m.n == m.calls-1 {
		if _, err := m.last.Generate(ctx, req); err != nil {
			return llm.Reply{}, err
		}
	}
	args, _ := json.Marshal(agents.ActArgs{Command: m.cmds[m.n%len(m.cmds)]})
	m.n++
	return llm.Reply{ToolCalls: []llm.ToolCall{{ID: "c0", Name: agents.ToolAct, Args: args}}, FinishReason: llm.FinishToolCalls}, nil
}

// timedHouse is a household Env over the real world that starts the
// benchmark's timer when it answers call step and stops it, ending the
// trial, at the call after.
type timedHouse struct {
	b       *testing.B
	game    *alfworld.Game
	world   *textworld.Game
	opening string
	step    int
	steps   int
}

func (e *timedHouse) Instruction() string  { return e.game.Instruction }
func (e *timedHouse) Robot() string        { return "agent" }
func (e *timedHouse) Partner() string      { return "" }
func (e *timedHouse) Tools() []agents.Tool { return agents.HouseholdTools() }
func (e *timedHouse) Track() string        { return agents.TrackHousehold }
func (e *timedHouse) Opening() string      { return e.opening }

func (e *timedHouse) Call(_ context.Context, c agents.ToolCall) (agents.Result, error) {
	e.steps++
	if e.steps > e.step {
		e.b.StopTimer()
		return agents.Result{Text: "The trial is over.", Ended: true}, nil
	}
	var a agents.ActArgs
	if c.Name != agents.ToolAct || json.Unmarshal(c.Args, &a) != nil {
		return agents.Result{}, fmt.Errorf("call %d: %s %s; want an act", e.steps, c.Name, c.Args)
	}
	r := agents.Result{Text: e.world.Step(a.Command)}
	if e.steps == e.step {
		e.b.StartTimer()
	}
	return r, nil
}
