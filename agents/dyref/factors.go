package dyref

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ambibench/ambibench/scenes"
)

// StructureDims is the length of the structure embedding.
const StructureDims = 16

// wlIterations is how many Weisfeiler–Lehman refinements the structure
// embedding counts, besides the initial labels.
const wlIterations = 2

// Factors are the complexity factors of a diagnostic graph.
type Factors struct {
	// Dependency is the longest path of dependency edges, in edges.
	Dependency float64
	// Interaction counts the object–place interactions the task needs,
	// each once, plus once more for each affordance it needs at that
	// place: opening it (fridge, microwave, a closed destination) or
	// switching it on (a lamp).
	Interaction float64
	// Spatial is how many receptacles a target object could be in or was
	// found in.
	Spatial float64
	// Structure is the share of Weisfeiler–Lehman subtree labels (h = 0, 1,
	// 2) that hash to each bucket: it sums to 1 over a non-empty graph.
	Structure [StructureDims]float64
}

// Vector returns the router's input: Dependency, Interaction, Spatial,
// then Structure, in that order (see [VectorNames]).
func (f Factors) Vector() []float64 {
	v := make([]float64, 0, 3+StructureDims)
	v = append(v, f.Dependency, f.Interaction, f.Spatial)
	return append(v, f.Structure[:]...)
}

// VectorNames names the features of [Factors.Vector], in order.
func VectorNames() []string {
	out := []string{"dependency", "interaction", "spatial"}
	for i := range StructureDims {
		out = append(out, fmt.Sprintf("structure_%02d", i))
	}
	return out
}

// Factors measures the graph.
func (g *Graph) Factors() Factors {
	return Factors{
		Dependency:  float64(g.longestDependency()),
		Interaction: float64(g.interactions()),
		Spatial:     float64(g.spatial()),
		Structure:   g.structure(),
	}
}

// longestDependency is the longest path over dependency edges. The graph
// Build makes is acyclic along them; in a hand-made graph an edge back to
// a node the search is still inside is not followed, so a cycle counts as
// the path around it.
func (g *Graph) longestDependency() int {
	n := len(g.Nodes)
	out := make([][]int, n)
	for _, e := range g.Edges {
		if e.Kind == EdgeDependency && g.valid(e) {
			out[e.From] = append(out[e.From], e.To)
		}
	}
	const (
		unseen = iota
		open
		done
	)
	state := make([]uint8, n)
	depth := make([]int, n)
	var visit func(int) int
	visit = func(v int) int {
		if state[v] == done {
			return depth[v]
		}
		state[v] = open
		best := 0
		for _, w := range out[v] {
			if state[w] != open {
				best = max(best, 1+visit(w))
			}
		}
		state[v], depth[v] = done, best
		return best
	}
	longest := 0
	for v := range n {
		longest = max(longest, visit(v))
	}
	return longest
}

func (g *Graph) valid(e Edge) bool {
	return e.From >= 0 && e.From < len(g.Nodes) && e.To >= 0 && e.To < len(g.Nodes)
}

// interactions counts the interaction edges out of object nodes, each
// distinct one once, plus its affordance: a place that must be opened or
// switched on.
func (g *Graph) interactions() int {
	n := 0
	seen := map[[2]int]bool{}
	for _, e := range g.Edges {
		if e.Kind != EdgeInteraction || !g.valid(e) || seen[[2]int{e.From, e.To}] {
			continue
		}
		seen[[2]int{e.From, e.To}] = true
		n++
		if k, ok := scenes.KindOf(kindOf(g.Nodes[e.To].Label)); ok && (k.Openable || k.Toggleable) {
			n++
		}
	}
	return n
}

// spatial counts the distinct receptacles joined to an object node by a
// spatial edge, either way.
func (g *Graph) spatial() int {
	seen := make([]bool, len(g.Nodes))
	n := 0
	for _, e := range g.Edges {
		if e.Kind != EdgeSpatial || !g.valid(e) {
			continue
		}
		from, to := g.Nodes[e.From].Kind, g.Nodes[e.To].Kind
		r := -1
		switch {
		case from == NodeObject && to == NodeReceptacle:
			r = e.To
		case from == NodeReceptacle && to == NodeObject:
			r = e.From
		}
		if r >= 0 && !seen[r] {
			seen[r] = true
			n++
		}
	}
	return n
}

// class is a node's initial Weisfeiler–Lehman label: instance numbers,
// target counters and repeat counts are dropped, so that "egg 1" and "egg
// 2" look alike; an action keeps only its verb, and a mark when repeated.
func class(n Node) string {
	l := n.Label
	switch n.Kind {
	case NodeGoal:
		l, _, _ = strings.Cut(l, ":")
	case NodeSubGoal:
		done := strings.HasSuffix(l, achievedMark)
		l, _, _ = strings.Cut(l, " ")
		if done {
			l += achievedMark
		}
	case NodeObject:
		l, _, _ = strings.Cut(l, " (")
	case NodeReceptacle:
		l = kindOf(l)
	case NodeAction:
		base, rep, repeated := strings.Cut(l, " ×")
		if repeated && !isDigits(rep) {
			base, repeated = l, false
		}
		switch {
		case strings.HasPrefix(base, "ask: "):
			l = base
		case strings.HasPrefix(base, "go to "):
			l = "go to"
		default:
			l, _, _ = strings.Cut(base, " ")
		}
		if repeated {
			l += " ×"
		}
	}
	return string(n.Kind) + "\x00" + l
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// structure is the light stand-in for Graph2Vec: Weisfeiler–Lehman subtree
// labels of every node at depths 0, 1 and 2, each hashed (FNV-1a, 64 bits)
// to one of StructureDims buckets; each bucket holds the share of labels
// that fell in it. Neighbourhoods are read both ways, each neighbour
// marked with the edge's kind and direction, and kept as sorted multisets,
// so repeated edges count.
func (g *Graph) structure() [StructureDims]float64 {
	var out [StructureDims]float64
	n := len(g.Nodes)
	if n == 0 {
		return out
	}
	type nb struct {
		node int
		mark byte
	}
	adj := make([][]nb, n)
	for _, e := range g.Edges {
		if !g.valid(e) {
			continue
		}
		m := edgeMark(e.Kind)
		adj[e.From] = append(adj[e.From], nb{e.To, m})
		adj[e.To] = append(adj[e.To], nb{e.From, m | 0x80})
	}
	labels := make([]uint64, n)
	for i, nd := range g.Nodes {
		labels[i] = fnvString(fnvOffset, class(nd))
	}
	var counts [StructureDims]int
	count := func() {
		for _, l := range labels {
			counts[bucket(l)]++
		}
	}
	count()
	next := make([]uint64, n)
	var sig []uint64
	for range wlIterations {
		for i := range n {
			sig = sig[:0]
			for _, x := range adj[i] {
				sig = append(sig, labels[x.node]^uint64(x.mark)<<56^uint64(x.mark))
			}
			slices.Sort(sig)
			h := fnvUint64(fnvOffset, labels[i])
			for _, s := range sig {
				h = fnvUint64(h, s)
			}
			next[i] = h
		}
		labels, next = next, labels
		count()
	}
	total := float64(n * (wlIterations + 1))
	for i, c := range counts {
		out[i] = float64(c) / total
	}
	return out
}

func edgeMark(k EdgeKind) byte {
	switch k {
	case EdgeDependency:
		return 1
	case EdgeInteraction:
		return 2
	case EdgeSpatial:
		return 3
	}
	return 4
}

// bucket folds a 64-bit hash to a bucket, mixing the high bits in since
// FNV's low bits alone are weak.
func bucket(h uint64) int {
	h ^= h >> 32
	h ^= h >> 16
	h ^= h >> 8
	return int(h % StructureDims)
}

// FNV-1a, 64 bits, written out so that hashing allocates nothing; the
// values are those of hash/fnv's New64a.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func fnvString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	return h
}

// fnvUint64 hashes v's eight bytes, least significant first.
func fnvUint64(h, v uint64) uint64 {
	for i := 0; i < 8; i++ {
		h ^= v >> (8 * i) & 0xff
		h *= fnvPrime
	}
	return h
}
