package simmodel

import (
	"maps"
	"math/bits"
	"slices"
	"strconv"
	"unsafe"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// perceive plays SG-CoT's scene-graph generation: the geometric graph of
// the detected objects, as scenes.BuildGraph derives it from the boxes
// and attributes the prompt gives, with the relation part of the
// episode's perception noise (scene_graph_noise's Drop and Spurious,
// llm.WithPerceptionNoise): the relations it misses or imagines. The
// node part (Flip) is the detector's, already in the detections. The
// reply is the prompt's JSON: the nodes it reads otherwise than the
// detector (none, as the model plays it) and, unless the call asks for
// nodes only, every relation, keyed by source index.
func (c *call) perceive() llm.Reply {
	ds := c.cc.Detections
	rel := scenes.GraphNoise{Drop: c.noise.Drop, Spurious: c.noise.Spurious, Seed: c.noise.Seed}
	if c.cc.Mode != llm.ModeNodesOnly && rel.IsZero() && distinctIDs(ds) {
		return llm.Reply{Text: relationsJSON(ds), FinishReason: llm.FinishStop}
	}
	if c.cc.Mode == llm.ModeNodesOnly {
		g := &scenes.Graph{}
		for _, d := range ds {
			g.Nodes = append(g.Nodes, scenes.Node{ID: d.ID, Attributes: d.Attributes})
		}
		return llm.Reply{Text: perceptionJSON(g, ds, false), FinishReason: llm.FinishStop}
	}
	objs := make([]scenes.Object, len(ds))
	for i, d := range ds {
		objs[i] = d.Object()
	}
	g := scenes.BuildGraph(objs)
	if !rel.IsZero() {
		g, _ = g.WithNoise(rel)
	}
	return llm.Reply{Text: perceptionJSON(g, ds, true), FinishReason: llm.FinishStop}
}

// relationsJSON is perceptionJSON(scenes.BuildGraph(objs), ds, true) for
// the objects objs the detections ds describe, when their ids are
// distinct: the reply without the graph's edges, written from the
// relations' indexes (scenes.RelationCodes), since a crowded table's
// edges were most of what a reply cost. The relations read only the
// boxes and the type of each detection, so the objects they are read
// from carry no attributes.
func relationsJSON(ds []llm.Detection) string {
	n := len(ds)
	objs := make([]scenes.Object, n)
	for i, d := range ds {
		o := &objs[i]
		o.ID, o.Class = d.ID, d.Attributes[scenes.AttrType]
		for k := range 3 {
			o.Pose[k], o.Extent[k] = d.Pos[k]/1000, d.Size[k]/1000
		}
	}
	codes, count := scenes.RelationCodes(objs)
	// A target index takes at most three bytes and its comma at 48
	// objects; a source its key and braces.
	b := make([]byte, 0, 32+4*count+16*n)
	b = append(b, `{"nodes":{`...)
	first := true
	for i, d := range ds {
		// The node is the detection's but where the detection's workspace
		// is one scenes.NodeOf leaves out (the table, or none).
		if _, ok := d.Attributes[scenes.AttrWorkspace]; !ok {
			continue
		}
		o := d.Object()
		nd := scenes.NodeOf(&o)
		if maps.Equal(nd.Attributes, d.Attributes) {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendNode(b, i, nd)
	}
	b = append(b, `},"edges":{`...)
	b = appendRelations(b, codes, n, nil)
	b = append(b, "}}"...)
	// Nothing else holds the buffer: the reply is made over it, not
	// copied (thousands of relations at a crowded table).
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// appendRelations appends a reply's edges, without their braces, from the
// relations scenes.RelationCodes found between m objects (codes): each
// source that has one, then its relations in the order they first
// appear, each with its targets, as perceptionJSON writes the graph's
// edges. The objects are the reply's objects at, in order (an object's
// index in the reply: at[k] for object k); nil is the identity.
//
// A crowded table's reply holds thousands of targets, so a source's row
// is read without a branch a pair: each pair's first and second code
// mark the target in a set of bits (one a code and a place in the pair;
// code 0, no relation, marks a set nobody reads), and the sets give the
// targets in order and where each code first appears. A pair's two codes
// differ (RelationCodes gives a pair at most one of each relation), so a
// target is in a relation's list once, as it is in the sets.
func appendRelations(b []byte, codes []uint8, m int, at []int) []byte {
	words := (m + 63) / 64
	var one [2 * 8]uint64 // the sets of a table of 64 objects or fewer
	sets := one[:]
	if words > 1 {
		sets = make([]uint64, 2*8*words)
	}
	// The set of code c at place p of the pair (0 or 1): words bits
	// from (2c+p)·words.
	first := true
	for i := range m {
		row := codes[2*i*m : 2*(i+1)*m]
		for j := range m {
			w, bit := j/64, uint64(1)<<(j%64)
			sets[(2*int(row[2*j]))*words+w] |= bit
			sets[(2*int(row[2*j+1])+1)*words+w] |= bit
		}
		// The codes in the order they first appear: by the first target
		// of each, then by place in the pair.
		var order [8]uint8
		var firstAt [8]int
		k := 0
		for c := 1; c < 8; c++ {
			pos := -1
			for p := range 2 {
				for w, word := range sets[(2*c+p)*words : (2*c+p+1)*words] {
					if word != 0 {
						if q := 2*(w*64+bits.TrailingZeros64(word)) + p; pos < 0 || q < pos {
							pos = q
						}
						break
					}
				}
			}
			if pos < 0 {
				continue
			}
			n := k
			for n > 0 && firstAt[n-1] > pos {
				order[n], firstAt[n] = order[n-1], firstAt[n-1]
				n--
			}
			order[n], firstAt[n] = uint8(c), pos
			k++
		}
		if k > 0 {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, '"')
			b = appendIndex(b, index(at, i))
			b = append(b, `":{`...)
			for r, c := range order[:k] {
				if r > 0 {
					b = append(b, ',')
				}
				b = append(b, relationKeys[c-1]...)
				s0, s1 := sets[2*int(c)*words:(2*int(c)+1)*words], sets[(2*int(c)+1)*words:(2*int(c)+2)*words]
				// Each target and the byte before it (the list's '[', then
				// commas) in one append, its digits written out: a crowded
				// table's reply writes thousands of targets here, and an
				// append a byte was most of what writing them cost. Every
				// code in order has a target, so the '[' is written.
				sep := byte('[')
				for w := range words {
					for word := s0[w] | s1[w]; word != 0; word &= word - 1 {
						switch t := index(at, w*64+bits.TrailingZeros64(word)); {
						case t < 10:
							b = append(b, sep, byte('0'+t))
						case t < 100:
							b = append(b, sep, byte('0'+t/10), byte('0'+t%10))
						default:
							b = strconv.AppendInt(append(b, sep), int64(t), 10)
						}
						sep = ','
					}
				}
				b = append(b, ']')
			}
			b = append(b, '}')
		}
		clear(sets)
	}
	return b
}

// index is object k's index in a reply whose objects are at (nil: k).
func index(at []int, k int) int {
	if at == nil {
		return k
	}
	return at[k]
}

// appendIndex appends the decimal digits of an object index.
func appendIndex(b []byte, i int) []byte {
	if i < 10 {
		return append(b, byte('0'+i))
	}
	if i < 100 {
		return append(b, byte('0'+i/10), byte('0'+i%10))
	}
	return strconv.AppendInt(b, int64(i), 10)
}

// relationKeys are the relations as a reply's keys before their target
// lists: "left_of": and so on, in the order of scenes.Relations.
var relationKeys = func() []string {
	keys := make([]string, len(scenes.Relations))
	for i, r := range scenes.Relations {
		keys[i] = strconv.Quote(r) + ":"
	}
	return keys
}()

// distinctIDs reports whether no two detections share an id. A graph's
// edges name their ends by id, so where two share one perceptionJSON
// reads both as the same source; relationsJSON, which keys by index,
// leaves that to it.
func distinctIDs(ds []llm.Detection) bool {
	seen := make(map[string]struct{}, len(ds))
	for _, d := range ds {
		if _, dup := seen[d.ID]; dup {
			return false
		}
		seen[d.ID] = struct{}{}
	}
	return true
}

// appendNode appends a reply's node i: its id and its attributes by key.
func appendNode(b []byte, i int, n scenes.Node) []byte {
	b = append(b, '"')
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, `":{"id":`...)
	b = strconv.AppendQuote(b, n.ID)
	b = append(b, `,"attributes":{`...)
	for j, k := range slices.Sorted(maps.Keys(n.Attributes)) {
		if j > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, k)
		b = append(b, ':')
		b = strconv.AppendQuote(b, n.Attributes[k])
	}
	return append(b, "}}"...)
}

// perceptionNodes appends the opening of a perceive reply: the nodes of g
// at the indexes changed, keyed by index (a reply writes a node only
// where it differs from the detections: changedNodes).
func perceptionNodes(b []byte, g *scenes.Graph, changed []int) []byte {
	b = append(b, `{"nodes":{`...)
	for k, i := range changed {
		if k > 0 {
			b = append(b, ',')
		}
		b = appendNode(b, i, g.Nodes[i])
	}
	return append(b, '}')
}

// changedNodes lists the indexes of the nodes of g that differ from the
// detections, in order.
func changedNodes(g *scenes.Graph, ds []llm.Detection) []int {
	var changed []int
	for i, n := range g.Nodes {
		if i >= len(ds) || n.ID != ds[i].ID || !maps.Equal(n.Attributes, ds[i].Attributes) {
			changed = append(changed, i)
		}
	}
	return changed
}

// perceptionJSON writes a perceive reply: nodes keyed by index where they
// differ from the detections, then the edges as source index → relation →
// target indices, in the graph's order (each source's relations in the
// order they first appear), into one buffer.
func perceptionJSON(g *scenes.Graph, ds []llm.Detection, edges bool) string {
	b := perceptionNodes(make([]byte, 0, 64+8*g.NumEdges()), g, changedNodes(g, ds))
	index := make(map[string]int, len(g.Nodes))
	for i, n := range g.Nodes {
		index[n.ID] = i
	}
	if edges {
		b = append(b, `,"edges":{`...)
		// A source has a few relations (at most one a kind), so its
		// groups are found by a scan; their target lists are reused.
		type group struct {
			rel     string
			targets []int
		}
		var groups []group
		at := func(id string, guess int) int {
			if guess >= 0 && guess < len(g.Nodes) && g.Nodes[guess].ID == id {
				return guess
			}
			return index[id]
		}
		for s, next := 0, 0; s < g.NumEdges(); {
			src := g.EdgeSource(s)
			e := s
			for e < g.NumEdges() && g.EdgeSource(e) == src {
				e++
			}
			if s > 0 {
				b = append(b, ',')
			}
			si := at(src, next)
			next = si + 1
			b = append(b, '"')
			b = strconv.AppendInt(b, int64(si), 10)
			b = append(b, `":{`...)
			groups = groups[:0]
			guess := 0 // a source's targets come in node order, but for noise
			for i := s; i < e; i++ {
				ed := g.Edge(i)
				j := slices.IndexFunc(groups, func(gr group) bool { return gr.rel == ed.Relation })
				if j < 0 {
					j = len(groups)
					if j < cap(groups) {
						groups = groups[:j+1]
						groups[j].rel, groups[j].targets = ed.Relation, groups[j].targets[:0]
					} else {
						groups = append(groups, group{rel: ed.Relation})
					}
				}
				t := at(ed.Target, guess)
				guess = t
				groups[j].targets = append(groups[j].targets, t)
			}
			for j, gr := range groups {
				if j > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendQuote(b, gr.rel)
				b = append(b, `:[`...)
				for k, t := range gr.targets {
					if k > 0 {
						b = append(b, ',')
					}
					b = strconv.AppendInt(b, int64(t), 10)
				}
				b = append(b, ']')
			}
			b = append(b, '}')
			s = e
		}
		b = append(b, '}')
	}
	b = append(b, '}')
	return string(b)
}
