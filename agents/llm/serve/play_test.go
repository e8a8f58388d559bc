package serve_test

import (
	"context"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/openai"
	"github.com/ambibench/ambibench/agents/llm/serve"
	"github.com/ambibench/ambibench/scenes"
)

// playSeer keeps what the Go context of each Generate said for a
// simulated model, and the call context it was given.
type playSeer struct {
	mu     sync.Mutex
	repeat int
	noise  scenes.GraphNoise
	cc     *llm.CallContext
}

func (p *playSeer) Name() string { return "sim:play" }

func (p *playSeer) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.repeat, p.noise, p.cc = llm.RepeatFrom(ctx), llm.PerceptionNoiseFrom(ctx), req.Context
	return llm.Reply{Text: "ok", FinishReason: llm.FinishStop}, nil
}

// What the harness states in Go's context for a simulated model (the
// repeat, the perception noise) reaches the model behind serve-sim as it
// would in process: in the context of its Generate, and not in the call
// context, which arrives as the workflow wrote it. Rows: each part alone,
// both, and neither (nothing added to the body).
func TestPlayCrossesTheWire(t *testing.T) {
	seer := &playSeer{}
	srv := httptest.NewServer(serve.Handler(seer))
	defer srv.Close()
	m, err := openai.New("sim:play", openai.Options{BaseURL: srv.URL + "/v1", SendContext: true})
	if err != nil {
		t.Fatal(err)
	}
	noise := scenes.GraphNoise{Drop: 0.2, Spurious: 0.05, Flip: 0.1, Seed: 42}
	for _, tc := range []struct {
		why    string
		repeat int
		noise  scenes.GraphNoise
	}{
		{"a run without repeats or noise: nothing to carry", 0, scenes.GraphNoise{}},
		{"a repeat of a --repeats run draws its own stream", 2, scenes.GraphNoise{}},
		{"a scene_graph_noise cell: the perceiver errs", 0, noise},
		{"both", 3, noise},
	} {
		ctx := context.Background()
		if tc.repeat > 0 {
			ctx = llm.WithRepeat(ctx, tc.repeat)
		}
		ctx = llm.WithPerceptionNoise(ctx, tc.noise)
		cc := &llm.CallContext{Role: llm.CallPerceive, Track: "tabletop", Robot: "robot1", Format: llm.FormatJSON}
		if _, err := m.Generate(ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "Perceive."}}, Context: cc}); err != nil {
			t.Fatalf("%s: %v", tc.why, err)
		}
		if seer.repeat != tc.repeat || seer.noise != tc.noise {
			t.Errorf("%s: the model saw repeat %d, noise %+v; want %d, %+v", tc.why, seer.repeat, seer.noise, tc.repeat, tc.noise)
		}
		if seer.cc == nil || seer.cc.Play != nil || seer.cc.Role != llm.CallPerceive {
			t.Errorf("%s: the call context arrived as %+v, want the workflow's, without play", tc.why, seer.cc)
		}
	}
}
