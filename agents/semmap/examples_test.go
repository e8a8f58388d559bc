package semmap

import (
	"strings"

	"context"
	"github.com/ambibench/ambibench/scenes"
	"regexp"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/internal/agenttest"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/simmodel"
)

// promptModel records each call's role and prompt text.
type promptModel struct {
	llm.Model
	roles, texts []string
}

func (m *promptModel) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	m.roles = append(m.roles, req.Context.Role)
	m.texts = append(m.texts, req.Messages[len(req.Messages)-1].Text)
	return m.Model.Generate(ctx, req)
}

// exampleHeading is the line that opens each in-context example.
var exampleHeading = regexp.MustCompile(`(?m)^Example \d+\. Map:$`)

// countsEnv is an Env that sets the run's counts, as the track's
// --examples does.
type countsEnv struct {
	*agenttest.SemmapEnv
	c ExampleCounts
}

func (e countsEnv) SemmapExamples() (int, int, int, bool) {
	return e.c.Plan, e.c.Reflect, e.c.Refine, true
}

// Every workflow's prompts carry paper 000's example counts (§5.1): 3 in
// the planning prompt, 7 in reflection, 3 in refinement, none in the
// chooser's; and a run that sets other counts gets those instead.
func TestPaperExampleCounts(t *testing.T) {
	if want := (ExampleCounts{3, 7, 3}); PaperExamples != want {
		t.Fatalf("PaperExamples = %+v, the paper's counts are %+v", PaperExamples, want)
	}
	for _, c := range []struct {
		why    string
		set    *ExampleCounts
		counts map[string]int
	}{
		{"the default is the paper's", nil, map[string]int{llm.CallPlan: 3, llm.CallReflect: 7, llm.CallRefine: 3, llm.CallChoose: 0}},
		{"--examples 2,0,0, the project's earlier protocol", &ExampleCounts{2, 0, 0}, map[string]int{llm.CallPlan: 2, llm.CallReflect: 0, llm.CallRefine: 0, llm.CallChoose: 0}},
		{"counts past the examples written are capped, not an error", &ExampleCounts{9, 9, 9}, map[string]int{llm.CallPlan: 3, llm.CallReflect: 7, llm.CallRefine: 3, llm.CallChoose: 0}},
	} {
		for _, w := range semmapWorkflows {
			model := &promptModel{Model: simmodel.New(simmodel.Perfect, "sim:perfect")}
			var env agents.Env = agenttest.NewSemmapEnv("Tell me something I can sit on that is not a couch.", agenttest.SemmapMap(), agents.ModeUncertainty)
			if c.set != nil {
				env = countsEnv{env.(*agenttest.SemmapEnv), *c.set}
			}
			info, _ := agents.Lookup(w.name)
			a, err := info.New(agents.Config{Model: model, Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			if err := a.Run(context.Background(), env); err != nil {
				t.Fatalf("%s: %s: %v", c.why, w.name, err)
			}
			seen := map[string]bool{}
			for i, role := range model.roles {
				seen[role] = true
				if got := len(exampleHeading.FindAllString(model.texts[i], -1)); got != c.counts[role] {
					t.Errorf("%s: %s: call %d (%s) shows %d examples, want %d", c.why, w.name, i+1, role, got, c.counts[role])
				}
			}
			if len(seen) < 2 && w.name != "baseline" {
				t.Errorf("%s: %s made calls of roles %v only", c.why, w.name, model.roles)
			}
		}
	}
}

// ctxModel records each call's context too.
type ctxModel struct {
	promptModel
	maps []*scenes.SemanticMap
}

func (m *ctxModel) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	m.maps = append(m.maps, req.Context.SemanticMap)
	return m.promptModel.Generate(ctx, req)
}

// The model gets the map as JSON in both modes, as paper 000's code gives
// it: the prompt ends in the map's RenderJSON, which is a Voxeland file
// the map's reader reads; the context the simulated model reads is that
// file read back (in certainty, each object its one class, certain).
func TestPromptMapIsJSON(t *testing.T) {
	m := agenttest.SemmapMap()
	for _, mode := range []string{agents.ModeCertainty, agents.ModeUncertainty} {
		model := &ctxModel{promptModel: promptModel{Model: simmodel.New(simmodel.Perfect, "sim:perfect")}}
		if err := runSemmap(t, "self-reflect", model, agenttest.NewSemmapEnv("Where can I sit?", m, mode)); err != nil {
			t.Fatal(err)
		}
		shown := m.RenderJSON(mode)
		back, err := scenes.DecodeVoxeland(strings.NewReader(shown), "x.json", scenes.VoxelandOptions{KeepUnknown: true})
		if err != nil {
			t.Fatalf("%s: the map the prompt shows is not a Voxeland file: %v", mode, err)
		}
		for i, text := range model.texts {
			if !strings.HasSuffix(strings.TrimRight(text, "\n"), "Semantic map "+m.Name+":\n"+shown) {
				t.Errorf("%s: call %d (%s) does not end in the map's JSON", mode, i+1, model.roles[i])
			}
			// The context is the JSON's numbers: its map, written back,
			// is the very JSON the prompt shows.
			if got := model.maps[i].RenderJSON(mode); got != shown {
				t.Errorf("%s: call %d (%s): the context's map writes\n%s\nthe prompt shows\n%s", mode, i+1, model.roles[i], got, shown)
			}
			if model.maps[i].Instances[0].Evidence != 0 {
				t.Errorf("%s: call %d: the context holds evidence the prompt does not show", mode, i+1)
			}
		}
		for _, in := range back.Instances {
			if mode == agents.ModeCertainty && len(in.Classes) > 1 {
				t.Errorf("certainty shows %s with %d classes, want its most probable alone", in.ID, len(in.Classes))
			}
		}
	}
}
