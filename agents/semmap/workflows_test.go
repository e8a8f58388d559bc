package semmap

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/internal/agenttest"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/simmodel"
	"github.com/ambibench/ambibench/scenes"
)

// The queries cover the three query types and two empty truths, one of
// which a looser reading would fill (no bicycle, but seats).
var semmapTestQueries = []string{
	"Is there a microwave close to an oven?",
	"I am tired, where can I sit?",
	"Tell me something I can sit on that is not a couch.",
	"Is there a toilet?",
	"What can I sit on that is near a bicycle?",
}

var semmapWorkflows = []struct {
	name  string
	calls int // model calls per episode with sim:perfect
}{
	{"baseline", 1},
	{"self-reflect", 5},
	{"self-reflect-no-memory", 5},
	{"multi-agent-reflect", 5},
	{"ensemble", 7},
}

// countingModel records every request it passes on.
type countingModel struct {
	llm.Model
	blocks []llm.CallContext
}

func (m *countingModel) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	b, err := agenttest.ContextOf(req)
	if err != nil {
		return llm.Reply{}, err
	}
	m.blocks = append(m.blocks, b)
	return m.Model.Generate(ctx, req)
}

func runSemmap(t *testing.T, name string, model llm.Model, env *agenttest.SemmapEnv) error {
	t.Helper()
	info, ok := agents.Lookup(name)
	if !ok {
		t.Fatalf("%s is not registered", name)
	}
	if !slices.Equal(info.Tracks, []string{agents.TrackSemmap}) || !info.UsesModel {
		t.Fatalf("%s: tracks %v, uses a model %v; want a semmap workflow", name, info.Tracks, info.UsesModel)
	}
	a, err := info.New(agents.Config{Model: model, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	return a.Run(context.Background(), env)
}

// With sim:perfect every workflow answers what the resolver reads, in
// both input modes, with the expected number of model calls and without
// an error.
func TestSemmapWorkflowsPerfect(t *testing.T) {
	m := agenttest.SemmapMap()
	for _, w := range semmapWorkflows {
		for _, mode := range []string{agents.ModeCertainty, agents.ModeUncertainty} {
			for _, q := range semmapTestQueries {
				model := &countingModel{Model: simmodel.New(simmodel.Perfect, "sim:perfect")}
				env := agenttest.NewSemmapEnv(q, m, mode)
				if err := runSemmap(t, w.name, model, env); err != nil {
					t.Fatalf("%s %s %q: %v", w.name, mode, q, err)
				}
				req, _ := scenes.ParseObjectQuery(q)
				want := scenes.ResolveObjects(m, req)
				if mode == agents.ModeUncertainty {
					want = scenes.ResolveObjectsWith(m, req, scenes.ResolveOptions{MinP: 0.3})
				}
				if got := env.Answer(t); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
					t.Errorf("%s %s %q: answered %v, the resolver %v", w.name, mode, q, got, want)
				}
				if len(model.blocks) != w.calls {
					t.Errorf("%s %s %q: %d model calls, want %d", w.name, mode, q, len(model.blocks), w.calls)
				}
				for _, b := range model.blocks {
					if b.Track != agents.TrackSemmap || b.Mode != mode || b.SemanticMap == nil || b.Instruction != q {
						t.Fatalf("%s: block %+v lacks the track, mode, map or query", w.name, b)
					}
				}
			}
		}
	}
}

// The queries' expected answers, so that a resolver change that breaks
// the test map shows here and not as a puzzling workflow failure.
func TestSemmapTestQueries(t *testing.T) {
	want := [][]string{{"obj4"}, {"obj1", "obj2"}, {"obj1"}, nil, nil}
	for i, q := range semmapTestQueries {
		req, _ := scenes.ParseObjectQuery(q)
		got := scenes.ResolveObjects(agenttest.SemmapMap(), req)
		if !slices.Equal(got, want[i]) {
			t.Errorf("%q: resolver %v, want %v", q, got, want[i])
		}
	}
}

// A model that always puts an id not in the map first: the baseline
// answers it, a reflection names it and the refinement drops it.
func TestSemmapReflectionFixesHallucination(t *testing.T) {
	p, err := simmodel.ParseProfile("hallucinate=1")
	if err != nil {
		t.Fatal(err)
	}
	m := agenttest.SemmapMap()
	q := semmapTestQueries[1]
	req, _ := scenes.ParseObjectQuery(q)
	want := scenes.ResolveObjects(m, req)
	base := agenttest.NewSemmapEnv(q, m, "")
	if err := runSemmap(t, "baseline", simmodel.New(p, "sim:hallucinate=1"), base); err != nil {
		t.Fatal(err)
	}
	if got := base.Answer(t); len(got) != len(want)+1 || !slices.Equal(got[1:], want) {
		t.Fatalf("baseline answered %v; want a phantom id before %v", got, want)
	}
	for _, name := range []string{"self-reflect", "self-reflect-no-memory", "multi-agent-reflect"} {
		env := agenttest.NewSemmapEnv(q, m, "")
		if err := runSemmap(t, name, simmodel.New(p, "sim:hallucinate=1"), env); err != nil {
			t.Fatal(err)
		}
		if got := env.Answer(t); !slices.Equal(got, want) {
			t.Errorf("%s answered %v, want %v", name, got, want)
		}
	}
}

// replyModel answers every call with text from a function of its block.
type replyModel struct {
	reply func(b llm.CallContext) string
	n     int
}

func (m *replyModel) Name() string { return "scripted" }
func (m *replyModel) Generate(_ context.Context, req llm.Request) (llm.Reply, error) {
	m.n++
	b, err := agenttest.ContextOf(req)
	if err != nil {
		return llm.Reply{}, err
	}
	return llm.Reply{Text: m.reply(b), FinishReason: llm.FinishStop}, nil
}

const goodReply = "Sure.\n```json\n{\"inferred_query\": \"seat\", \"query_achievable\": true, \"relevant_objects\": [\"obj1\"], \"explanation\": \"a chair\"}\n```"

// A final reply that cannot be read ends the episode with no answer at
// all (not the empty list, which would be a hit where the truth is empty)
// and is reported. The scored answer of a reflection workflow is its last
// refinement: an unreadable earlier refinement leaves the answer for the
// next round to revise, an unreadable last one leaves no answer. want nil
// means no answer was given.
func TestSemmapUnreadableReplies(t *testing.T) {
	// readableRefinements answers the plan readably, the refinements of
	// the rounds numbered in ok (from 1) readably, round n's with
	// obj<n+1>, and every other refinement in prose, at every attempt.
	// (With memory, a refinement's context holds one critique per round
	// so far.)
	readableRefinements := func(ok ...int) func(b llm.CallContext) string {
		return func(b llm.CallContext) string {
			switch b.Role {
			case llm.CallPlan:
				return goodReply
			case llm.CallRefine:
				round := len(b.Feedback)
				if slices.Contains(ok, round) {
					return fmt.Sprintf(`{"relevant_objects": ["obj%d"]}`, round+1)
				}
				return "- keep the answer"
			}
			return "Looks fine."
		}
	}
	for _, tc := range []struct {
		why, agent string
		reply      func(b llm.CallContext) string
		want       []string
		errHas     string
	}{
		{"the baseline's only reply is prose", "baseline",
			func(llm.CallContext) string { return "I would pick the chair, obj1." }, nil, "plan reply"},
		{"every ensemble sample is prose", "ensemble",
			func(llm.CallContext) string { return "obj1 I guess" }, nil, "no sampled answer could be read"},
		{"the chooser names no letter", "ensemble",
			func(b llm.CallContext) string {
				if b.Role == llm.CallChoose {
					return "They are all fine."
				}
				return goodReply
			}, nil, "choose reply"},
		{"every refinement is prose: the first answer is not answered in the last one's place", "self-reflect",
			readableRefinements(), nil, "last refinement"},
		{"the last refinement is prose, the first was read: its answer is not answered either", "self-reflect",
			readableRefinements(1), nil, "last refinement"},
		{"the first refinement is prose, the last is read: the last is answered and the loss reported", "self-reflect",
			readableRefinements(2), []string{"obj3"}, "refinement replies that could not be read"},
		{"the same for multi-agent reflection", "multi-agent-reflect",
			readableRefinements(1), nil, "last refinement"},
		{"relevant_objects is not a list", "baseline",
			func(llm.CallContext) string { return `{"relevant_objects": "obj1"}` }, nil, `field "relevant_objects"`},
	} {
		env := agenttest.NewSemmapEnv("Where can I sit?", agenttest.SemmapMap(), "")
		err := runSemmap(t, tc.agent, &replyModel{reply: tc.reply}, env)
		if err == nil || !strings.Contains(err.Error(), tc.errHas) {
			t.Errorf("%s: error %v, want one containing %q", tc.why, err, tc.errHas)
		}
		if tc.want == nil {
			if len(env.Answered()) != 0 {
				t.Errorf("%s: answered %v, want no answer", tc.why, env.Answered())
			}
			continue
		}
		if got := env.Answer(t); !slices.Equal(got, tc.want) {
			t.Errorf("%s: answered %v, want %v", tc.why, got, tc.want)
		}
	}
}

// The chooser's letter picks the answer, unchanged: samples that differ
// by their sample number, and the chooser taking the third.
func TestSemmapEnsembleAnswersTheChosen(t *testing.T) {
	samples := 0
	model := &replyModel{reply: func(b llm.CallContext) string {
		if b.Role == llm.CallChoose {
			if len(b.Answers) != 4 || !strings.Contains(b.Answers[2], "obj3") {
				return fmt.Sprintf("bad options %q", b.Answers)
			}
			return "Response C"
		}
		samples++
		return fmt.Sprintf(`{"relevant_objects": ["obj%d"], "query_achievable": true}`, samples)
	}}
	env := agenttest.NewSemmapEnv("Where can I sit?", agenttest.SemmapMap(), "")
	a := NewEnsemble(model, EnsembleOptions{N: 4, Temperature: 0.8})
	if err := a.Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	if got := env.Answer(t); !slices.Equal(got, []string{"obj3"}) {
		t.Errorf("answered %v, want the third sample's [obj3]", got)
	}
	if d := a.(agents.Drafter).Drafts(); len(d) != 5 {
		t.Errorf("drafts %v: want the 4 samples and the choice", d)
	}
}

// Memory decides what the reflect and refine prompts of the second round
// see (eq. 5–6 against 3–4); the stop condition ends the rounds once a
// refinement changes nothing.
func TestSemmapMemoryAndStop(t *testing.T) {
	type shape struct{ answers, feedback int }
	for _, tc := range []struct {
		why   string
		opts  ReflectOptions
		want  []shape // per call after the plan
		round int
	}{
		{"memory: round 2 recalls round 1", ReflectOptions{Iterations: 2, Memory: true},
			[]shape{{1, 0}, {1, 1}, {2, 1}, {2, 2}}, 2},
		{"no memory: only the last answer and critique", ReflectOptions{Iterations: 2},
			[]shape{{1, 0}, {1, 1}, {1, 0}, {1, 1}}, 2},
		{"stop: the first refinement changed nothing", ReflectOptions{Iterations: 3, Memory: true, StopWhenStable: true},
			[]shape{{1, 0}, {1, 1}}, 1},
	} {
		model := &countingModel{Model: simmodel.New(simmodel.Perfect, "sim:perfect")}
		env := agenttest.NewSemmapEnv(semmapTestQueries[1], agenttest.SemmapMap(), "")
		a := NewSelfReflect(model, tc.opts)
		if err := a.Run(context.Background(), env); err != nil {
			t.Fatal(err)
		}
		var got []shape
		for _, b := range model.blocks[1:] {
			got = append(got, shape{len(b.Answers), len(b.Feedback)})
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: blocks hold %v answers/critiques, want %v", tc.why, got, tc.want)
		}
		if r := a.(agents.Reflective).Reflections(); len(r) != tc.round {
			t.Errorf("%s: %d reflections, want %d", tc.why, len(r), tc.round)
		}
		if d := a.(agents.Drafter).Drafts(); len(d) != tc.round+1 {
			t.Errorf("%s: %d drafts, want %d", tc.why, len(d), tc.round+1)
		}
	}
}

// On another track the semmap workflows stop at once, naming the track,
// and call no model.
func TestSemmapWorkflowsRefuseTabletop(t *testing.T) {
	for _, w := range semmapWorkflows {
		model := &replyModel{reply: func(llm.CallContext) string { return goodReply }}
		info, _ := agents.Lookup(w.name)
		a, err := info.New(agents.Config{Model: model})
		if err != nil {
			t.Fatal(err)
		}
		err = a.Run(context.Background(), agenttest.TabletopEnv{})
		if err == nil || !strings.Contains(err.Error(), "plays the semmap track only") || model.n != 0 {
			t.Errorf("%s: error %v after %d model calls", w.name, err, model.n)
		}
	}
}

// A model error is returned, not answered over: the harness decides.
func TestSemmapModelError(t *testing.T) {
	env := agenttest.NewSemmapEnv("Where can I sit?", agenttest.SemmapMap(), "")
	err := runSemmap(t, "baseline", errModel{}, env)
	if err == nil || !strings.Contains(err.Error(), "baseline: plan: model broken") || len(env.Answered()) != 0 {
		t.Errorf("error %v, answers %v", err, env.Answered())
	}
}

type errModel struct{}

func (errModel) Name() string { return "broken" }
func (errModel) Generate(context.Context, llm.Request) (llm.Reply, error) {
	return llm.Reply{}, errors.New("model broken")
}

// nearEnv is an episode of a dataset that defines near as centres within
// near metres, as bench's semmap episodes of the built-in dataset are.
type nearEnv struct {
	*agenttest.SemmapEnv
	near float64
}

func (e nearEnv) SemmapNear() (float64, bool) { return e.near, e.near > 0 }

// semmapGolden is the data of a semmap prompt for the golden files: the
// test map in a mode, of a dataset whose near is the built-in dataset's
// (within 1.5 m), and for the later steps two rounds of answers and
// critiques (memory) or only the last (no memory).
func semmapGolden(role, mode string, examples ExampleCounts, memory bool) semmapPrompt {
	m := agenttest.SemmapMap()
	s := &semmapSession{env: nearEnv{agenttest.NewSemmapEnv("Tell me something I can sit on that is not a couch.", m, mode), 1.5},
		m: m, mode: mode, mapText: mapInput(m, mode)}
	y0 := FormatAnswer(agents.AnswerArgs{InferredQuery: "A seat that is not a couch.", QueryAchievable: true, RelevantObjects: []string{"obj2", "obj1"}, Explanation: "Seats."})
	y1 := FormatAnswer(agents.AnswerArgs{InferredQuery: "A seat that is not a couch.", QueryAchievable: true, RelevantObjects: []string{"obj1"}, Explanation: "obj1 is a chair."})
	fb0 := "Correctness: 4/10.\nSuggestions:\n- remove obj2: the request excludes it."
	fb1 := "Correctness: 9/10.\nSuggestions:\n- keep the answer"
	p := s.prompt(role, examples)
	var answers, feedback []string
	switch role {
	case llm.CallReflect:
		answers, feedback = []string{y0, y1}, []string{fb0}
		p.Answer = y1
	case llm.CallRefine:
		answers, feedback = []string{y0, y1}, []string{fb0, fb1}
		p.Answer, p.Feedback = y1, fb1
	case llm.CallChoose:
		answers = []string{y0, y1}
		p.Responses = []semmapResponse{{"A", y0}, {"B", y1}}
	}
	if memory {
		p.History = rounds(answers, feedback)
	}
	return p
}
