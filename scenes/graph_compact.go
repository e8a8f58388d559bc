package scenes

import (
	"encoding/json"
	"maps"
	"slices"
)

// CompactJSON returns the bytes json.Marshal(g) returns, written directly.
// A graph of n objects holds up to n² edges, so on a crowded table
// reflecting over the edges was most of what writing the graph for
// get_scene_graph cost.
func (g *Graph) CompactJSON() []byte {
	// About 80 bytes an edge and 100 a node, for ids of a dozen letters.
	b := make([]byte, 0, 128*(len(g.Nodes)+len(g.Edges)))
	b = append(b, `{"nodes":`...)
	if g.Nodes == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, n := range g.Nodes {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"id":`...)
			b = quote(b, n.ID)
			b = append(b, `,"attributes":`...)
			if n.Attributes == nil {
				b = append(b, "null"...)
			} else {
				b = append(b, '{')
				for j, k := range slices.Sorted(maps.Keys(n.Attributes)) {
					if j > 0 {
						b = append(b, ',')
					}
					b = quote(b, k)
					b = append(b, ':')
					b = quote(b, n.Attributes[k])
				}
				b = append(b, '}')
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"edges":`...)
	if g.Edges == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, e := range g.Edges {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"source":`...)
			b = quote(b, e.Source)
			b = append(b, `,"target":`...)
			b = quote(b, e.Target)
			b = append(b, `,"relation":`...)
			b = quote(b, e.Relation)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// quote appends s as json.Marshal quotes it: between quotes as it is when
// every byte is printable ASCII that JSON and json.Marshal's HTML escaping
// leave alone (as ids, attributes and relations are), and through
// json.Marshal otherwise.
func quote(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			quoted, _ := json.Marshal(s) // a string always encodes
			return append(b, quoted...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
