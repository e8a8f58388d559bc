package scenes

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
)

// GraphNoise is the error of a perception module that builds scene graphs,
// such as a vision-language model: relations it misses, relations it
// imagines, and attributes it misreads. The zero value is a perfect
// perceiver.
//
// Every draw is hashed from Seed and the identity of what it concerns (a
// node's id and attribute key, an edge's endpoints and relation), never
// from the order of calls, so the same table always reads the same way and
// a node keeps its misread colour as it moves.
type GraphNoise struct {
	// Drop is the chance that a true edge is missing.
	Drop float64 `json:"drop"`
	// Spurious is the chance that an ordered pair of nodes gains one
	// relation the table does not hold.
	Spurious float64 `json:"spurious"`
	// Flip is the chance that an attribute of a node reads as another
	// value of its kind (another colour, the other class, ...).
	Flip float64 `json:"flip"`
	Seed uint64  `json:"seed"`
}

// IsZero reports whether n changes nothing.
func (n GraphNoise) IsZero() bool { return n.Drop <= 0 && n.Spurious <= 0 && n.Flip <= 0 }

// String gives the rates, for descriptions and errors.
func (n GraphNoise) String() string {
	return fmt.Sprintf("drop %.2f, spurious %.2f, flip %.2f", n.Drop, n.Spurious, n.Flip)
}

// flipDomains are the values a misread attribute may take. Attributes of
// other keys are read right.
var flipDomains = map[string][]string{
	AttrColor:     Colors,
	AttrType:      {ClassBlock, ClassBowl},
	AttrSize:      {"small", "medium", "large"},
	AttrWorkspace: {RegionRobot1, RegionShared, RegionRobot2},
}

// WithNoise returns g as a perceiver with noise n reports it, and the true
// id of every node it names differently (perceived id → true id). g is not
// changed.
//
// A node whose colour or class is misread is named for what it seems to
// be, numbered after every node that truly bears that name ("red block 1"
// seen as blue on a table with blue block 1 becomes "blue block 2"), so a
// perceived id never names another object; the numbering holds as long as
// the same nodes are in view. Kept edges stay in graph order; the spurious
// edges of a pair follow that pair's true ones.
func (g *Graph) WithNoise(n GraphNoise) (*Graph, map[string]string) {
	out := &Graph{Nodes: make([]Node, 0, len(g.Nodes))}
	if n.IsZero() {
		for _, nd := range g.Nodes {
			out.Nodes = append(out.Nodes, Node{ID: nd.ID, Attributes: cloneAttrs(nd.Attributes)})
		}
		out.CopyEdges(g)
		return out, map[string]string{}
	}
	// The highest number of each true name, so renamed nodes number after.
	top := map[string]int{}
	for _, nd := range g.Nodes {
		if base, num, ok := cutNumber(nd.ID); ok {
			top[base] = max(top[base], atoi(num))
		}
	}
	rename := map[string]string{} // true → perceived
	aliases := map[string]string{}
	for _, nd := range g.Nodes {
		attrs := cloneAttrs(nd.Attributes)
		for _, k := range slices.Sorted(maps.Keys(nd.Attributes)) {
			dom := flipDomains[k]
			if len(dom) < 2 || !n.hit(n.Flip, "flip", nd.ID, k) {
				continue
			}
			var others []string
			for _, v := range dom {
				if v != attrs[k] {
					others = append(others, v)
				}
			}
			attrs[k] = others[n.draw(len(others), "flip-to", nd.ID, k)]
		}
		id := nd.ID
		base, _, numbered := cutNumber(nd.ID)
		seen := attrs[AttrColor] + " " + attrs[AttrType]
		if numbered && base == nd.Attributes[AttrColor]+" "+nd.Attributes[AttrType] && seen != base {
			top[seen]++
			id = fmt.Sprintf("%s %d", seen, top[seen])
			rename[nd.ID], aliases[id] = id, nd.ID
		}
		out.Nodes = append(out.Nodes, Node{ID: id, Attributes: attrs})
	}
	seenAs := func(id string) string {
		if r, ok := rename[id]; ok {
			return r
		}
		return id
	}
	type pair struct{ a, b string }
	byPair := map[pair][]Edge{}
	var stray []Edge // edges whose ends are not both nodes; kept at the end
	isNode := map[string]bool{}
	for _, nd := range g.Nodes {
		isNode[nd.ID] = true
	}
	var outEdges []Edge
	for _, e := range g.Edges() {
		if !isNode[e.Source] || !isNode[e.Target] {
			stray = append(stray, e)
			continue
		}
		byPair[pair{e.Source, e.Target}] = append(byPair[pair{e.Source, e.Target}], e)
	}
	emit := func(e Edge) {
		if !n.hit(n.Drop, "drop", e.Source, e.Target, e.Relation) {
			outEdges = append(outEdges, Edge{Source: seenAs(e.Source), Target: seenAs(e.Target), Relation: e.Relation})
		}
	}
	for _, a := range g.Nodes {
		for _, b := range g.Nodes {
			if a.ID == b.ID {
				continue
			}
			have := byPair[pair{a.ID, b.ID}]
			for _, e := range have {
				emit(e)
			}
			if !n.hit(n.Spurious, "spurious", a.ID, b.ID) {
				continue
			}
			var cands []string
			for _, rel := range plausible(a, b) {
				if !slices.ContainsFunc(have, func(e Edge) bool { return e.Relation == rel }) {
					cands = append(cands, rel)
				}
			}
			if len(cands) > 0 {
				rel := cands[n.draw(len(cands), "spurious-rel", a.ID, b.ID)]
				outEdges = append(outEdges, Edge{Source: seenAs(a.ID), Target: seenAs(b.ID), Relation: rel})
			}
		}
	}
	for _, e := range stray {
		emit(e)
	}
	out.SetEdges(outEdges)
	return out, aliases
}

// plausible lists the relations a perceiver could think a holds to b, by
// their true classes: a bowl holds no bowl, only blocks stack.
func plausible(a, b Node) []string {
	rels := []string{RelLeftOf, RelRightOf, RelAbove, RelBelow, RelNear}
	ta, tb := a.Attributes[AttrType], b.Attributes[AttrType]
	if tb == ClassBowl && ta != ClassBowl {
		rels = append(rels, RelInsideOf)
	}
	if ta == ClassBlock && tb == ClassBlock {
		rels = append(rels, RelOnTopOf)
	}
	return rels
}

// hit reports whether the draw named by parts falls under rate.
func (n GraphNoise) hit(rate float64, parts ...string) bool {
	return rate > 0 && unitFloat(noiseHash(n.Seed, parts...)) < rate
}

// draw picks one of k choices for the draw named by parts.
func (n GraphNoise) draw(k int, parts ...string) int {
	return int(noiseHash(n.Seed, parts...) % uint64(k))
}

// noiseHash is FNV-1a of the seed and the parts, finished with the
// splitmix64 mixer so that neighbouring names give unrelated draws.
func noiseHash(seed uint64, parts ...string) uint64 {
	h := fnv.New64a()
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], seed)
	h.Write(buf[:])
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	z := h.Sum64() + 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func unitFloat(h uint64) float64 { return float64(h>>11) / (1 << 53) }

func cloneAttrs(m map[string]string) map[string]string {
	c := make(map[string]string, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// atoi reads the digits cutNumber has checked.
func atoi(s string) int {
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}
