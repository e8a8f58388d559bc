package scenes

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"sync"

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
//
// Attributes is read, never written: objects of one colour and class on
// a drawn table share one map (Layout.AddSpacedOff), and the physics
// world and the detections hand the same maps out at every look, so a
// write would change other objects, other looks and, across goroutines,
// race. Clone an object before changing its attributes.
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
	return newBlock(id, x, y, blockAttributes(color))
}

// blockAttributes are a new block's attributes.
func blockAttributes(color string) map[string]string {
	return map[string]string{AttrType: ClassBlock, AttrColor: color, AttrSize: "small"}
}

// newBlock is NewBlock with the attributes given, which must be a block's.
func newBlock(id string, x, y float64, attrs map[string]string) Object {
	return Object{
		ID: id, Class: ClassBlock,
		Attributes: attrs,
		Pose:       mgl64.Vec3{x, y, BlockSize / 2},
		Extent:     mgl64.Vec3{BlockSize, BlockSize, BlockSize},
	}
}

// NewBowl returns a bowl of the given colour at (x, y) on the table.
func NewBowl(id, color string, x, y float64) Object {
	return newBowl(id, x, y, bowlAttributes(color))
}

// bowlAttributes are a new bowl's attributes.
func bowlAttributes(color string) map[string]string {
	return map[string]string{AttrType: ClassBowl, AttrColor: color, AttrSize: "medium"}
}

// newBowl is NewBowl with the attributes given, which must be a bowl's.
func newBowl(id string, x, y float64, attrs map[string]string) Object {
	return Object{
		ID: id, Class: ClassBowl,
		Attributes: attrs,
		Pose:       mgl64.Vec3{x, y, BowlHeight / 2},
		Extent:     mgl64.Vec3{BowlSize, BowlSize, BowlHeight},
	}
}

// ObjectID names the n-th object of a colour and class, as the scene graph
// does: "red block 1".
func ObjectID(color, class string, n int) string {
	if i, ok := tabletopPair(color, class); ok {
		return pairID(i, color, class, n)
	}
	// fmt.Sprintf("%s %s %d", color, class, n) without the formatter.
	return color + " " + class + " " + strconv.Itoa(n)
}

// pairID is ObjectID for the tabletop pair i (tabletopPair) of color and
// class.
func pairID(i int, color, class string, n int) string {
	if n >= 1 && n <= tabletopIDCount {
		return tabletopIDs()[i][n-1]
	}
	return color + " " + class + " " + strconv.Itoa(n)
}

// The ids of the tabletop's pairs of a colour and class are made once for
// every table: placing distractors names a probe at every draw and each
// object it adds, and those strings, with the layout's keys of its
// counts, were a third of the allocations of a 48-object table's draw.
const (
	// tabletopColors bounds the colours of Colors that have ids made;
	// there are ten.
	tabletopColors = 16
	// tabletopIDCount is the ids made of each pair: a 48-object table
	// holds at most 48 of any.
	tabletopIDCount = 64
)

// tabletopPairColors is Colors when the ids were made: the pairs are
// numbered by it, whatever Colors holds later.
var tabletopPairColors = slices.Clone(Colors[:min(len(Colors), tabletopColors)])

// tabletopPair numbers a colour of tabletopPairColors and a tabletop
// class (2·colour + class), and reports false for any other pair. A
// pair's id base, color + " " + class, holds one space, so no other pair
// has the same base.
func tabletopPair(color, class string) (int, bool) {
	k := 0
	switch class {
	case ClassBlock:
	case ClassBowl:
		k = 1
	default:
		return 0, false
	}
	for i, c := range tabletopPairColors {
		if c == color {
			return 2*i + k, true
		}
	}
	return 0, false
}

// tabletopIDs holds, by tabletopPair, the ids 1 to tabletopIDCount of each
// pair, made at first use.
var tabletopIDs = sync.OnceValue(func() [][]string {
	ids := make([][]string, 2*len(tabletopPairColors))
	for i, c := range tabletopPairColors {
		for k, class := range []string{ClassBlock, ClassBowl} {
			pair := make([]string, tabletopIDCount)
			for n := range pair {
				pair[n] = c + " " + class + " " + strconv.Itoa(n+1)
			}
			ids[2*i+k] = pair
		}
	}
	return ids
})

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
