package tabletop

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/models"
	"github.com/ambibench/ambibench/bench"
	"github.com/ambibench/ambibench/scenes"
)

// TestCountPerceptionErrors counts hand-made graphs against a hand-made
// table: a red block left of a blue bowl that holds a green block, a
// yellow block the robot observes, and a gray block it does not.
func TestCountPerceptionErrors(t *testing.T) {
	t.Parallel()
	objs := []scenes.Object{
		scenes.NewBlock("red block 1", "red", -0.2, -0.5),
		scenes.NewBowl("blue bowl 1", "blue", 0.1, -0.5),
		scenes.NewBlock("green block 1", "green", 0.1, -0.5),
		scenes.NewBlock("yellow block 1", "yellow", 0.15, -0.25),
		scenes.NewBlock("gray block 1", "gray", -0.4, -0.3),
	}
	observed := []int{0, 1, 2, 3}
	// Each node stands over the object its id names, but "pink block 1"
	// (over nothing) and "red block 2" (a second node over the red block).
	over := map[string]int{"red block 1": 0, "blue bowl 1": 1, "green block 1": 2, "yellow block 1": 3, "red block 2": 0}
	under := func(n scenes.Node) (int, bool) { i, ok := over[n.ID]; return i, ok }
	nodes := func(ids ...string) []scenes.Node {
		out := make([]scenes.Node, len(ids))
		for i, id := range ids {
			out[i] = scenes.Node{ID: id}
		}
		return out
	}
	all := nodes("red block 1", "blue bowl 1", "green block 1", "yellow block 1")
	edge := func(src, rel, dst string) scenes.Edge { return scenes.Edge{Source: src, Target: dst, Relation: rel} }
	tests := []struct {
		why  string
		g    *scenes.Graph
		want perceptionErrors
	}{
		{"every observed object under a node, every relation true: nothing wrong",
			scenes.NewGraph(all, []scenes.Edge{
				edge("red block 1", "to the left of", "blue bowl 1"),
				edge("blue bowl 1", "right_of", "red block 1"),
				edge("green block 1", "in", "blue bowl 1"),
				edge("blue bowl 1", "contains", "green block 1"),
				edge("yellow block 1", "behind", "blue bowl 1"),
				edge("green block 1", "is right of", "red block 1"),
			}), perceptionErrors{}},
		{"the gray block is not observed: no node for it is no miss",
			&scenes.Graph{Nodes: all}, perceptionErrors{}},
		{"a node over nothing is a phantom",
			&scenes.Graph{Nodes: append(nodes("pink block 1"), all...)}, perceptionErrors{phantoms: 1}},
		{"an observed object under no node is missed",
			&scenes.Graph{Nodes: nodes("red block 1", "blue bowl 1", "green block 1")}, perceptionErrors{missed: 1}},
		{"two nodes over one object: neither a phantom nor a miss",
			&scenes.Graph{Nodes: append(nodes("red block 2"), all...)}, perceptionErrors{}},
		{"right of, where the block is left of the bowl, is wrong",
			scenes.NewGraph(all, []scenes.Edge{edge("red block 1", "right of", "blue bowl 1")}), perceptionErrors{wrong: 1}},
		{"next to, of a block in a bowl, is wrong: the table holds inside_of there and nothing else",
			scenes.NewGraph(all, []scenes.Edge{edge("green block 1", "next to", "blue bowl 1")}), perceptionErrors{wrong: 1}},
		{"behind, of two objects side by side, is wrong: only the direction along the larger offset holds",
			scenes.NewGraph(all, []scenes.Edge{edge("red block 1", "behind", "blue bowl 1")}), perceptionErrors{wrong: 1}},
		{"a reversed name the wrong way round is wrong: the block does not contain the bowl",
			scenes.NewGraph(all, []scenes.Edge{edge("green block 1", "contains", "blue bowl 1")}), perceptionErrors{wrong: 1}},
		{"a relation between two nodes over one object is wrong",
			scenes.NewGraph(append(nodes("red block 2"), all...), []scenes.Edge{edge("red block 1", "near", "red block 2")}), perceptionErrors{wrong: 1}},
		{"a name the mapping cannot read is unmapped, not wrong",
			scenes.NewGraph(all, []scenes.Edge{edge("red block 1", "same color as", "blue bowl 1")}), perceptionErrors{unmapped: 1}},
		{"an edge to a phantom is not judged; its name is still read",
			scenes.NewGraph(append(nodes("pink block 1"), all...), []scenes.Edge{
				edge("pink block 1", "right of", "red block 1"),
				edge("red block 1", "glows at", "pink block 1"),
			}), perceptionErrors{phantoms: 1, unmapped: 1}},
		{"all four at once",
			scenes.NewGraph(nodes("pink block 1", "red block 1", "blue bowl 1", "green block 1"), []scenes.Edge{
				edge("red block 1", "left of", "blue bowl 1"),
				edge("red block 1", "above", "blue bowl 1"),
				edge("green block 1", "over", "blue bowl 1"),
			}), perceptionErrors{phantoms: 1, missed: 1, wrong: 1, unmapped: 1}},
	}
	for _, tt := range tests {
		if got := countPerceptionErrors(tt.g, objs, observed, under); got != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.why, got, tt.want)
		}
	}
}

// TestReportPerceptionFromTheTable reports graphs made from the table
// itself to robot 1's Env of a pick_place/none episode: through the
// image, each node where the camera shows its object; through the
// detector, each node by its id. Both are perfect; a node moved onto
// empty table, or renamed, is a phantom and leaves its object missed.
func TestReportPerceptionFromTheTable(t *testing.T) {
	t.Parallel()
	e, st := newTestEnv(t, "pick_place", "none", 40)
	truth := scenes.BuildGraph(st.world.Observe(e.robot))
	img, seen, err := e.View()
	if err != nil {
		t.Fatal(err)
	}
	at := map[string][2]int{}
	for _, s := range seen {
		at[s.ID] = llm.BoxCentre(llm.NormBox(s.Box, img.Width, img.Height))
	}
	report := func(g *scenes.Graph, at map[string][2]int) perceptionErrors {
		t.Helper()
		st.misperceived = perceptionErrors{}
		if err := e.ReportPerception(g, at); err != nil {
			t.Fatal(err)
		}
		return st.misperceived
	}
	if got := report(truth, at); got != (perceptionErrors{}) {
		t.Errorf("through the image, each node at its object's box: %+v, want nothing wrong", got)
	}
	if got := report(truth, nil); got != (perceptionErrors{}) {
		t.Errorf("through the detector, the table's own graph: %+v, want nothing wrong", got)
	}
	moved := truth.Nodes[0].ID
	off := map[string][2]int{}
	for id, p := range at {
		off[id] = p
	}
	off[moved] = [2]int{5, 5} // the image's top left corner: beyond the table
	if got := report(truth, off); got.phantoms != 1 || got.missed != 1 {
		t.Errorf("through the image, %s seen where nothing is: %+v, want one phantom and one miss", moved, got)
	}
	renamed := scenes.NewGraph(append([]scenes.Node{{ID: "purple block 9"}}, truth.Nodes[1:]...), truth.EdgeList())
	if got := report(renamed, nil); got.phantoms != 1 || got.missed != 1 || got.wrong != 0 || got.unmapped != 0 {
		t.Errorf("through the detector, %s renamed: %+v, want one phantom and one miss, its edges unjudged", moved, got)
	}
	// Only the lead robot's own perception counts.
	e.responding = true
	if got := report(renamed, nil); got != (perceptionErrors{}) {
		t.Errorf("a report while answering the partner: %+v, want it ignored", got)
	}
	e.responding = false
	e.robot = scenes.Robot2
	if got := report(renamed, nil); got != (perceptionErrors{}) {
		t.Errorf("a report from robot 2: %+v, want it ignored", got)
	}
}

// TestSGCoTRecordsItsPerceptionErrors plays SG-CoT through the camera
// image: on sim:perfect it and its ablations perceive pick_place/none
// without an error of any kind; a model that misses and imagines objects half the time
// records phantoms and misses. Records of an agent that builds no graph
// of its own hold none.
func TestSGCoTRecordsItsPerceptionErrors(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip(singlePath)
	}
	play := func(spec, agent string) []perceivedRecord {
		return playPerceiving(t, spec, agent, agents.PerceptionImage, "none")
	}
	for _, agent := range []string{"sgcot", "sgcot-full-graph", "sgcot-single-retrieval", "sgcot-no-edges"} {
		for _, r := range play("sim:perfect", agent) {
			if r.errs != (perceptionErrors{}) || r.err != "" {
				t.Errorf("%s on sim:perfect, episode %d: %+v (error %q), want no perception error", agent, r.episode, r.errs, r.err)
			}
		}
	}
	var sum perceptionErrors
	for _, r := range play("sim:miss=0.5,phantom=0.5,colorswap=0.3", "sgcot") {
		sum.phantoms += r.errs.phantoms
		sum.missed += r.errs.missed
		sum.wrong += r.errs.wrong
		sum.unmapped += r.errs.unmapped
	}
	t.Logf("seeing with a weak eye: %+v over 10 episodes", sum)
	if sum.phantoms == 0 || sum.missed == 0 {
		t.Errorf("sgcot seeing with miss 0.5, phantom 0.5, colorswap 0.3: %+v over 10 episodes, want phantoms and misses", sum)
	}
	if sum.unmapped != 0 {
		t.Errorf("sim writes the table's relation names, all mapped; got %d unmapped", sum.unmapped)
	}
	for _, r := range play("sim:miss=0.5,phantom=0.5,colorswap=0.3", "direct") {
		if r.errs != (perceptionErrors{}) {
			t.Errorf("direct, episode %d: %+v, want none: it builds no graph of its own", r.episode, r.errs)
		}
	}
}

// TestSGCoTRecordsItsPerceptionErrorsWithTheDetector plays SG-CoT on
// the detector's list: on sim:perfect without noise it records nothing;
// under scene_graph_noise the detector's renamed nodes are phantoms
// (their objects missed) and the relations the noise imagines are wrong.
func TestSGCoTRecordsItsPerceptionErrorsWithTheDetector(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip(singlePath)
	}
	for _, r := range playPerceiving(t, "sim:perfect", "sgcot", agents.PerceptionDetector, "none") {
		if r.errs != (perceptionErrors{}) || r.err != "" {
			t.Errorf("sgcot on sim:perfect, episode %d: %+v (error %q), want no perception error", r.episode, r.errs, r.err)
		}
	}
	var sum perceptionErrors
	for _, r := range playPerceiving(t, "sim:perfect", "sgcot", agents.PerceptionDetector, "scene_graph_noise") {
		sum.phantoms += r.errs.phantoms
		sum.missed += r.errs.missed
		sum.wrong += r.errs.wrong
		sum.unmapped += r.errs.unmapped
	}
	t.Logf("the detector under scene_graph_noise: %+v over 10 episodes", sum)
	if sum.phantoms == 0 || sum.phantoms != sum.missed || sum.wrong == 0 || sum.unmapped != 0 {
		t.Errorf("sgcot on the detector under scene_graph_noise: %+v over 10 episodes, want as many phantoms as misses (renames), wrong relations, none unmapped", sum)
	}
}

// playPerceiving plays 10 episodes of pick_place under a perturbation
// with one agent, model and perception, and reads each record's
// perception errors.
func playPerceiving(t *testing.T, spec, agent, perception, perturbation string) []perceivedRecord {
	t.Helper()
	m, err := models.Open(spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	track := New()
	track.Perception = perception
	opts := bench.Options{Track: track, Seed: 1, Model: m, Agents: []string{agent},
		Families: []string{"pick_place"}, Perturbations: []string{perturbation}, Episodes: 10, Concurrency: 2}
	recs, err := bench.Run(context.Background(), opts, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 10 {
		t.Fatalf("%s on %s, %s/%s: %d records, want 10", agent, spec, perception, perturbation, len(recs))
	}
	out := make([]perceivedRecord, len(recs))
	for i, r := range recs {
		out[i] = perceivedRecord{r.Episode, r.Error, perceptionErrors{r.PhantomNodes, r.MissedObjects, r.WrongRelations, r.UnmappedRelations}}
	}
	return out
}

// perceivedRecord is what the tests above read of a record.
type perceivedRecord struct {
	episode int
	err     string
	errs    perceptionErrors
}

// countPerceptionErrors counts as the plain reading of its doc comment
// does (plainPerceptionErrors: a map lookup, a name read and a pair
// derived for every edge) on noisy graphs of crowded tables, with
// renamed relations, reversed ones, names it cannot read, phantoms, nodes
// over one object, two nodes of one id over two objects, and edges whose
// ends are no node, or were renamed after the edges were given.
func TestCountPerceptionErrorsIsThePlainCount(t *testing.T) {
	t.Parallel()
	names := map[string][]string{
		scenes.RelLeftOf: {"left_of", "to the left of"}, scenes.RelNear: {"near", "next to", "floats by"},
		scenes.RelInsideOf: {"inside_of", "in"}, scenes.RelAbove: {"behind", "above"},
	}
	for i := range 12 {
		ep, err := MakeEpisodeSized(1, "pick_place", "none", i, 12+3*i)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(i), 9))
		g, _ := scenes.BuildGraph(ep.Objects).WithNoise(scenes.GraphNoise{Drop: 0.1, Spurious: 0.2, Seed: uint64(i)})
		es := g.EdgeList()
		for k := range es {
			e := &es[k]
			if alt := names[e.Relation]; len(alt) > 0 && rng.IntN(2) == 0 {
				e.Relation = alt[rng.IntN(len(alt))]
			}
			if rng.IntN(20) == 0 {
				e.Source, e.Target, e.Relation = e.Target, e.Source, "contains"
			}
			switch rng.IntN(50) {
			case 0:
				e.Target = "pink block 9"
			case 1:
				e.Source = "another" // a node only once the edges are given
			}
		}
		over := map[string]int{}
		for j, o := range ep.Objects {
			if rng.IntN(10) > 0 {
				over[o.ID] = j
			}
		}
		g.SetEdges(es)
		g.RenameEdgeEnds(map[string]string{ep.Objects[1].ID: "renamed block 1"})
		g.Nodes = append(g.Nodes, scenes.Node{ID: "pink block 9"}, scenes.Node{ID: "another"},
			scenes.Node{ID: ep.Objects[2].ID, Attributes: map[string]string{"twin": "yes"}})
		over["another"] = 0
		under := func(n scenes.Node) (int, bool) {
			if n.Attributes["twin"] != "" {
				return 3, true // the same id as node 2, over another object
			}
			j, ok := over[n.ID]
			return j, ok
		}
		var observed []int
		for j := range ep.Objects {
			if j%7 != 3 {
				observed = append(observed, j)
			}
		}
		got := countPerceptionErrors(g, ep.Objects, observed, under)
		want := plainPerceptionErrors(g, ep.Objects, observed, under)
		if got != want {
			t.Errorf("table %d: %+v, want %+v", i, got, want)
		}
		if want.wrong == 0 || want.unmapped == 0 || want.phantoms == 0 {
			t.Errorf("table %d: %+v: the case tests less than it should", i, want)
		}
	}
}

// plainPerceptionErrors is countPerceptionErrors as its doc comment says
// it, edge by edge.
func plainPerceptionErrors(g *scenes.Graph, objs []scenes.Object, observed []int, under func(scenes.Node) (int, bool)) perceptionErrors {
	var p perceptionErrors
	at := map[string]int{}
	found := make([]bool, len(objs))
	for _, n := range g.Nodes {
		i, ok := under(n)
		if !ok {
			p.phantoms++
			continue
		}
		at[n.ID], found[i] = i, true
	}
	for _, i := range observed {
		if !found[i] {
			p.missed++
		}
	}
	for _, e := range g.Edges() {
		r, ok := scenes.ReadRelation(e.Relation)
		if !ok {
			p.unmapped++
			continue
		}
		src, ok1 := at[e.Source]
		dst, ok2 := at[e.Target]
		if !ok1 || !ok2 {
			continue
		}
		if r.Reversed {
			src, dst = dst, src
		}
		holds := false
		if src != dst {
			for _, t := range scenes.AppendPairEdges(nil, &objs[src], &objs[dst]) {
				holds = holds || (t.Source == objs[src].ID && t.Relation == r.Relation)
			}
		}
		if !holds {
			p.wrong++
		}
	}
	return p
}
