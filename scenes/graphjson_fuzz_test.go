package scenes_test

import (
	"reflect"
	"testing"

	"github.com/ambibench/ambibench/scenes"
)

// FuzzDecodeGraph checks that DecodeGraph never panics, that any graph it
// accepts is valid, and that encoding it and decoding again gives the same
// graph.
func FuzzDecodeGraph(f *testing.F) {
	valid, err := scenes.BuildGraph(sixObjects()).Encode()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(valid)
	for _, s := range []string{
		`{}`,
		`null`,
		`{"nodes":[{"id":"a","attributes":{"color":"red"}}],"edges":[]}`,
		`{"nodes":[{"id":"a"},{"id":"a"}]}`,
		`{"nodes":[{"id":"a"}],"edges":[{"source":"a","target":"b","relation":"near"}]}`,
		`{"nodes":[{"id":"a"},{"id":"b"}],"edges":[{"source":"a","target":"b","relation":"beside"}]}`,
		`{"nodes":[{"id":3}]}`,
		`{"nodes":[]}}`,
		`{"nodes":[{"id":"a","x":1}]}`,
		`{"nodes":[{"id":"\ud800"}],"edges":[{"source":"\ufffd","target":"\ufffd","relation":"near"}]}`,
		`[`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := scenes.DecodeGraph(data)
		if err != nil {
			if g != nil {
				t.Fatalf("DecodeGraph returned a graph with error %v", err)
			}
			return
		}
		if err := g.Validate(); err != nil {
			t.Fatalf("DecodeGraph accepted a graph that fails Validate: %v\ninput: %q", err, data)
		}
		enc, err := g.Encode()
		if err != nil {
			t.Fatalf("Encode of an accepted graph: %v", err)
		}
		back, err := scenes.DecodeGraph(enc)
		if err != nil {
			t.Fatalf("DecodeGraph of the re-encoded graph: %v\ninput: %q\nencoded: %s", err, data, enc)
		}
		if !reflect.DeepEqual(back, g) {
			t.Fatalf("re-encoding changed the graph:\ninput: %q\n first %#v\nsecond %#v", data, g, back)
		}
	})
}
