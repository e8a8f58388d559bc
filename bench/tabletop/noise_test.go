package tabletop

import (
	"context"
	"encoding/json"
	"github.com/ambibench/ambibench/bench"
	"reflect"
	"slices"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/perturb"
	"github.com/ambibench/ambibench/results/stats"
	"github.com/ambibench/ambibench/scenes"
	"github.com/ambibench/ambibench/tasks"
)

func TestNoisePerturbationsAreMarked(t *testing.T) {
	t.Parallel()
	for _, name := range perturb.Names() {
		noisy := name == "scene_graph_noise" || name == "execution_noise"
		if perturb.IsNoise(name) != noisy {
			t.Errorf("IsNoise(%q) = %v, want %v", name, !noisy, noisy)
		}
		if slices.Contains(perturb.Clear(), name) == noisy {
			t.Errorf("Clear() %v and %q disagree", perturb.Clear(), name)
		}
	}
	if perturb.IsNoise("fog") {
		t.Error("an unknown perturbation counts as noise")
	}
}

// noisyEnv builds robot 1's view of an episode, with the episode's noise.
func noisyEnv(t *testing.T, family, perturbation string, index int) (*robotEnv, *episodeState) {
	t.Helper()
	ep, err := MakeEpisode(1, family, perturbation, index)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWorld(ep)
	if err != nil {
		t.Fatal(err)
	}
	st := &episodeState{ep: ep, world: w, limit: 100, toolCalls: map[string]int{}}
	partner := ""
	if ep.TwoRobots {
		partner = scenes.Robot2
	}
	return &robotEnv{st: st, robot: scenes.Robot1, partner: partner, instruction: ep.Instruction(), tools: agents.Tools(partner != "")}, st
}

// Under scene_graph_noise the oracle, which reads the truth, is perfect:
// the table and the goal are untouched, and acting on true ids works.
func TestOracleIgnoresSceneGraphNoise(t *testing.T) {
	t.Parallel()
	opts := bench.Options{Track: New(), Seed: 1, Agents: []string{"oracle"}, Perturbations: []string{"scene_graph_noise"}, Episodes: 50, Concurrency: 2}
	recs, err := bench.Run(context.Background(), opts, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Label != tasks.LabelNone || !r.Success || !r.ADA || r.Error != "" {
			t.Errorf("%s episode %d: label %q success %v ADA %v error %q", r.Family, r.Episode, r.Label, r.Success, r.ADA, r.Error)
		}
	}
}

// What a robot sees under scene_graph_noise is not the table, and it is the
// same on every call: get_scene_graph twice, and retrieve_node and
// retrieve_edge over the same graph.
func TestNoisyGraphDiffersAndIsStable(t *testing.T) {
	t.Parallel()
	differs := 0
	const episodes = 20
	for i := range episodes {
		e, st := noisyEnv(t, "pick_place", "scene_graph_noise", i)
		truth := scenes.BuildGraph(st.world.Observe(scenes.Robot1))
		first := callTool(t, e, agents.ToolGetSceneGraph, `{}`)
		second := callTool(t, e, agents.ToolGetSceneGraph, `{}`)
		if first.Text != second.Text || !reflect.DeepEqual(first.Graph, second.Graph) {
			t.Fatalf("episode %d: two get_scene_graph calls differ", i)
		}
		if !reflect.DeepEqual(first.Graph, truth) {
			differs++
		}
		var ids []string
		for _, n := range first.Graph.Nodes {
			ids = append(ids, n.ID)
		}
		if got := callTool(t, e, agents.ToolRetrieveNode, `{}`); !slices.Equal(got.Items, ids) {
			t.Errorf("episode %d: retrieve_node lists %v, the graph %v", i, got.Items, ids)
		}
		for _, id := range ids {
			args, _ := json.Marshal(map[string]string{"source": id})
			got := callTool(t, e, agents.ToolRetrieveEdge, string(args))
			if want := first.Graph.RetrieveEdge(scenes.EdgeQuery{Source: id}); !slices.Equal(got.Edges, want) {
				t.Errorf("episode %d: retrieve_edge from %s gives %v, the graph %v", i, id, got.Edges, want)
			}
		}
	}
	t.Logf("scene_graph_noise: the graph differs from the table in %d of %d pick_place episodes", differs, episodes)
	if differs < episodes/2 {
		t.Errorf("the noisy graph differs from the true one in %d of %d episodes; want most", differs, episodes)
	}
}

// A robot that misreads a block's colour names it by what it sees; picking
// it by that name moves the block itself, and a refusal speaks of it by
// that name too.
func TestPickingAMisreadBlock(t *testing.T) {
	t.Parallel()
	for i := range 200 {
		e, st := noisyEnv(t, "pick_place", "scene_graph_noise", i)
		seen, aliases := e.perceive()
		var block, bowl string
		for _, n := range seen.Nodes {
			truth, renamed := aliases[n.ID]
			if o, _ := st.ep.Object(truth); renamed && o.Class == scenes.ClassBlock && block == "" {
				block = n.ID
			}
			if _, renamed := aliases[n.ID]; !renamed && n.Attributes[scenes.AttrType] == scenes.ClassBowl {
				bowl = n.ID
			}
		}
		if block == "" || bowl == "" {
			continue
		}
		if r := callTool(t, e, agents.ToolPickAndPlace, `{"pick":"`+block+`","place":"`+block+`"}`); r.Error == "" || !containsWord(r.Error, block) {
			t.Errorf("episode %d: placing %s on itself: refusal %q does not name it as seen", i, block, r.Error)
		}
		r := callTool(t, e, agents.ToolPickAndPlace, `{"pick":"`+block+`","place":"`+bowl+`"}`)
		if r.Error != "" {
			t.Fatalf("episode %d: pick_and_place(%s, %s): %s", i, block, bowl, r.Error)
		}
		cond := tasks.Goal{Conds: []tasks.Cond{{Object: aliases[block], Target: bowl}}}
		if ok, why := cond.Holds(st.world.Objects()); !ok {
			t.Errorf("episode %d: picking %s (truly %s): %s", i, block, aliases[block], why)
		}
		return
	}
	t.Fatal("no episode in 200 misreads a block's colour")
}

func containsWord(s, id string) bool { return replaceID(s, id, "\x00") != s }

// playPlan plays an episode's reference plan on its world, checking each
// move and trying it again, up to retries times, until it holds (retries
// 0: open loop). It returns the moves made, those that missed, and whether
// the goal holds at the end.
func playPlan(t *testing.T, ep *tasks.Episode, retries int) (moves, missed int, holds bool) {
	t.Helper()
	w, err := NewWorld(ep)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range ep.Plan() {
		if s.Action != "pick_and_place" {
			continue
		}
		for try := 0; try <= retries; try++ {
			moves++
			if _, err := w.PickAndPlace(s.Robot, s.Pick, s.Place); err != nil {
				missed++ // a slip left the block where this robot cannot reach it
				break
			}
			if ok, _ := (tasks.Goal{Conds: []tasks.Cond{{Object: s.Pick, Target: s.Place}}}).Holds(w.Objects()); ok {
				break
			}
			missed++
		}
	}
	holds, _ = ep.Goal().Holds(w.Objects())
	return moves, missed, holds
}

// Under execution_noise an open-loop plan misses noticeably often and the
// goal check sees it; checking each move and trying it again recovers
// nearly every episode. The same episode replays the same way.
func TestExecutionNoiseMissesAndRetriesRecover(t *testing.T) {
	t.Parallel()
	var moves, missed, openOK, closedOK, n int
	for _, f := range tasks.Names() {
		for i := range 50 {
			ep, err := MakeEpisode(1, f, "execution_noise", i)
			if err != nil {
				t.Fatal(err)
			}
			if ep.Label != tasks.LabelNone || ep.Physics.SlipRate == 0 || ep.Physics.Seed == 0 {
				t.Fatalf("%s episode %d: label %q, physics %+v", f, i, ep.Label, ep.Physics)
			}
			m, x, ok := playPlan(t, ep, 0)
			if m2, x2, ok2 := playPlan(t, ep, 0); m2 != m || x2 != x || ok2 != ok {
				t.Fatalf("%s episode %d replays differently", f, i)
			}
			moves, missed, n = moves+m, missed+x, n+1
			if ok {
				openOK++
			}
			if _, _, ok := playPlan(t, ep, 3); ok {
				closedOK++
			}
		}
	}
	rate := float64(missed) / float64(moves)
	t.Logf("execution_noise: %d of %d open-loop moves missed (%.1f%%); goal held in %d of %d episodes open-loop, %d with up to 3 retries per move",
		missed, moves, 100*rate, openOK, n, closedOK)
	if rate < 0.08 || rate > 0.3 {
		t.Errorf("open-loop miss rate %.3f, want between 0.08 and 0.30", rate)
	}
	if float64(closedOK) < 0.97*float64(n) {
		t.Errorf("retrying recovered %d of %d episodes, want at least 97%%", closedOK, n)
	}
}

// The oracle, open-loop, loses episodes to execution noise, and its
// records say so: the goal check fails, the label stays none.
func TestOracleUnderExecutionNoise(t *testing.T) {
	t.Parallel()
	opts := bench.Options{Track: New(), Seed: 1, Agents: []string{"oracle"}, Perturbations: []string{"execution_noise"}, Episodes: 50, Concurrency: 2}
	recs, err := bench.Run(context.Background(), opts, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := stats.Aggregate(recs, stats.AggregateOptions{})[0]
	t.Logf("oracle on execution_noise: SR %.2f (n=%d)", c.SR.Value(), c.N)
	if sr := c.SR.Value(); sr < 0.6 || sr > 0.95 {
		t.Errorf("oracle SR %.2f under execution noise, want between 0.6 and 0.95", sr)
	}
	for _, r := range recs {
		if r.Label != tasks.LabelNone || r.Asked {
			t.Errorf("%s episode %d: label %q, asked %v", r.Family, r.Episode, r.Label, r.Asked)
		}
	}
}
