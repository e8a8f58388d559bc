package cp

// ShapeCopier makes copies of prototype shapes for other bodies, several
// to an allocation (ambibench's change). A table's blocks are boxes of
// one size and its bowls rings of one size: rather than computing each
// box's planes and mass info, and each rim segment's normal and mass
// info, anew, a world copies one box and one ring, whose values are
// those the constructors would compute, since they depend on the
// shape's size alone and not on its body.
type ShapeCopier struct {
	segments []segmentParts
	polys    []boxParts
}

// Reserve makes room for the copies of segments segments and polys
// polygons of at most four vertices to come, in one allocation for each
// kind, rather than one a copy.
func (c *ShapeCopier) Reserve(segments, polys int) {
	if segments > len(c.segments) {
		c.segments = make([]segmentParts, segments)
	}
	if polys > len(c.polys) {
		c.polys = make([]boxParts, polys)
	}
}

// Copy returns a copy of proto for body: its geometry, mass info,
// friction, elasticity, surface velocity, filter, collision type, sensor
// flag and user data, as proto holds them. Proto must not stand in a
// space; the copy stands in none.
func (c *ShapeCopier) Copy(proto *Shape, body *Body) *Shape {
	assert(proto.space == nil, "A prototype shape stands in no space.")
	switch class := proto.Class.(type) {
	case *Segment:
		if len(c.segments) == 0 {
			c.segments = make([]segmentParts, 1)
		}
		p := &c.segments[0]
		c.segments = c.segments[1:]
		p.segment, p.shape, p.mass = *class, *proto, *proto.massInfo
		p.segment.Shape = &p.shape
		p.shape.Class, p.shape.body, p.shape.massInfo = &p.segment, body, &p.mass
		return &p.shape
	case *PolyShape:
		if len(c.polys) == 0 {
			c.polys = make([]boxParts, 1)
		}
		p := &c.polys[0]
		c.polys = c.polys[1:]
		p.poly, p.shape, p.mass = *class, *proto, *proto.massInfo
		if len(class.planes) <= len(p.planes) {
			p.poly.planes = p.planes[:len(class.planes)]
		} else {
			p.poly.planes = make([]SplittingPlane, len(class.planes))
		}
		copy(p.poly.planes, class.planes)
		p.poly.Shape = &p.shape
		p.shape.Class, p.shape.body, p.shape.massInfo = &p.poly, body, &p.mass
		return &p.shape
	case *Circle:
		circle := *class
		shape := *proto
		mass := *proto.massInfo
		circle.Shape = &shape
		shape.Class, shape.body, shape.massInfo = &circle, body, &mass
		return &shape
	}
	panic("cp: a shape of an unknown class")
}
