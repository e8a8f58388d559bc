package scenes

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

func TestCompactJSONIsMarshal(t *testing.T) {
	odd := NewGraph([]Node{{ID: `a<b>&"c"` + "\u2028\xff\x01", Attributes: map[string]string{"z": "1", "a": "<", "": ""}}, {ID: "no attributes"}, {ID: "empty", Attributes: map[string]string{}}}, []Edge{{Source: "a<b>", Target: "\t\n\\", Relation: RelNear}})
	for name, g := range map[string]*Graph{
		"table": BuildGraph([]Object{
			NewBlock("red block 1", "red", -0.2, -0.3),
			NewBlock("blue block 1", "blue", -0.19, -0.31),
			NewBowl("red bowl 1", "red", 0.1, -0.5),
		}),
		"odd": odd, "empty": {}, "empty slices": NewGraph([]Node{}, []Edge{}),
		"one object": BuildGraph([]Object{NewBlock("red block 1", "red", 0, -0.5)}),
	} {
		// The graph's JSON as encoding/json writes a struct of its two
		// lists; json.Marshal(g) is CompactJSON itself.
		want, err := json.Marshal(graphJSON{Nodes: g.Nodes, Edges: g.EdgeList()})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := json.Marshal(g); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: json.Marshal:\ngot  %s\nwant %s", name, got, want)
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
			items := len(g.Nodes) + g.NumEdges()
			for _, n := range g.Nodes {
				items += len(n.Attributes)
			}
			if got, size := len(want), g.compactSize(); size < got || size > got+4+items {
				t.Errorf("%s: compactSize is %d, the JSON %d bytes", name, size, got)
			}
		}
	}
}

// A graph inside another value writes and reads back as the struct of its
// two lists would, by value and by pointer, with edges of relations and
// ends the graph does not know.
func TestGraphJSONInAValue(t *testing.T) {
	type holder struct {
		G Graph  `json:"g"`
		P *Graph `json:"p"`
		N *Graph `json:"n"`
	}
	odd := NewGraph([]Node{{ID: "a"}, {ID: "b"}}, []Edge{{Source: "a", Target: "c", Relation: "beside"}, {Source: "b", Target: "a", Relation: RelNear}})
	in := holder{G: *BuildGraph([]Object{NewBlock("red block 1", "red", -0.2, -0.3), NewBowl("red bowl 1", "red", 0.1, -0.5)}), P: odd}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	type plain struct {
		G graphJSON  `json:"g"`
		P *graphJSON `json:"p"`
		N *graphJSON `json:"n"`
	}
	want, _ := json.Marshal(plain{G: graphJSON{in.G.Nodes, in.G.EdgeList()}, P: &graphJSON{odd.Nodes, odd.EdgeList()}})
	if !bytes.Equal(data, want) {
		t.Fatalf("got  %s\nwant %s", data, want)
	}
	var back holder
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, in) {
		t.Errorf("read back %+v, want %+v", back, in)
	}
}
