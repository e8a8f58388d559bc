package simmodel

import (
	"maps"
	"unsafe"

	"github.com/ambibench/ambibench/agents/grounding"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// perceiveImage plays the scene-graph call of perception through the
// image: the model was shown the robot's camera image and the objects it
// listed at the detection call, each with a box. The simulated model reads
// no pixels: it finds the object under each listed box among what the
// image shows (Seen, by the largest overlap of boxes) and writes the
// relations the table's geometry gives between the objects found, as the
// perceive call over the detector's list does (scenes.BuildGraph, with
// the relation part of the episode's perception noise). A listed object
// with nothing under it (a phantom) stands in no relation; two listed
// over one object are both that object. The nodes are written as listed.
func (c *call) perceiveImage() llm.Reply {
	ds := c.cc.Detections
	g := &scenes.Graph{Nodes: make([]scenes.Node, len(ds))}
	for i, d := range ds {
		g.Nodes[i] = scenes.Node{ID: d.ID, Attributes: d.Attributes}
	}
	var at []int     // the index in ds of each object found
	var gained []int // the nodes that gained a workspace, in order
	objs := c.underBoxes(ds, func(i int, s llm.Seen) {
		at = append(at, i)
		// The workspace an object stands in shows in the image (its
		// strip's tint): the node gains it.
		if w, ok := s.Attributes[scenes.AttrWorkspace]; ok && ds[i].Attributes[scenes.AttrWorkspace] != w {
			attrs := maps.Clone(ds[i].Attributes)
			attrs[scenes.AttrWorkspace] = w
			g.Nodes[i].Attributes = attrs
			gained = append(gained, i)
		}
	})
	if c.cc.Mode == llm.ModeNodesOnly {
		return llm.Reply{Text: perceptionJSON(g, ds, false), FinishReason: llm.FinishStop}
	}
	rel := scenes.GraphNoise{Drop: c.noise.Drop, Spurious: c.noise.Spurious, Seed: c.noise.Seed}
	if rel.IsZero() && distinctIDs(ds) {
		// The reply from the relations' indexes, as relationsJSON writes
		// it: the graph's edges, thousands of string triples at a crowded
		// table, were half of what this call cost, and the reply keys its
		// edges by index anyway. Where ids repeat, perceptionJSON's
		// reading of them by id stands.
		pooled := scenes.PoolRelationCodes(objs)
		codes, count := pooled.Codes, pooled.Count
		// The nodes that differ from the detections (changedNodes) are
		// those that gained a workspace: the rest are the detections' own.
		b := perceptionNodes(make([]byte, 0, 64+4*count+16*len(ds)), g, gained)
		b = append(b, `,"edges":{`...)
		b = appendRelations(b, codes, len(objs), at)
		pooled.Release()
		b = append(b, "}}"...)
		// Nothing else holds the buffer (see relationsJSON).
		return llm.Reply{Text: unsafe.String(unsafe.SliceData(b), len(b)), FinishReason: llm.FinishStop}
	}
	built := scenes.BuildGraph(objs)
	if !rel.IsZero() {
		built, _ = built.WithNoise(rel)
	}
	g.CopyEdges(built)
	return llm.Reply{Text: perceptionJSON(g, ds, true), FinishReason: llm.FinishStop}
}

// underBoxes is, for each listed object with something under its box, that
// object of the image named as listed, where it stands on the table; each
// is also passed to found, if set, with its index in ds.
func (c *call) underBoxes(ds []llm.Detection, found func(i int, s llm.Seen)) []scenes.Object {
	objs := make([]scenes.Object, 0, len(ds))
	for i, d := range ds {
		s, ok := c.underBox(d.Box)
		if !ok {
			continue
		}
		if found != nil {
			found(i, s)
		}
		objs = append(objs, scenes.Object{ID: d.ID, Class: d.Attributes[scenes.AttrType], Attributes: d.Attributes,
			Pose: s.Pos.Mul(0.001), Extent: s.Size.Mul(0.001)})
	}
	return objs
}

// looking is the table as a planner shown the image sees it (the
// context's InImage over its Seen): the relations the geometry gives
// between the perceived nodes that have an object under them. nil when
// the call shows no image.
func (c *call) looking() grounding.View {
	if len(c.cc.InImage) == 0 || len(c.cc.Seen) == 0 {
		return nil
	}
	return &lookingView{c: c}
}

// lookingView builds its graph at its first query: most planning calls
// resolve no answer by place and never ask.
type lookingView struct {
	c *call
	g grounding.GraphView
}

func (v *lookingView) graph() grounding.GraphView {
	if v.g.G == nil {
		v.g.G = scenes.BuildGraph(v.c.underBoxes(v.c.cc.InImage, nil))
	}
	return v.g
}

func (v *lookingView) Nodes(q scenes.NodeQuery) ([]string, error) { return v.graph().Nodes(q) }
func (v *lookingView) Edges(q scenes.EdgeQuery) ([]scenes.Edge, error) {
	return v.graph().Edges(q)
}

// underBox is the object of the context's Seen whose box (in pixels of
// an image of the context's ImageSize) overlaps the normalised box b the
// most, if any does; of two that overlap it alike, the first. It compares
// b with the seen boxes that share a cell of seenGrid with it, which are
// all those that can overlap it: a perceive call at a crowded table
// compared each of 48 listed boxes with all 48 seen.
func (c *call) underBox(b [4]int) (llm.Seen, bool) {
	boxes := c.seenBoxes()
	best, bestArea := -1, 0
	if b[2] > b[0] && b[3] > b[1] {
		g := c.seenCells
		g.stamp++
		for cy := gridCell(b[0]); cy <= gridCell(b[2]); cy++ {
			for cx := gridCell(b[1]); cx <= gridCell(b[3]); cx++ {
				k := cy*gridSide + cx
				for _, i := range g.index[g.start[k]:g.start[k+1]] {
					if g.seen[i] == g.stamp {
						continue
					}
					g.seen[i] = g.stamp
					n := boxes[i]
					y0, x0 := max(b[0], n[0]), max(b[1], n[1])
					y1, x1 := min(b[2], n[2]), min(b[3], n[3])
					if y1 <= y0 || x1 <= x0 {
						continue
					}
					if a := (y1 - y0) * (x1 - x0); a > bestArea || a == bestArea && int(i) < best {
						best, bestArea = int(i), a
					}
				}
			}
		}
	}
	if best < 0 {
		return llm.Seen{}, false
	}
	return c.cc.Seen[best], true
}

// gridSide is the number of cells of seenGrid along each side of an image.
const gridSide = 16

// gridCell is the cell along one side that holds the coordinate v (in
// 0–llm.BoxScale), clamped to the grid: a box off the image shares the
// border cells. Boxes that overlap share a cell, since the cells of the
// two ends of a box bound those of every point between.
func gridCell(v int) int {
	return min(max(v/(llm.BoxScale/gridSide), 0), gridSide-1)
}

// seenGrid holds, for each cell of a gridSide² grid over the image, the
// seen boxes (indexes into seenBoxes) that meet it: index[start[k]:start[k+1]]
// for cell k. A box with no area overlaps nothing and is in no cell. seen
// and stamp mark the boxes a look at several cells has compared already.
type seenGrid struct {
	start [gridSide*gridSide + 1]int32
	index []int32
	seen  []uint32
	stamp uint32
}

// build puts each box of boxes in the cells it meets.
func (g *seenGrid) build(boxes [][4]int) {
	cells := func(n [4]int, each func(k int)) {
		if n[2] <= n[0] || n[3] <= n[1] {
			return
		}
		for cy := gridCell(n[0]); cy <= gridCell(n[2]); cy++ {
			for cx := gridCell(n[1]); cx <= gridCell(n[3]); cx++ {
				each(cy*gridSide + cx)
			}
		}
	}
	var count [gridSide * gridSide]int32
	for _, n := range boxes {
		cells(n, func(k int) { count[k]++ })
	}
	for k := range count {
		g.start[k+1] = g.start[k] + count[k]
	}
	g.index = make([]int32, g.start[len(count)])
	next := g.start
	for i, n := range boxes {
		cells(n, func(k int) {
			g.index[next[k]] = int32(i)
			next[k]++
		})
	}
	g.seen = make([]uint32, len(boxes))
}

// seenBoxes is the boxes of the context's Seen as a detection reply
// writes them (llm.NormBox), made at the call's first underBox with the
// grid of the cells they meet (seenCells): every listed object is
// compared with the seen ones, and normalising each box at each
// comparison was most of a perceive call's cost at a crowded table. None
// when the image's size is out of bounds: nothing is under any box then.
func (c *call) seenBoxes() [][4]int {
	if c.seenNorm == nil {
		c.seenNorm = [][4]int{}
		if w, h := c.cc.ImageSize[0], c.cc.ImageSize[1]; w >= 1 && h >= 1 && w <= maxImageSide && h <= maxImageSide {
			c.seenNorm = make([][4]int, len(c.cc.Seen))
			for i, s := range c.cc.Seen {
				c.seenNorm[i] = llm.NormBox(s.Box, w, h)
			}
		}
		c.seenCells = &seenGrid{}
		c.seenCells.build(c.seenNorm)
	}
	return c.seenNorm
}
