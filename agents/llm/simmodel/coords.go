package simmodel

import (
	"encoding/binary"
	"maps"
	"math"

	"github.com/ambibench/ambibench/agents/grounding"
	"github.com/ambibench/ambibench/agents/llm"
	"github.com/ambibench/ambibench/scenes"
)

// A tabletop baseline's prompt lists the detected objects with their
// positions and no relations (llm.CallContext.Detections, shown at the
// millimetre: llm.Detection.TableXY). The simulated model works the
// relations out as a reader of the list would: it reads each object's
// printed (x, y), with an error, and derives from what it
// read the relations the scene graph would hold (scenes.BuildGraph over
// the objects as read), which the reference planner then queries as it
// queries a graph.
//
// The reading error is the profile's Coord: each coordinate is taken to
// be off by a normal error of that standard deviation (grown, as every
// rate, with the tokens the model reads). A direction between two objects
// is the axis of their larger offset, so it is misread only when the two
// offsets are close to a tie, or the objects close together, which is
// where a reader of coordinates errs; the spatial family's target lies
// 16-22 cm along its direction and at most 5 cm aside, so a centimetre of
// error leaves it alone and misreads only blocks that stand near a
// diagonal of the reference object. Each error is drawn from a hash of
// the situation (see call.situation), the object and the axis, and at
// temperature > 0 the sample, so the model misreads an object the same
// way at every call of the episode and in every workflow, and each
// sample of a sampling workflow reads afresh.

// readObject is one detected object as the model reads it: on the table
// plane at the position it read, with the standard extent of its type.
func (c *call) readObject(d llm.Detection) scenes.Object {
	x, y := d.TableXY()
	x, y = x+c.misread(d.ID, "x"), y+c.misread(d.ID, "y")
	typ, color := d.Attributes[scenes.AttrType], d.Attributes[scenes.AttrColor]
	var obj scenes.Object
	switch typ {
	case scenes.ClassBowl:
		obj = scenes.NewBowl(d.ID, color, x, y)
	default:
		obj = scenes.NewBlock(d.ID, color, x, y)
		obj.Class, obj.Attributes[scenes.AttrType] = typ, typ
	}
	delete(obj.Attributes, scenes.AttrSize) // the list does not show it
	if obj.Attributes[scenes.AttrColor] == "" {
		delete(obj.Attributes, scenes.AttrColor)
	}
	if ws := d.Attributes[scenes.AttrWorkspace]; ws != scenes.RegionTable {
		obj.Region = ws
	}
	return obj
}

// misread is the error of the model's reading of one coordinate.
func (c *call) misread(id, axis string) float64 {
	if c.p.Coord <= 0 {
		return 0
	}
	sd := c.p.Coord * (1 + c.p.Growth*float64(c.read)/1000)
	h := c.draw("coord", id, axis)
	// Box-Muller from two uniforms in (0, 1].
	u1 := (float64(binary.LittleEndian.Uint64(h[:8])>>11) + 1) / (1 << 53)
	u2 := float64(binary.LittleEndian.Uint64(h[8:16])>>11) / (1 << 53)
	return sd * math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
}

// listGraph is the scene graph the model derives from an object list.
func (c *call) listGraph(objs []llm.Detection) *scenes.Graph {
	if len(c.cc.Seen) > 0 {
		return c.imageGraph(objs)
	}
	read := make([]scenes.Object, len(objs))
	for i, o := range objs {
		read[i] = c.readObject(o)
	}
	return scenes.BuildGraph(read)
}

// sceneView is what the model knows of the table at this call: the graph
// the prompt shows, or the one it derives from the prompt's object list,
// or (neither) nothing but what it retrieved, see decide.
func (c *call) sceneView() (grounding.View, bool) {
	switch {
	case c.cc.Graph != nil:
		return grounding.GraphView{G: c.cc.Graph}, true
	case len(c.cc.Detections) > 0:
		if c.derived == nil {
			c.derived = c.listGraph(c.cc.Detections)
		}
		return grounding.GraphView{G: c.derived}, true
	}
	return nil, false
}

// imageGraph is the scene graph the model derives from an object list it
// wrote from the camera image the prompt shows (perception=image: the
// list gives no positions, each object its box in the image). Each listed
// object is the one under its box (underBox), where it stands on the
// table, read with the profile's Coord error across the table as a
// reader of the list's positions would, in the workspace whose tint it
// stands on. A listed object with nothing under it (a phantom) is a node
// in no relation.
func (c *call) imageGraph(ds []llm.Detection) *scenes.Graph {
	var read []scenes.Object
	var phantoms []scenes.Node
	for _, d := range ds {
		s, ok := c.underBox(d.Box)
		if !ok {
			phantoms = append(phantoms, scenes.Node{ID: d.ID, Attributes: d.Attributes})
			continue
		}
		pose := s.Pos.Mul(0.001)
		pose[0] += c.misread(d.ID, "x")
		pose[1] += c.misread(d.ID, "y")
		obj := scenes.Object{ID: d.ID, Class: d.Attributes[scenes.AttrType], Attributes: maps.Clone(d.Attributes),
			Pose: pose, Extent: s.Size.Mul(0.001)}
		if ws := s.Attributes[scenes.AttrWorkspace]; ws != "" && ws != scenes.RegionTable {
			obj.Region = ws
		}
		read = append(read, obj)
	}
	g := scenes.BuildGraph(read)
	g.Nodes = append(g.Nodes, phantoms...)
	return g
}
