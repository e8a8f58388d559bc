package scenes

import (
	"maps"
	"math"
	"strconv"

	"github.com/go-gl/mathgl/mgl64"
)

// Object classes of the tabletop.
const (
	ClassBlock = "block"
	ClassBowl  = "bowl"
)

// Attribute keys every tabletop node carries.
const (
	AttrType  = "type"
	AttrColor = "color"
	AttrSize  = "size"
	// AttrWorkspace is set on two-robot tables: robot1, shared or robot2.
	AttrWorkspace = "workspace"
)

// Colors are the ten colours of the SayCan/KnowNo table, in a fixed order so
// that a seed picks the same ones everywhere.
var Colors = []string{"blue", "red", "green", "orange", "yellow", "purple", "pink", "cyan", "brown", "gray"}

// Standard extents, in metres.
const (
	BlockSize  = 0.04 // a block is a 4 cm cube
	BowlSize   = 0.12 // a bowl is about 12 cm across
	BowlHeight = 0.05
)

// Object is one thing in a world. Pose is the centre in table coordinates
// (x to the right, y away from the robots, z up from the table top); Extent
// is the full size along each axis.
type Object struct {
	ID         string            `json:"id"`
	Class      string            `json:"class"`
	Attributes map[string]string `json:"attributes"`
	Pose       mgl64.Vec3        `json:"pose"`
	Extent     mgl64.Vec3        `json:"extent"`
	Region     string            `json:"region,omitempty"`
}

// Color returns the object's colour attribute.
func (o Object) Color() string { return o.Attributes[AttrColor] }

// Clone returns a copy of o that shares no map with it.
func (o Object) Clone() Object {
	c := o
	if o.Attributes == nil {
		c.Attributes = map[string]string{} // a clone's attributes are never nil
	} else {
		// maps.Clone copies a small map's table whole rather than
		// inserting key by key.
		c.Attributes = maps.Clone(o.Attributes)
	}
	return c
}

// NewBlock returns a block of the given colour at (x, y) on the table.
func NewBlock(id, color string, x, y float64) Object {
	return Object{
		ID: id, Class: ClassBlock,
		Attributes: map[string]string{AttrType: ClassBlock, AttrColor: color, AttrSize: "small"},
		Pose:       mgl64.Vec3{x, y, BlockSize / 2},
		Extent:     mgl64.Vec3{BlockSize, BlockSize, BlockSize},
	}
}

// NewBowl returns a bowl of the given colour at (x, y) on the table.
func NewBowl(id, color string, x, y float64) Object {
	return Object{
		ID: id, Class: ClassBowl,
		Attributes: map[string]string{AttrType: ClassBowl, AttrColor: color, AttrSize: "medium"},
		Pose:       mgl64.Vec3{x, y, BowlHeight / 2},
		Extent:     mgl64.Vec3{BowlSize, BowlSize, BowlHeight},
	}
}

// ObjectID names the n-th object of a colour and class, as the scene graph
// does: "red block 1".
func ObjectID(color, class string, n int) string {
	// Placing distractors names a probe at every try; this is
	// fmt.Sprintf("%s %s %d", color, class, n) without the formatter.
	return color + " " + class + " " + strconv.Itoa(n)
}

// PlanarDistance is the distance between two objects' centres on the table
// plane.
func PlanarDistance(a, b Object) float64 {
	return math.Hypot(a.Pose.X()-b.Pose.X(), a.Pose.Y()-b.Pose.Y())
}

// Find returns the object with the given id.
func Find(objs []Object, id string) (Object, bool) {
	for _, o := range objs {
		if o.ID == id {
			return o, true
		}
	}
	return Object{}, false
}
