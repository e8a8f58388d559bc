package semmap

import (
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/internal/agenttest"
	"github.com/ambibench/ambibench/agents/llm/simmodel"
)

// A prompt says what near means only when the episode's dataset defines
// it, and then as the dataset does: the built-in dataset's 1.5 m is not
// every dataset's rule.
func TestPromptsStateNearOnlyAsTheDatasetDoes(t *testing.T) {
	for _, tc := range []struct {
		why  string
		near float64 // 0: the Env does not say
		want string  // "" for no sentence at all
	}{
		{"a dataset that does not say", 0, ""},
		{"the built-in dataset's rule", 1.5, "within 1.5 m of each other are near"},
		{"another dataset's rule", 0.75, "within 0.75 m of each other are near"},
	} {
		for _, w := range semmapWorkflows {
			model := &promptModel{Model: simmodel.New(simmodel.Perfect, "sim:perfect")}
			var env agents.Env = agenttest.NewSemmapEnv("Where can I sit?", agenttest.SemmapMap(), agents.ModeUncertainty)
			if tc.near > 0 {
				env = nearEnv{env.(*agenttest.SemmapEnv), tc.near}
			}
			info, _ := agents.Lookup(w.name)
			a, err := info.New(agents.Config{Model: model})
			if err != nil {
				t.Fatal(err)
			}
			if err := a.Run(t.Context(), env); err != nil {
				t.Fatalf("%s: %s: %v", tc.why, w.name, err)
			}
			for i, text := range model.texts {
				said := strings.Contains(text, " are near\neach other") || strings.Contains(text, "are near each other")
				switch {
				case tc.want == "" && said:
					t.Errorf("%s: %s: call %d (%s) says what near means", tc.why, w.name, i+1, model.roles[i])
				case tc.want != "" && !strings.Contains(strings.ReplaceAll(text, "\n", " "), tc.want):
					t.Errorf("%s: %s: call %d (%s) does not say %q", tc.why, w.name, i+1, model.roles[i], tc.want)
				}
			}
		}
	}
}
