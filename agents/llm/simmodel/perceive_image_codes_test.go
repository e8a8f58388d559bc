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
