package scenes

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestCompactJSONIsMarshal(t *testing.T) {
	odd := &Graph{
		Nodes: []Node{{ID: `a<b>&"c"` + "\u2028\xff\x01", Attributes: map[string]string{"z": "1", "a": "<", "": ""}}, {ID: "no attributes"}, {ID: "empty", Attributes: map[string]string{}}},
		Edges: []Edge{{Source: "a<b>", Target: "\t\n\\", Relation: RelNear}},
	}
	for name, g := range map[string]*Graph{
		"table": BuildGraph([]Object{
			NewBlock("red block 1", "red", -0.2, -0.3),
			NewBlock("blue block 1", "blue", -0.19, -0.31),
			NewBowl("red bowl 1", "red", 0.1, -0.5),
		}),
		"odd": odd, "empty": {}, "empty slices": {Nodes: []Node{}, Edges: []Edge{}},
		"one object": BuildGraph([]Object{NewBlock("red block 1", "red", 0, -0.5)}),
	} {
		want, err := json.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.CompactJSON(); !bytes.Equal(got, want) {
			t.Errorf("%s:\ngot  %s\nwant %s", name, got, want)
		}
		if got := g.CompactJSONString(); got != string(want) {
			t.Errorf("%s: CompactJSONString:\ngot  %s\nwant %s", name, got, want)
		}
		// The buffer is sized for a graph of plain strings, so that
		// writing it allocates once: at most a comma an item too large.
		if name != "odd" {
			items := len(g.Nodes) + len(g.Edges)
			for _, n := range g.Nodes {
				items += len(n.Attributes)
			}
			if got, size := len(want), g.compactSize(); size < got || size > got+4+items {
				t.Errorf("%s: compactSize is %d, the JSON %d bytes", name, size, got)
			}
		}
	}
}
