package tabletop

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// The detector's boxes, in whole millimetres, give the table's own graph:
// the graph built from detect_objects' result, through the episode's
// noise, is the graph get_scene_graph shows. This is what makes the
// simulated model's perceive call (which builds just that) return the
// table's geometric graph. Rows: the perturbations that change what a
// robot sees (two-robot views, noise).
func TestDetectionsGiveTheTablesGraph(t *testing.T) {
	for _, tc := range []struct{ family, perturbation, why string }{
		{"pick_place", "none", "a plain table"},
		{"spatial", "none", "relations matter to the task"},
		{"long_horizon", "none", "stacks and bowls full of blocks"},
		{"handover", "none", "two robots: workspaces"},
		{"pick_place", "scene_graph_noise", "the noise acts on the rebuilt graph as on the table's"},
		{"pick_place", "partial_observability", "a view that misses objects"},
	} {
		mismatched := 0
		for i := range 100 {
			e, st := noisyEnv(t, tc.family, tc.perturbation, i)
			r, err := e.Call(context.Background(), agents.ToolCall{Name: agents.ToolDetectObjects})
			if err != nil || r.Error != "" {
				t.Fatalf("%s/%s %d: detect_objects: %v %s", tc.family, tc.perturbation, i, err, r.Error)
			}
			var ds []llm.Detection
			if err := json.Unmarshal([]byte(r.Text), &ds); err != nil {
				t.Fatal(err)
			}
			objs := make([]scenes.Object, len(ds))
			for j, d := range ds {
				objs[j] = d.Object()
			}
			got := scenes.BuildGraph(objs)
			if !st.ep.ViewNoise.IsZero() {
				got, _ = got.WithNoise(st.ep.ViewNoise)
			}
			if want := e.graph(); !reflect.DeepEqual(got, want) {
				mismatched++
				if mismatched <= 3 {
					t.Errorf("%s/%s episode %d (%s): the detections give another graph than the table's", tc.family, tc.perturbation, i, tc.why)
				}
			}
			if st.toolCalls[agents.ToolDetectObjects] != 1 || st.steps != 1 {
				t.Errorf("detect_objects counted %d times in %d steps, want once in one", st.toolCalls[agents.ToolDetectObjects], st.steps)
			}
		}
		if mismatched > 0 {
			t.Logf("%s/%s: %d of 100 episodes differ", tc.family, tc.perturbation, mismatched)
		}
	}
}
