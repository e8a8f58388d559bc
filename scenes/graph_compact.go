package scenes

import (
	"encoding/json"
	"maps"
	"slices"
	"unsafe"
)

// CompactJSON returns the bytes json.Marshal(g) returns, written directly.
// A graph of n objects holds up to n² edges, so on a crowded table
// reflecting over the edges was most of what writing the graph for
// get_scene_graph cost.
func (g *Graph) CompactJSON() []byte {
	return g.appendCompactJSON(make([]byte, 0, g.compactSize()))
}

// CompactJSONString is string(g.CompactJSON()) without the copy: the
// bytes are written once, into a buffer sized for them when every string
// of the graph is plain (see quote), and the string is made over that
// buffer, which nothing else holds.
func (g *Graph) CompactJSONString() string {
	b := g.CompactJSON()
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// compactSize bounds the length of g's JSON when every string of it is
// plain, which quote writes as it is, between quotes: it counts a comma
// after every item and "null" for an empty list. A string that needs
// escaping makes the JSON longer, and the buffer then grows.
func (g *Graph) compactSize() int {
	n := len(`{"nodes":null,"edges":null}`)
	for _, nd := range g.Nodes {
		n += len(`{"id":"","attributes":null},`) + len(nd.ID)
		for k, v := range nd.Attributes {
			n += len(`"":"",`) + len(k) + len(v)
		}
	}
	n += len(`{"source":"","target":"","relation":""},`) * len(g.edges)
	for _, e := range g.edges {
		n += len(g.names[e.src]) + len(g.names[e.dst]) + len(g.relationName(e.rel))
	}
	return n
}

func (g *Graph) appendCompactJSON(b []byte) []byte {
	b = append(b, `{"nodes":`...)
	if g.Nodes == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		var keys []string
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
				keys = slices.AppendSeq(keys[:0], maps.Keys(n.Attributes))
				slices.Sort(keys)
				for j, k := range keys {
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
	if g.edges == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, e := range g.edges {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"source":`...)
			b = quote(b, g.names[e.src])
			b = append(b, `,"target":`...)
			b = quote(b, g.names[e.dst])
			b = append(b, `,"relation":`...)
			b = quote(b, g.relationName(e.rel))
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// plain marks the bytes that json.Marshal writes as they are: printable
// ASCII but the quote, the backslash and the three it escapes for HTML.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = true
	}
	for _, c := range `"\<>&` {
		t[c] = false
	}
	return t
}()

// quote appends s as json.Marshal quotes it: between quotes as it is when
// every byte is plain (as ids, attributes and relations are), and through
// json.Marshal otherwise.
func quote(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if !plain[s[i]] {
			quoted, _ := json.Marshal(s) // a string always encodes
			return append(b, quoted...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
