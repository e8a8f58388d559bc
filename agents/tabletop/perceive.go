package tabletop

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/ambibench/ambibench/agents"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// SG-CoT builds its scene graph before it plans (paper 001, section 3.2):
// the nodes come from an object detector (the detect_objects tool), and
// the model writes the relations between them from the detector's list,
// which gives each object's attributes and its box in the table frame.
// That is the perceive call; SG-CoT then retrieves from the graph it
// wrote, so that the model's perception errors carry into its planning.

// perceiveAttempts is how many replies a perceive call may take to give a
// graph that parses: the second sees why the first could not be read.
const perceiveAttempts = 2

type perceivePrompt struct {
	Robot, Objects, Relations string
	Near                      int
	Edges                     bool
}

// detectObjects returns the detector's objects in the robot's view (detect_objects).
func detectObjects(ctx context.Context, env agents.Env) ([]llm.Detection, error) {
	r, err := agents.Check(agents.Call(ctx, env, agents.ToolDetectObjects, nil))
	if err != nil {
		return nil, err
	}
	if r.Error != "" {
		return nil, fmt.Errorf("detect_objects refused: %s", r.Error)
	}
	return parseDetections(r.Text)
}

// parseDetections reads detect_objects' result: the detector's own
// shape by fastDetections, anything else by json.Unmarshal.
func parseDetections(text string) ([]llm.Detection, error) {
	if ds, ok := fastDetections(text); ok {
		return ds, nil
	}
	var ds []llm.Detection
	if err := json.Unmarshal([]byte(text), &ds); err != nil {
		return nil, fmt.Errorf("detect_objects: its result is not a list of detections: %v", err)
	}
	return ds, nil
}

// perceiveScene is SG-CoT's scene-graph generation: the detector's
// objects, then one perceive call in which the model writes the graph
// (without relations when edges is false: the no-edges ablation). A view
// with nothing in it needs no call.
func perceiveScene(ctx context.Context, model llm.Model, env agents.Env, edges bool) (*scenes.Graph, error) {
	ds, err := detectObjects(ctx, env)
	if err != nil {
		return nil, err
	}
	if len(ds) == 0 {
		return &scenes.Graph{Nodes: []scenes.Node{}}, nil
	}
	data := perceivePrompt{Robot: env.Robot(), Objects: detectionLines(ds), Relations: strings.Join(scenes.Relations, ", "),
		Near: int(scenes.NearDistance * 1000), Edges: edges}
	user, err := renderIn(ctx, "perceive.tmpl", data)
	if err != nil {
		return nil, err
	}
	cc := &llm.CallContext{Role: llm.CallPerceive, Track: agents.TrackTabletop, Robot: env.Robot(), Detections: ds, Format: llm.FormatJSON}
	if !edges {
		cc.Mode = llm.ModeNodesOnly
	}
	req := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: user}}, Context: cc}
	return askUntilRead(ctx, model, req, "perceive", "the scene graph", func(text string) (*scenes.Graph, error) {
		return parsePerception(text, ds, edges)
	})
}

// askUntilRead sends req and reads the reply with read; a reply that
// cannot be read is shown back with why (perceive_retry.tmpl), up to
// perceiveAttempts replies in all. The final error names no model: it
// reaches the other robot's reply, which the same model under another
// name must write alike.
func askUntilRead[T any](ctx context.Context, model llm.Model, req llm.Request, call, what string, read func(string) (T, error)) (T, error) {
	var zero T
	var last error
	for range perceiveAttempts {
		reply, err := model.Generate(ctx, req)
		if err != nil {
			return zero, fmt.Errorf("model %s: %w", model.Name(), err)
		}
		v, err := read(reply.Text)
		if err == nil {
			return v, nil
		}
		last = err
		retry, rerr := renderIn(ctx, "perceive_retry.tmpl", struct{ Problem string }{err.Error()})
		if rerr != nil {
			return zero, rerr
		}
		req.Messages = append(req.Messages, llm.Message{Role: llm.RoleAssistant, Text: reply.Text}, llm.Message{Role: llm.RoleUser, Text: retry})
	}
	return zero, fmt.Errorf("%s: %d replies that could not be read as %s; last: %w", call, perceiveAttempts, what, last)
}

// detectionLines lists the detections as the perceive prompt shows them,
// one a line: index, id, attributes (by key), centre and size in mm.
func detectionLines(ds []llm.Detection) string {
	b := make([]byte, 0, 96*len(ds))
	var keys []string
	for i, d := range ds {
		if i > 0 {
			b = append(b, '\n')
		}
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, ": "...)
		b = append(b, d.ID...)
		b = append(b, " ("...)
		keys = slices.AppendSeq(keys[:0], maps.Keys(d.Attributes))
		slices.Sort(keys)
		for j, k := range keys {
			if j > 0 {
				b = append(b, ", "...)
			}
			b = append(b, k...)
			b = append(b, ' ')
			b = append(b, d.Attributes[k]...)
		}
		for k, sep := range [...]string{"); centre ", ", ", ", ", "; size ", " × ", " × "} {
			b = append(b, sep...)
			v := d.Pos[k%3]
			if k >= 3 {
				v = d.Size[k%3]
			}
			b = strconv.AppendFloat(b, v, 'f', -1, 64)
		}
	}
	return string(b)
}

// perception is the JSON a perceive reply holds.
type perception struct {
	Nodes map[string]perceivedNode       `json:"nodes"`
	Edges map[string]map[string]jsonInts `json:"edges"`
}

type perceivedNode struct {
	ID         string            `json:"id"`
	Attributes map[string]string `json:"attributes"`
}

type jsonInts []int

// parsePerception reads a perceive reply into the scene graph over the
// detections ds: their nodes, as the reply corrects them, and the reply's
// relations, ordered by source, then target, then relation as
// scenes.Relations lists them (the order the table's own graphs have).
// Text around the JSON object (a code fence, a sentence) is ignored.
// Without edges, relations in the reply are dropped. An error says what
// in the reply was wrong. A plainly well-formed reply is read by
// fastPerception; the rest, errors included, by encoding/json
// (perceptionJSON), which gives the same graph where both read one.
func parsePerception(text string, ds []llm.Detection, edges bool) (*scenes.Graph, error) {
	if g, ok := fastPerception(text, ds, edges); ok {
		return g, nil
	}
	return perceptionJSON(text, ds, edges, false)
}

// perceptionJSON is parsePerception through encoding/json. With open,
// relation names are the model's own (an open vocabulary, as the graph
// perceived from the image has them): any name but an empty one is kept,
// trimmed and in lower case, after the table's relations in the order.
func perceptionJSON(text string, ds []llm.Detection, edges, open bool) (*scenes.Graph, error) {
	start, end := strings.IndexByte(text, '{'), strings.LastIndexByte(text, '}')
	if start < 0 || end < start {
		return nil, fmt.Errorf("no JSON object in the reply %.80q", text)
	}
	data := []byte(text[start : end+1])
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var p perception
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("the JSON object: %w", perceptionJSONError(err))
	}
	// Anything after the object but space is a second object or a stray
	// brace (dec.More would pass a "}"), not part of the graph.
	if rest := bytes.TrimSpace(data[dec.InputOffset():]); len(rest) > 0 {
		return nil, fmt.Errorf("the JSON object: more than one object in the reply (%.20q follows it)", rest)
	}
	index := func(field, key string) (int, error) {
		i, err := strconv.Atoi(key)
		if err != nil || i < 0 || i >= len(ds) || strconv.Itoa(i) != key {
			return 0, fmt.Errorf("%s: key %q is not an object index (0 to %d)", field, key, len(ds)-1)
		}
		return i, nil
	}
	// A node the reply leaves as listed shares the detection's attribute
	// map: the graph and the list are only read.
	g := &scenes.Graph{Nodes: make([]scenes.Node, len(ds))}
	for i, d := range ds {
		g.Nodes[i] = scenes.Node{ID: d.ID, Attributes: d.Attributes}
	}
	for _, key := range slices.Sorted(maps.Keys(p.Nodes)) {
		i, err := index("nodes", key)
		if err != nil {
			return nil, err
		}
		n := p.Nodes[key]
		if strings.TrimSpace(n.ID) == "" {
			return nil, fmt.Errorf("nodes[%q]: field \"id\": required", key)
		}
		if len(n.Attributes) == 0 {
			return nil, fmt.Errorf("nodes[%q]: field \"attributes\": required, with every attribute of the object", key)
		}
		g.Nodes[i] = scenes.Node{ID: strings.TrimSpace(n.ID), Attributes: n.Attributes}
	}
	seen := map[string]int{}
	for i, n := range g.Nodes {
		if j, dup := seen[n.ID]; dup {
			return nil, fmt.Errorf("nodes: objects %d and %d are both %q", j, i, n.ID)
		}
		seen[n.ID] = i
	}
	if !edges {
		return g, nil
	}
	type edge struct{ src, dst, rel int }
	var es []edge
	names := slices.Clone(scenes.Relations) // open names are appended
	for _, key := range slices.Sorted(maps.Keys(p.Edges)) {
		src, err := index("edges", key)
		if err != nil {
			return nil, err
		}
		// In sorted order, so that of several bad relations the error (which
		// the retry prompt shows) names the same one on every run.
		for _, rel := range slices.Sorted(maps.Keys(p.Edges[key])) {
			targets := p.Edges[key][rel]
			if open {
				rel = strings.ToLower(strings.TrimSpace(rel))
				if rel == "" {
					return nil, fmt.Errorf("edges[%q]: a relation with no name", key)
				}
				if !slices.Contains(names, rel) {
					names = append(names, rel)
				}
			}
			r := slices.Index(names, rel)
			if r < 0 {
				return nil, fmt.Errorf("edges[%q]: unknown relation %q (want one of %s)", key, rel, strings.Join(scenes.Relations, ", "))
			}
			for _, dst := range targets {
				if dst < 0 || dst >= len(ds) {
					return nil, fmt.Errorf("edges[%q][%q]: target %d is not an object index (0 to %d)", key, rel, dst, len(ds)-1)
				}
				if dst == src {
					return nil, fmt.Errorf("edges[%q][%q]: object %d related to itself", key, rel, dst)
				}
				es = append(es, edge{src, dst, r})
			}
		}
	}
	slices.SortFunc(es, func(a, b edge) int {
		if a.src != b.src {
			return a.src - b.src
		}
		if a.dst != b.dst {
			return a.dst - b.dst
		}
		if a.rel != b.rel && a.rel >= len(scenes.Relations) && b.rel >= len(scenes.Relations) {
			return strings.Compare(names[a.rel], names[b.rel])
		}
		return a.rel - b.rel
	})
	es = slices.Compact(es)
	if len(es) > 0 {
		g.GrowEdges(len(es))
	}
	for _, e := range es {
		if e.rel < len(scenes.Relations) { // names begins with scenes.Relations
			g.AddNodeEdge(e.src, e.dst, e.rel)
		} else {
			g.AddEdge(scenes.Edge{Source: g.Nodes[e.src].ID, Target: g.Nodes[e.dst].ID, Relation: names[e.rel]})
		}
	}
	return g, nil
}

// UnmarshalJSON reads a list of object indices, and says which value is
// not one.
func (t *jsonInts) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("targets: expected a list of object indices, got %.40s", b)
	}
	out := make([]int, len(raw))
	for i, r := range raw {
		if err := json.Unmarshal(r, &out[i]); err != nil {
			return fmt.Errorf("targets: %.20s is not an object index", r)
		}
	}
	*t = out
	return nil
}

func perceptionJSONError(err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te) && te.Field != "":
		return fmt.Errorf("field %q: expected %s, got JSON %s", te.Field, te.Type, te.Value)
	case errors.As(err, &te):
		return fmt.Errorf("expected an object, got JSON %s", te.Value)
	case errors.As(err, &se):
		return fmt.Errorf("malformed JSON at offset %d: %v", se.Offset, se)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return fmt.Errorf("field %s: not part of the graph (want nodes and edges)", strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	return err
}

// perceivedEnv answers the scene-graph tools from the graph the
// workflow's perceive call wrote, not the table's; every other call goes
// to the table. A retrieval still takes a step and counts among the
// record's tool calls (the table's Tally, when it has one). A call with
// bad arguments goes to the table, which refuses it and counts it.
type perceivedEnv struct {
	agents.Env
	g *scenes.Graph
}

// tallier is a table that counts a call a workflow answered itself.
type tallier interface {
	Tally(agents.ToolCall) (agents.Result, bool)
}

func (e perceivedEnv) Call(ctx context.Context, c agents.ToolCall) (agents.Result, error) {
	switch c.Name {
	case agents.ToolRetrieveNode, agents.ToolRetrieveEdge, agents.ToolGetSceneGraph:
	default:
		return e.Env.Call(ctx, c)
	}
	if err := ctx.Err(); err != nil {
		return agents.Result{}, err
	}
	args, err := agents.DecodeArgs(c)
	if err != nil {
		return e.Env.Call(ctx, c)
	}
	if t, ok := e.Env.(tallier); ok {
		if r, ok := t.Tally(c); !ok {
			return r, nil
		}
	}
	switch a := args.(type) {
	case *agents.RetrieveNodeArgs:
		q := scenes.NodeQuery{Name: a.Name}
		if a.AttrKey != "" {
			q.Attrs = map[string]string{a.AttrKey: a.AttrVal}
		}
		ids := e.g.RetrieveNode(q)
		return agents.Result{Text: jsonList(ids), Items: ids}, nil
	case *agents.RetrieveEdgeArgs:
		edges := e.g.RetrieveEdge(scenes.EdgeQuery{Source: a.Source, Target: a.Target, Relation: a.Relation})
		items := make([]string, len(edges))
		for i, ed := range edges {
			items[i] = ed.String()
		}
		return agents.Result{Text: jsonList(items), Items: items, Edges: edges}, nil
	}
	return agents.Result{Text: string(e.g.CompactJSON()), Graph: e.g}, nil
}

// jsonList writes a retrieval's items as the table does.
func jsonList(items []string) string {
	if len(items) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(items)
	return string(b)
}
