package scenes_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

var update = flag.Bool("update", false, "rewrite golden files")

// sixObjects is a fixed table: three blocks and three bowls, one block in a
// bowl, one block on another, and two objects near each other.
func sixObjects() []scenes.Object {
	green := scenes.NewBlock("green block 1", "green", 0.12, -0.33)
	yellow := scenes.NewBlock("yellow block 1", "yellow", 0.12, -0.33)
	yellow.Pose[2] = green.Pose.Z() + scenes.BlockSize
	return []scenes.Object{
		scenes.NewBlock("red block 1", "red", -0.2, -0.5),
		green,
		yellow,
		scenes.NewBowl("blue bowl 1", "blue", 0, -0.5),
		scenes.NewBowl("pink bowl 1", "pink", 0.22, -0.7),
		scenes.NewBlock("orange block 1", "orange", 0.01, -0.49), // in the blue bowl
	}
}

func TestGraphGolden(t *testing.T) {
	got, err := scenes.BuildGraph(sixObjects()).Encode()
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", "graph.golden.json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("graph of the six-object table differs from %s (run go test -update if the change is meant):\ngot:\n%s", path, got)
	}
	// The golden file is itself a valid graph.
	if _, err := scenes.DecodeGraph(want); err != nil {
		t.Errorf("DecodeGraph(%s): %v", path, err)
	}
}

func TestGraphRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		g    *scenes.Graph
	}{
		{"built from a table", scenes.BuildGraph(sixObjects())},
		{"hand-made", queryGraph()},
		{"nodes and no edges", &scenes.Graph{Nodes: []scenes.Node{{ID: "red block 1", Attributes: map[string]string{"color": "red"}}}}},
		{"a node with no attributes", &scenes.Graph{Nodes: []scenes.Node{{ID: "x"}}}},
		{"empty", &scenes.Graph{}},
		{"ids needing escapes", scenes.NewGraph([]scenes.Node{{ID: `a "quoted" <id>`}, {ID: "ünïcode\tid"}}, []scenes.Edge{{Source: `a "quoted" <id>`, Target: "ünïcode\tid", Relation: scenes.RelNear}})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := tt.g.Encode()
			if err != nil {
				t.Fatalf("Encode: %v", err)
			}
			back, err := scenes.DecodeGraph(data)
			if err != nil {
				t.Fatalf("DecodeGraph: %v\n%s", err, data)
			}
			if !reflect.DeepEqual(back, tt.g) {
				t.Errorf("round trip changed the graph:\n got %#v\nwant %#v", back, tt.g)
			}
		})
	}
}

func TestDecodeGraphErrors(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []string // substrings the error must hold
	}{
		{"empty input", ``, []string{"scene graph", "EOF"}},
		{"not JSON", `nodes`, []string{"malformed JSON at offset"}},
		{"truncated", `{"nodes":[{"id":"a"}`, []string{"scene graph"}},
		{"empty id", `{"nodes":[{"id":""}]}`, []string{"nodes[0].id", "empty"}},
		{"missing id", `{"nodes":[{"id":"a"},{"attributes":{}}]}`, []string{"nodes[1].id", "empty"}},
		{"duplicate id", `{"nodes":[{"id":"a"},{"id":"a"}]}`, []string{"nodes[1].id", `duplicate id "a"`}},
		{"empty attribute key", `{"nodes":[{"id":"a","attributes":{"":"x"}}]}`, []string{"nodes[0].attributes", "empty key"}},
		{"unknown edge source", `{"nodes":[{"id":"a"}],"edges":[{"source":"x","target":"a","relation":"near"}]}`, []string{"edges[0].source", `unknown node "x"`}},
		{"unknown edge target", `{"nodes":[{"id":"a"}],"edges":[{"source":"a","target":"b","relation":"near"}]}`, []string{"edges[0].target", `unknown node "b"`}},
		{"unknown relation", `{"nodes":[{"id":"a"},{"id":"b"}],"edges":[{"source":"a","target":"b","relation":"beside"}]}`, []string{"edges[0].relation", `unknown relation "beside"`, "left_of"}},
		{"relation differs in case", `{"nodes":[{"id":"a"},{"id":"b"}],"edges":[{"source":"a","target":"b","relation":"NEAR"}]}`, []string{"edges[0].relation"}},
		{"error names the failing edge's index", `{"nodes":[{"id":"a"},{"id":"b"}],"edges":[{"source":"a","target":"b","relation":"near"},{"source":"a","target":"c","relation":"near"}]}`, []string{"edges[1].target"}},
		{"id of the wrong type", `{"nodes":[{"id":3}]}`, []string{"id", "expected string", "number"}},
		{"attribute value of the wrong type", `{"nodes":[{"id":"a","attributes":{"color":1}}]}`, []string{"attributes", "expected string"}},
		{"nodes of the wrong type", `{"nodes":{}}`, []string{"nodes", "expected []scenes.Node", "object"}},
		{"edge field of the wrong type", `{"nodes":[{"id":"a"}],"edges":[{"source":true}]}`, []string{"source", "expected string", "bool"}},
		{"trailing object", `{"nodes":[]} {}`, []string{"trailing data"}},
		{"trailing word", `{"nodes":[]} x`, []string{"trailing data"}},
		{"trailing closing brace", `{"nodes":[]}}`, []string{"trailing data"}},
		{"trailing closing bracket", `{"nodes":[]}]`, []string{"trailing data"}},
		{"unknown top-level field", `{"nodes":[],"objects":[]}`, []string{`unknown field "objects"`}},
		{"unknown node field", `{"nodes":[{"id":"a","colour":"red"}]}`, []string{`unknown field "colour"`}},
		{"unknown edge field", `{"nodes":[{"id":"a"}],"edges":[{"source":"a","target":"a","relation":"near","weight":1}]}`, []string{`unknown field "weight"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := scenes.DecodeGraph([]byte(tt.input))
			if err == nil {
				t.Fatalf("DecodeGraph(%s) = %+v, want an error", tt.input, g)
			}
			if g != nil {
				t.Errorf("DecodeGraph(%s) returned a graph with its error", tt.input)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("DecodeGraph(%s) error %q does not mention %q", tt.input, err, w)
				}
			}
		})
	}
}

func TestDecodeGraphAccepts(t *testing.T) {
	tests := []struct {
		name  string
		input string
		nodes int
	}{
		{"surrounding whitespace", " \n\t{\"nodes\":[{\"id\":\"a\"}]}\r\n ", 1},
		{"null is an empty graph", `null`, 0},
		{"edges omitted", `{"nodes":[{"id":"a"},{"id":"b"}]}`, 2},
		{"every relation is known", `{"nodes":[{"id":"a"},{"id":"b"}],"edges":[` +
			`{"source":"a","target":"b","relation":"left_of"},{"source":"a","target":"b","relation":"right_of"},` +
			`{"source":"a","target":"b","relation":"above"},{"source":"a","target":"b","relation":"below"},` +
			`{"source":"a","target":"b","relation":"inside_of"},{"source":"a","target":"b","relation":"on_top_of"},` +
			`{"source":"a","target":"b","relation":"near"}]}`, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := scenes.DecodeGraph([]byte(tt.input))
			if err != nil {
				t.Fatalf("DecodeGraph(%q): %v", tt.input, err)
			}
			if len(g.Nodes) != tt.nodes {
				t.Errorf("DecodeGraph(%q) has %d nodes, want %d", tt.input, len(g.Nodes), tt.nodes)
			}
		})
	}
}

func TestDecodeGraphMoreErrors(t *testing.T) {
	for _, tc := range []struct {
		why, in, want string
	}{
		{"a top-level array is not a graph", `[1,2]`, "expected a JSON object with nodes and edges, got JSON array"},
		{"an object never relates to itself", `{"nodes":[{"id":"a","attributes":{}}],"edges":[{"source":"a","target":"a","relation":"near"}]}`, `edges[0].target: "a" relates to itself`},
	} {
		if _, err := scenes.DecodeGraph([]byte(tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.why, err, tc.want)
		}
	}
}
