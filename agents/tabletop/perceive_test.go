package tabletop

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/internal/agenttest"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/agents/llm/simmodel"
	"github.com/ambibench/ambibench/scenes"
)

// twoDetections is a table of a red block left of a blue bowl, far apart.
func twoDetections() []llm.Detection {
	return []llm.Detection{
		llm.DetectionOf(scenes.NewBlock("red block 1", "red", -0.3, 0.1)),
		llm.DetectionOf(scenes.NewBowl("blue bowl 1", "blue", 0.3, 0.1)),
	}
}

func TestPerceivePromptsGolden(t *testing.T) {
	ds := twoDetections()
	ds[1].Attributes[scenes.AttrWorkspace] = scenes.RegionRobot2
	p := perceivePrompt{Robot: "robot1", Objects: detectionLines(ds), Relations: strings.Join(scenes.Relations, ", "), Near: 200, Edges: true}
	nodes := p
	nodes.Edges = false
	ans := sgcotAnswerPrompt{promptData: promptData{Robot: "robot2", Partner: "robot1", Message: "Please put red block 1 in the shared workspace."},
		Objects: "red block 1, blue bowl 1", AttrKeys: "color, size, type, workspace", Relations: strings.Join(scenes.Relations, ", ")}
	ansNoEdges := ans
	ansNoEdges.Relations = ""
	for _, tc := range []struct {
		golden, template string
		data             any
	}{
		{"perceive.txt", "perceive.tmpl", p},
		{"perceive_nodes_only.txt", "perceive.tmpl", nodes},
		{"perceive_retry.txt", "perceive_retry.tmpl", struct{ Problem string }{`no JSON object in the reply "I see two objects."`}},
		{"sgcot_answer.txt", "sgcot_answer.tmpl", ans},
		{"sgcot_answer_no_edges.txt", "sgcot_answer.tmpl", ansNoEdges},
		{"sgcot_text_answer.txt", "sgcot_text_answer.tmpl", ans},
	} {
		got, err := render(tc.template, tc.data)
		if err != nil {
			t.Fatalf("%s: %v", tc.template, err)
		}
		agenttest.GoldenPrompt(t, tc.template, tc.golden, got, *update)
	}
}

func TestParsePerception(t *testing.T) {
	ds := append(twoDetections(), llm.DetectionOf(scenes.NewBlock("green block 1", "green", -0.3, 0.2)))
	node := func(id, color, class, size string) scenes.Node {
		return scenes.Node{ID: id, Attributes: map[string]string{"color": color, "type": class, "size": size}}
	}
	detected := []scenes.Node{node("red block 1", "red", "block", "small"), node("blue bowl 1", "blue", "bowl", "medium"), node("green block 1", "green", "block", "small")}
	edge := func(s, rel, d string) scenes.Edge { return scenes.Edge{Source: s, Target: d, Relation: rel} }
	for _, tc := range []struct {
		why, reply string
		edges      bool
		nodes      []scenes.Node
		want       []scenes.Edge
	}{
		{"the shape the prompt asks for", `{"edges":{"0":{"left_of":[1],"below":[2]}}}`, true, detected,
			[]scenes.Edge{edge("red block 1", "left_of", "blue bowl 1"), edge("red block 1", "below", "green block 1")}},
		{"edges come in graph order (source, target, relation) whatever the reply's order",
			`{"edges":{"2":{"near":[0],"above":[0]},"0":{"near":[2],"below":[2],"left_of":[1]}}}`, true, detected,
			[]scenes.Edge{edge("red block 1", "left_of", "blue bowl 1"), edge("red block 1", "below", "green block 1"), edge("red block 1", "near", "green block 1"),
				edge("green block 1", "above", "red block 1"), edge("green block 1", "near", "red block 1")}},
		{"a code fence and a sentence around the JSON", "Here it is:\n```json\n{\"edges\":{\"0\":{\"left_of\":[1]}}}\n```", true, detected,
			[]scenes.Edge{edge("red block 1", "left_of", "blue bowl 1")}},
		{"a repeated target counts once", `{"edges":{"0":{"left_of":[1,1]}}}`, true, detected, []scenes.Edge{edge("red block 1", "left_of", "blue bowl 1")}},
		{"a node read otherwise takes the reply's id and attributes, and its edges that id",
			`{"nodes":{"0":{"id":"pink block 1","attributes":{"color":"pink","type":"block","size":"small"}}},"edges":{"0":{"left_of":[1]}}}`, true,
			[]scenes.Node{node("pink block 1", "pink", "block", "small"), detected[1], detected[2]}, []scenes.Edge{edge("pink block 1", "left_of", "blue bowl 1")}},
		{"nodes only: the reply's relations are dropped", `{"nodes":{},"edges":{"0":{"left_of":[1]}}}`, false, detected, nil},
		{"an empty graph: no relations", `{}`, true, detected, nil},
	} {
		g, err := parsePerception(tc.reply, ds, tc.edges)
		if err != nil {
			t.Errorf("%s: %v", tc.why, err)
			continue
		}
		// Every row is plainly well formed: the fast path reads it.
		if _, ok := fastPerception(tc.reply, ds, tc.edges); !ok {
			t.Errorf("%s: the fast path left the reply to encoding/json", tc.why)
		}
		if !reflect.DeepEqual(g.Nodes, tc.nodes) {
			t.Errorf("%s: nodes %v, want %v", tc.why, g.Nodes, tc.nodes)
		}
		if !reflect.DeepEqual(g.EdgeList(), tc.want) {
			t.Errorf("%s: edges %v, want %v", tc.why, g.EdgeList(), tc.want)
		}
	}
}

func TestParsePerceptionErrors(t *testing.T) {
	ds := twoDetections()
	for _, tc := range []struct{ why, reply, want string }{
		{"prose only", "I see a red block and a blue bowl.", "no JSON object"},
		{"not JSON inside the braces", `{edges: 0 left_of 1}`, "malformed JSON"},
		{"a field the schema does not have", `{"relations":{}}`, `field "relations": not part of the graph`},
		{"edges not an object", `{"edges":[[0,"left_of",1]]}`, `field "edges"`},
		{"a source that is not an index", `{"edges":{"red block 1":{"left_of":[1]}}}`, `edges: key "red block 1" is not an object index (0 to 1)`},
		{"a source out of range", `{"edges":{"2":{"left_of":[1]}}}`, `edges: key "2" is not an object index`},
		{"a source written with a leading zero", `{"edges":{"01":{"left_of":[1]}}}`, `key "01" is not an object index`},
		{"an unknown relation", `{"edges":{"0":{"beside":[1]}}}`, `edges["0"]: unknown relation "beside"`},
		{"of several unknown relations the first in sorted order, so the retry prompt is the same on every run", `{"edges":{"0":{"under":[1],"beside":[1],"opposite":[1]}}}`, `edges["0"]: unknown relation "beside"`},
		{"a target out of range", `{"edges":{"0":{"left_of":[5]}}}`, `edges["0"]["left_of"]: target 5 is not an object index`},
		{"a target that is not a number", `{"edges":{"0":{"left_of":["blue bowl 1"]}}}`, `"blue bowl 1" is not an object index`},
		{"an object related to itself", `{"edges":{"0":{"near":[0]}}}`, "object 0 related to itself"},
		{"a node without an id", `{"nodes":{"1":{"attributes":{"color":"red"}}}}`, `nodes["1"]: field "id": required`},
		{"a node without attributes", `{"nodes":{"1":{"id":"red bowl 1"}}}`, `nodes["1"]: field "attributes": required`},
		{"two objects with one id", `{"nodes":{"1":{"id":"red block 1","attributes":{"color":"red","type":"block"}}}}`, `objects 0 and 1 are both "red block 1"`},
		{"two objects in one reply", `{"edges":{}} {"edges":{}}`, "more than one object"},
		{"a stray brace after the object", `{"edges":{}}}`, "more than one object"},
	} {
		_, err := parsePerception(tc.reply, ds, true)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.why, err, tc.want)
		}
		// Errors are encoding/json's path's to say.
		if _, ok := fastPerception(tc.reply, ds, true); ok {
			t.Errorf("%s: the fast path read a reply that is wrong", tc.why)
		}
	}
}

func FuzzParsePerception(f *testing.F) {
	for _, s := range []string{`{"edges":{"0":{"left_of":[1]}}}`, `{"nodes":{"0":{"id":"x","attributes":{"a":"b"}}}}`, "```json\n{}\n```", `{"edges":{"1":{"near":[0,0]}}}`, `}{`, ``,
		"{ \"nodes\" : { \"1\" : { \"id\" : \" y \" , \"attributes\" : { \"c\" : \"d\" } } } ,\n\t\"edges\" : { \"0\" : { \"above\" : [ 1 ] , \"near\" : [ ] } } }",
		`{"Edges":{"0":{"left_of":[1]}}}`, `{"edges":{"0":{"left_of":[1]},"0":{"near":[1]}}}`, `{"edges":{"0":{"left_of":[01]}}}`, `{"edges":{"0":{"left_of":[1.0]}}}`,
		`{"edges":{"x":{"beside":[-1]}}}`, `{"nodes":{"0":{"id":"a\u0062","attributes":{"a":"b"}}}}`, `{"edges":{}} }`} {
		f.Add(s, true)
		f.Add(s, false)
	}
	ds := twoDetections()
	f.Fuzz(func(t *testing.T, reply string, edges bool) {
		g, err := parsePerception(reply, ds, edges)
		// The fast path reads a reply only as encoding/json would.
		if fast, ok := fastPerception(reply, ds, edges); ok {
			slow, serr := perceptionJSON(reply, ds, edges, false)
			if serr != nil || !reflect.DeepEqual(fast, slow) {
				t.Fatalf("the fast path read %v, encoding/json %v (%v)", fast, slow, serr)
			}
			// The image's scene-graph call reads relation names as the
			// model's own; in the table's names it reads alike, and takes
			// the fast path too.
			open, oerr := perceptionJSON(reply, ds, edges, true)
			if oerr != nil || !reflect.DeepEqual(fast, open) {
				t.Fatalf("the fast path read %v, encoding/json with open names %v (%v)", fast, open, oerr)
			}
		}
		if err != nil {
			if g != nil {
				t.Fatalf("an error and a graph: %v", err)
			}
			return
		}
		if len(g.Nodes) != len(ds) {
			t.Fatalf("%d nodes from %d detections", len(g.Nodes), len(ds))
		}
		ids := map[string]bool{}
		for _, n := range g.Nodes {
			ids[n.ID] = true
		}
		for _, e := range g.Edges() {
			if !ids[e.Source] || !ids[e.Target] || e.Source == e.Target {
				t.Fatalf("edge %v is not between two of the nodes %v", e, g.Nodes)
			}
		}
		if !edges && g.NumEdges() > 0 {
			t.Fatalf("edges in a nodes-only graph: %v", g.EdgeList())
		}
	})
}

// What the simulated model writes at a perceive call reads back as the
// graph it meant: the geometric graph of the boxes, through the relation
// part of the episode's noise (dropped and imagined edges). The node part
// is the detector's: the model leaves the detections' ids and attributes
// as they are, whatever Flip says.
func TestSimPerceptionRoundTrips(t *testing.T) {
	for _, tc := range []struct {
		why   string
		noise scenes.GraphNoise
	}{
		{"a perfect perceiver", scenes.GraphNoise{}},
		{"a noisy one: edges dropped and imagined, Flip left to the detector", scenes.GraphNoise{Drop: 0.2, Spurious: 0.1, Flip: 0.2, Seed: 7}},
	} {
		for seed := range uint64(20) {
			objs, err := scenes.GenerateTabletop(rand.New(rand.NewPCG(seed, 1)), scenes.TabletopConfig{Blocks: 5, Bowls: 4, TwoRobots: seed%2 == 1})
			if err != nil {
				t.Fatal(err)
			}
			ds := make([]llm.Detection, len(objs))
			back := make([]scenes.Object, len(objs))
			for i, o := range objs {
				ds[i] = llm.DetectionOf(o)
				back[i] = ds[i].Object()
			}
			want := scenes.BuildGraph(back)
			if !tc.noise.IsZero() {
				want, _ = want.WithNoise(scenes.GraphNoise{Drop: tc.noise.Drop, Spurious: tc.noise.Spurious, Seed: tc.noise.Seed})
			}
			ctx := llm.WithPerceptionNoise(context.Background(), tc.noise)
			g, err := perceiveScene(ctx, simmodel.New(simmodel.Perfect, "sim:perfect"), &detectEnv{ds: ds}, true)
			if err != nil {
				t.Fatalf("%s, scene %d: %v", tc.why, seed, err)
			}
			canonical(want)
			if !reflect.DeepEqual(g, want) {
				t.Errorf("%s, scene %d: the perceived graph is not the geometric one:\n got %v\nwant %v", tc.why, seed, g, want)
			}
		}
	}
}

// canonical orders a graph's edges as a perceive reply gives them: by
// source, target, then relation in scenes.Relations' order. The table's
// graphs differ only where noise adds a relation to a pair: it follows
// the pair's true ones there.
func canonical(g *scenes.Graph) {
	at := map[string]int{}
	for i, n := range g.Nodes {
		at[n.ID] = i
	}
	es := g.EdgeList()
	slices.SortStableFunc(es, func(a, b scenes.Edge) int {
		return cmp.Or(cmp.Compare(at[a.Source], at[b.Source]), cmp.Compare(at[a.Target], at[b.Target]),
			cmp.Compare(slices.Index(scenes.Relations, a.Relation), slices.Index(scenes.Relations, b.Relation)))
	})
	g.SetEdges(es)
}

// detectEnv is a table that only detects: detect_objects gives ds, and it
// logs every call, with the calls the workflow answered itself (Tally).
type detectEnv struct {
	agenttest.TabletopEnv
	robot, partner string
	ds             []llm.Detection
	calls, tallied []string
}

func (e *detectEnv) Robot() string {
	if e.robot == "" {
		return scenes.Robot1
	}
	return e.robot
}
func (e *detectEnv) Partner() string      { return e.partner }
func (e *detectEnv) Tools() []agents.Tool { return agents.Tools(e.partner != "") }

func (e *detectEnv) Call(ctx context.Context, c agents.ToolCall) (agents.Result, error) {
	e.calls = append(e.calls, c.Name)
	switch c.Name {
	case agents.ToolDetectObjects:
		b, _ := json.Marshal(e.ds)
		return agents.Result{Text: string(b)}, nil
	case agents.ToolPickAndPlace:
		var a agents.PickAndPlaceArgs
		json.Unmarshal(c.Args, &a)
		return agents.Result{Text: fmt.Sprintf("%s put %s at %s.", e.Robot(), a.Pick, a.Place)}, nil
	case agents.ToolDone:
		return agents.Result{Text: "The episode is over.", Ended: true}, nil
	}
	return agents.Result{Text: "error: this table answers no " + c.Name}, nil
}

func (e *detectEnv) Tally(c agents.ToolCall) (agents.Result, bool) {
	e.tallied = append(e.tallied, c.Name)
	return agents.Result{}, true
}

// scripted replies with its texts and tool calls in turn, and keeps the
// requests.
type scripted struct {
	replies []llm.Reply
	reqs    []llm.Request
}

func (m *scripted) Name() string { return "scripted" }
func (m *scripted) Generate(_ context.Context, req llm.Request) (llm.Reply, error) {
	m.reqs = append(m.reqs, req)
	if len(m.reqs) > len(m.replies) {
		return llm.Reply{}, fmt.Errorf("scripted: no reply %d", len(m.reqs))
	}
	return m.replies[len(m.reqs)-1], nil
}

func call(id, name, args string) llm.ToolCall {
	return llm.ToolCall{ID: id, Name: name, Args: json.RawMessage(args)}
}

// A model that perceives wrongly plans on its error: the perceive reply
// says the red block is right of the blue bowl (it is left of it), and
// retrieve_edge returns that relation, from the perceived graph and not
// the table's; the retrieval is counted with the table, not answered by
// it. Every SG-CoT variant that retrieves does so.
func TestSGCoTRetrievesWhatItPerceived(t *testing.T) {
	wrong := `{"edges":{"0":{"right_of":[1]},"1":{"left_of":[0]}}}`
	for _, name := range []string{"sgcot", "sgcot-single-retrieval"} {
		m := &scripted{replies: []llm.Reply{
			{Text: wrong},
			{ToolCalls: []llm.ToolCall{call("c0", agents.ToolRetrieveEdge, `{"source":"red block 1","target":"blue bowl 1"}`)}},
			{ToolCalls: []llm.ToolCall{call("c1", agents.ToolDone, `{}`)}},
		}}
		a, err := agenttest.Workflow(t, name, m)
		if err != nil {
			t.Fatal(err)
		}
		env := &detectEnv{ds: twoDetections()}
		if err := a.Run(context.Background(), env); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if cc := m.reqs[0].Context; cc.Role != llm.CallPerceive || len(cc.Detections) != 2 {
			t.Fatalf("%s: the first call is %s with %d detections, want the perceive call over both objects", name, cc.Role, len(cc.Detections))
		}
		var got llm.Message
		for _, msg := range m.reqs[2].Messages {
			if msg.Role == llm.RoleTool && msg.Name == agents.ToolRetrieveEdge {
				got = msg
			}
		}
		if want := `["the red block 1 is right_of the blue bowl 1"]`; got.Text != want {
			t.Errorf("%s: retrieve_edge returned %q, want the perceived (wrong) edge %s", name, got.Text, want)
		}
		if want := []string{agents.ToolDetectObjects, agents.ToolDone}; !reflect.DeepEqual(env.calls, want) {
			t.Errorf("%s: the table answered %v, want %v (retrievals from the perceived graph)", name, env.calls, want)
		}
		if want := []string{agents.ToolRetrieveEdge}; !reflect.DeepEqual(env.tallied, want) {
			t.Errorf("%s: the table counted %v, want %v", name, env.tallied, want)
		}
	}
}

// A malformed perceive reply gets one more try, which is told what was
// wrong; a second failure fails the episode, naming the problem.
func TestPerceiveRetriesOnce(t *testing.T) {
	m := &scripted{replies: []llm.Reply{{Text: "two objects"}, {Text: `{"edges":{"0":{"left_of":[1]}}}`}}}
	g, err := perceiveScene(context.Background(), m, &detectEnv{ds: twoDetections()}, true)
	if err != nil || g.NumEdges() != 1 {
		t.Fatalf("graph %v, error %v; want the second reply's one edge", g, err)
	}
	if retry := m.reqs[1].Messages[2].Text; !strings.Contains(retry, "no JSON object") {
		t.Errorf("the retry does not say what was wrong: %q", retry)
	}
	m = &scripted{replies: []llm.Reply{{Text: "two objects"}, {Text: `{"edges":{"0":{"beside":[1]}}}`}}}
	if _, err := perceiveScene(context.Background(), m, &detectEnv{ds: twoDetections()}, true); err == nil || !strings.Contains(err.Error(), `unknown relation "beside"`) {
		t.Errorf("error %v, want one naming the second reply's unknown relation", err)
	}
}

// SG-CoT's partner robot answers with SG-CoT's method: it perceives its
// own view, retrieves (counted by its table, answered from its graph),
// hands the block over and replies; direct's partner reads the whole
// graph instead. The simulated model plays every call.
func TestSGCoTPartnerRetrieves(t *testing.T) {
	red := scenes.NewBlock("red block 1", "red", 0.3, 0.4)
	red.Region = scenes.RegionRobot2
	bowl := scenes.NewBowl("green bowl 1", "green", 0.2, 0.3)
	bowl.Region = scenes.RegionRobot2
	for _, tc := range []struct {
		agent, why string
		tallied    []string
	}{
		{"sgcot", "retrieves the block by name", []string{agents.ToolRetrieveNode}},
		{"sgcot-no-edges", "retrieves over its edgeless graph", []string{agents.ToolRetrieveNode}},
		{"sgcot-full-graph", "reads its whole perceived graph: no retrieval", nil},
	} {
		m := &recording{Model: simmodel.New(simmodel.Perfect, "sim:perfect")}
		a, err := agenttest.Workflow(t, tc.agent, m)
		if err != nil {
			t.Fatal(err)
		}
		env := &detectEnv{robot: scenes.Robot2, partner: scenes.Robot1, ds: []llm.Detection{llm.DetectionOf(red), llm.DetectionOf(bowl)}}
		reply, err := a.(agents.Responder).Respond(context.Background(), env, "Please put the red block in the shared workspace.")
		if err != nil {
			t.Fatalf("%s: %v", tc.agent, err)
		}
		if want := "I put red block 1 in the shared workspace."; reply != want {
			t.Errorf("%s: replied %q, want %q", tc.agent, reply, want)
		}
		if want := []string{agents.ToolDetectObjects, agents.ToolPickAndPlace}; !reflect.DeepEqual(env.calls, want) {
			t.Errorf("%s: robot 2's table answered %v, want %v", tc.agent, env.calls, want)
		}
		if !reflect.DeepEqual(env.tallied, tc.tallied) {
			t.Errorf("%s (%s): robot 2 retrieved %v, want %v", tc.agent, tc.why, env.tallied, tc.tallied)
		}
		if role := m.reqs[0].Context.Role; role != llm.CallPerceive {
			t.Errorf("%s: robot 2's first call is %s, want its perception", tc.agent, role)
		}
	}
}

type recording struct {
	llm.Model
	reqs []llm.Request
}

func (r *recording) Generate(ctx context.Context, req llm.Request) (llm.Reply, error) {
	r.reqs = append(r.reqs, req)
	return r.Model.Generate(ctx, req)
}

// fastDetections reads the detector's list as json.Unmarshal does, and
// leaves to it whatever it does not read. Seeds: the detector's own
// output, numbers in every JSON form, and shapes json.Unmarshal reads
// otherwise (a field left out, an unknown field, a key in another case,
// a short array).
func FuzzParseDetections(f *testing.F) {
	f.Add(string(llm.DetectionsJSON(twoDetections())))
	for _, s := range []string{`[]`, ` [ ] `, `[{"id":"a","attributes":{},"pos":[-0,1.5e3,2E-2],"size":[0.25,1,1]}]`,
		`[{"id":"a","pos":[1,2,3],"size":[1,1,1]}]`, `[{"id":"a","attributes":{},"pos":[1,2,3],"size":[1,1,1],"x":1}]`,
		`[{"ID":"a","attributes":{},"pos":[1,2,3],"size":[1,1,1]}]`, `[{"id":"a","attributes":{},"pos":[1,2],"size":[1,1,1]}]`,
		`[{"id":"a","attributes":null,"pos":[01,2,3],"size":[1,1,1]}]`, `null`, `[{}]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		fast, ok := fastDetections(text)
		if !ok {
			return
		}
		var slow []llm.Detection
		if err := json.Unmarshal([]byte(text), &slow); err != nil || !reflect.DeepEqual(fast, slow) {
			t.Fatalf("the fast reader read %v, json.Unmarshal %v (%v)", fast, slow, err)
		}
	})
}

// The detector's own output is read by the fast path, at every table the
// generator makes (a slow path taken silently would cost, not fail).
func TestDetectorOutputTakesTheFastPath(t *testing.T) {
	for seed := range uint64(20) {
		objs, err := scenes.GenerateTabletop(rand.New(rand.NewPCG(seed, 2)), scenes.TabletopConfig{Blocks: 5, Bowls: 4, TwoRobots: seed%2 == 1})
		if err != nil {
			t.Fatal(err)
		}
		text := string(llm.DetectionsJSON(detections(objs)))
		if ds, ok := fastDetections(text); !ok || !reflect.DeepEqual(ds, detections(objs)) {
			t.Errorf("scene %d: the fast path left the detector's list (%v) or read another", seed, ok)
		}
	}
}

// fastPerception keeps a pair's relations as bits of a relationSet, one
// a relation of scenes.Relations: a longer list would not fit.
func TestRelationsFitARelationSet(t *testing.T) {
	if n, bits := len(scenes.Relations), 8*int(unsafe.Sizeof(relationSet(0))); n > bits {
		t.Fatalf("%d relations, a relationSet holds %d: widen it", n, bits)
	}
}

// detectionLines writes, into one buffer, the lines the fmt-based writer
// it replaced wrote. Rows: a table's detections (one in a workspace),
// boxes of any precision and sign (a negative zero among them), an
// attribute-less detection, odd ids and attributes, and none.
func TestDetectionLinesBytes(t *testing.T) {
	plain := func(ds []llm.Detection) string {
		var b strings.Builder
		for i, d := range ds {
			if i > 0 {
				b.WriteByte('\n')
			}
			fmt.Fprintf(&b, "%d: %s (", i, d.ID)
			for j, k := range slices.Sorted(maps.Keys(d.Attributes)) {
				if j > 0 {
					b.WriteString(", ")
				}
				b.WriteString(k + " " + d.Attributes[k])
			}
			n := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
			b.WriteString("); centre " + n(d.Pos[0]) + ", " + n(d.Pos[1]) + ", " + n(d.Pos[2]) +
				"; size " + n(d.Size[0]) + " × " + n(d.Size[1]) + " × " + n(d.Size[2]))
		}
		return b.String()
	}
	table := twoDetections()
	table[1].Attributes[scenes.AttrWorkspace] = scenes.RegionRobot2
	rng := rand.New(rand.NewPCG(9, 9))
	var boxes []llm.Detection
	for i := range 30 {
		d := llm.DetectionOf(scenes.NewBlock(scenes.ObjectID("red", scenes.ClassBlock, i), "red", 0, 0))
		for k := range 3 {
			d.Pos[k], d.Size[k] = 1000*rng.NormFloat64(), rng.Float64()/3
		}
		boxes = append(boxes, d)
	}
	boxes[0].Pos[0] = math.Copysign(0, -1)
	for _, row := range []struct {
		why string
		ds  []llm.Detection
	}{
		{"a table", table},
		{"boxes of any precision", boxes},
		{"no attributes", []llm.Detection{{ID: "thing"}}},
		{"odd ids and attributes", []llm.Detection{{ID: `a "quoted" <id>`, Attributes: map[string]string{"z": "ü", "": "empty key", "a": ""}}}},
		{"none", nil},
	} {
		if got, want := detectionLines(row.ds), plain(row.ds); got != want {
			t.Errorf("%s:\n got %q\nwant %q", row.why, got, want)
		}
	}
}

// The fast path reads a crowded table's reply (crowdedPerception: 48
// objects, targets of one and two digits) as encoding/json does, and as
// written with space around its numbers, with a number it must refuse
// (a leading zero, a fraction, three digits, the source itself) and with
// a target repeated.
func TestFastPerceptionOfACrowdedTable(t *testing.T) {
	ds, reply := crowdedPerception(t)
	variants := map[string]string{
		"as written":       reply,
		"spaced":           strings.NewReplacer(",", " ,\n ", "[", "[ ", "]", " ]").Replace(reply),
		"leading zero":     strings.Replace(reply, "[1", "[01", 1),
		"a fraction":       strings.Replace(reply, "1,", "1.0,", 1),
		"three digits":     strings.Replace(reply, ",12,", ",120,", 1),
		"the source":       strings.Replace(reply, `"2":{"right_of":[`, `"2":{"right_of":[2,`, 1),
		"a target twice":   strings.Replace(reply, ",13,", ",13,13,", 1),
		"a list left open": strings.Replace(reply, "]", "", 1),
	}
	for why, text := range variants {
		if text == reply && why != "as written" {
			t.Fatalf("%s: the reply has no such place", why)
		}
		want, werr := perceptionJSON(text, ds, true, false)
		got, ok := fastPerception(text, ds, true)
		if !ok {
			if werr == nil && why != "leading zero" && why != "a fraction" {
				t.Errorf("%s: the fast path left a reply encoding/json reads", why)
			}
			continue
		}
		if werr != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the fast path read %d edges, encoding/json %v (%v)", why, got.NumEdges(), want, werr)
		}
	}
}
