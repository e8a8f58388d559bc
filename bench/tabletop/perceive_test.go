package tabletop

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/simmodel"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/scenes"
)

// The detector's boxes, at a hundredth of a millimetre, give the table's
// own graph: on a table without noise, the graph built from
// detect_objects' result is the graph get_scene_graph shows. This is
// what makes the simulated model's perceive call (which builds just that)
// return the table's geometric graph. Under scene_graph_noise the
// detector reads the nodes as the table's graph does (the same misread
// attributes and renamed ids: the node part acts in the detector for
// every workflow); the relations are another perceiver's draws. Rows: the
// perturbations that change what a robot sees (two-robot views, noise).
func TestDetectionsGiveTheTablesGraph(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ family, perturbation, why string }{
		{"pick_place", "none", "a plain table"},
		{"spatial", "none", "relations matter to the task"},
		{"long_horizon", "none", "stacks and bowls full of blocks"},
		{"handover", "none", "two robots: workspaces"},
		{"pick_place", "scene_graph_noise", "the detector misreads the nodes as the table's graph does"},
		{"spatial", "scene_graph_noise", "misreads where relations matter"},
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
			got, want := scenes.BuildGraph(objs), e.graph()
			if !st.ep.ViewNoise.IsZero() {
				// Only the nodes: the relations of the detector's scene
				// are drawn by whoever builds them.
				got, want = &scenes.Graph{Nodes: got.Nodes}, &scenes.Graph{Nodes: want.Nodes}
			}
			if !reflect.DeepEqual(got, want) {
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

// In a two-robot sgcot episode both robots perceive (one detect_objects
// each) and the partner answers by retrieval, not from a graph in its
// prompt: under partial observability, the record shows robot 2's
// detection and its reply (in either case of what robot 1 cannot see),
// and direct's partner none of it.
func TestSGCoTPartnerPerceivesAndRetrieves(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		agent      string
		detections int
	}{
		{"sgcot", 2},
		{"direct", 0},
	} {
		track := New()
		track.Perception = agents.PerceptionDetector // the detector's path: detect_objects, as the table counts it
		opts := bench.Options{Track: track, Seed: 1, Agents: []string{tc.agent}, Perturbations: []string{"partial_observability"},
			Families: []string{"pick_place"}, Episodes: 20, Model: simmodel.New(simmodel.Perfect, "sim:perfect")}
		recs, err := bench.Run(context.Background(), opts, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		answered := 0
		for _, r := range recs {
			if len(r.Messages) == 0 {
				continue
			}
			answered++
			if got := r.ToolCalls[agents.ToolDetectObjects]; got != tc.detections {
				t.Errorf("%s episode %d: %d detect_objects calls, want %d (one per robot for sgcot)", tc.agent, r.Episode, got, tc.detections)
			}
			// The partner brings the block the lead cannot see, or takes it
			// on to the destination the lead cannot see.
			want := map[string]string{"object": "I put ", "destination": "I took "}[r.OutOfView]
			if reply := r.Messages[len(r.Messages)-1].Reply; want == "" || !strings.HasPrefix(reply, want) {
				t.Errorf("%s episode %d (%s out of view): the partner replied %q, want %q…", tc.agent, r.Episode, r.OutOfView, reply, want)
			}
		}
		if answered == 0 {
			t.Errorf("%s: no episode asked the partner", tc.agent)
		}
	}
}
