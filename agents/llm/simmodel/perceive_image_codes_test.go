package simmodel

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
	"github.com/go-gl/mathgl/mgl64"
)

// perceiveImage writes its reply from the relations' indexes where the
// noise is zero and the ids distinct; the reply is the one the graph's
// edges give (scenes.BuildGraph, then perceptionJSON), with listed objects
// that have nothing under them (phantoms), two listed over one object, a
// node that gains its workspace, and tables of 1 to 48 objects.
func TestPerceiveImageFromCodes(t *testing.T) {
	const w, h = 640, 480
	for trial := range 40 {
		r := rand.New(rand.NewPCG(uint64(trial), 37))
		n := 1 + r.IntN(48)
		var seen []llm.Seen
		var ds []llm.Detection
		for i := range n {
			color := scenes.Colors[r.IntN(len(scenes.Colors))]
			typ := scenes.ClassBlock
			if r.IntN(4) == 0 {
				typ = scenes.ClassBowl
			}
			id := fmt.Sprintf("%s %s %d", color, typ, i)
			x0, y0 := r.IntN(w-40), r.IntN(h-40)
			s := llm.Seen{ID: id, Attributes: map[string]string{scenes.AttrColor: color, scenes.AttrType: typ},
				Box: [4]int{x0, y0, x0 + 10 + r.IntN(30), y0 + 10 + r.IntN(30)}, Fraction: 1,
				Pos:  mgl64.Vec3{float64(r.IntN(600) - 300), float64(r.IntN(800) - 400), 20},
				Size: mgl64.Vec3{40, 40, 40}}
			if r.IntN(5) == 0 {
				s.Attributes[scenes.AttrWorkspace] = "left"
			}
			seen = append(seen, s)
			d := llm.Detection{ID: id, Attributes: map[string]string{scenes.AttrColor: color, scenes.AttrType: typ},
				Box: llm.NormBox(s.Box, w, h)}
			switch r.IntN(8) {
			case 0: // a phantom: a box over nothing
				d.Box = [4]int{999, 999, 1000, 1000}
			case 1: // listed twice
				ds = append(ds, d)
				d.ID += " again"
			}
			ds = append(ds, d)
		}
		c := &call{cc: llm.CallContext{Role: llm.CallPerceive, Detections: ds, Seen: seen, ImageSize: [2]int{w, h}}}
		got := c.perceiveImage().Text
		// The reference: the graph's edges, written by id.
		g := &scenes.Graph{Nodes: make([]scenes.Node, len(ds))}
		for i, d := range ds {
			g.Nodes[i] = scenes.Node{ID: d.ID, Attributes: d.Attributes}
		}
		objs := c.underBoxes(ds, func(i int, s llm.Seen) {
			if w, ok := s.Attributes[scenes.AttrWorkspace]; ok {
				attrs := map[string]string{scenes.AttrWorkspace: w}
				for k, v := range ds[i].Attributes {
					attrs[k] = v
				}
				g.Nodes[i].Attributes = attrs
			}
		})
		g.CopyEdges(scenes.BuildGraph(objs))
		if want := perceptionJSON(g, ds, true); got != want {
			t.Fatalf("trial %d, %d objects:\ngot  %s\nwant %s", trial, n, got, want)
		}
	}
}

// underBox finds among the seen boxes near a listed box (seenGrid) what a
// comparison with every seen box finds: the one that overlaps it most,
// the first of several that overlap it alike, on crowded images with
// boxes off the image, boxes with no area or turned inside out, and
// listed boxes that are a seen one's, hold several, or lie nowhere.
func TestUnderBoxIsTheScan(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(21, 22))
	coord := func() int { return rng.IntN(1400) - 200 }
	for trial := range 300 {
		var seen []llm.Seen
		for range rng.IntN(60) {
			x0, y0 := coord(), coord()
			x1, y1 := x0+rng.IntN(120)-10, y0+rng.IntN(120)-10
			box := [4]int{x0, y0, x1, y1}
			if len(seen) > 0 && rng.IntN(8) == 0 {
				box = seen[rng.IntN(len(seen))].Box // two alike: the first is under
			}
			seen = append(seen, llm.Seen{ID: fmt.Sprint(len(seen)), Box: box})
		}
		c := &call{cc: llm.CallContext{Seen: seen, ImageSize: [2]int{1000, 1000}}}
		boxes := c.seenBoxes()
		for range 40 {
			var b [4]int
			if len(boxes) > 0 && rng.IntN(3) == 0 {
				b = boxes[rng.IntN(len(boxes))]
			} else {
				y0, x0 := coord(), coord()
				b = [4]int{y0, x0, y0 + rng.IntN(300) - 20, x0 + rng.IntN(300) - 20}
			}
			want, wantOK := -1, false
			bestArea := 0
			for i, n := range boxes {
				y0, x0 := max(b[0], n[0]), max(b[1], n[1])
				y1, x1 := min(b[2], n[2]), min(b[3], n[3])
				if y1 <= y0 || x1 <= x0 {
					continue
				}
				if a := (y1 - y0) * (x1 - x0); a > bestArea {
					want, bestArea, wantOK = i, a, true
				}
			}
			got, ok := c.underBox(b)
			if ok != wantOK || ok && got.ID != seen[want].ID {
				t.Fatalf("trial %d, box %v among %d: underBox %s %v, the scan %d %v", trial, b, len(seen), got.ID, ok, want, wantOK)
			}
		}
	}
}
