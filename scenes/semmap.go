package scenes

import "github.com/go-gl/mathgl/mgl64"

// SemanticMap is an object-level semantic map, as a mapping system such as
// Voxeland builds it: instances with a box and a distribution over
// classes, the evidence accumulated over observations. It is the world
// of the semmap track.
type SemanticMap struct {
	// Name identifies the map within its dataset ("scene0011_00").
	Name      string
	Instances []Instance
}

// Instance is one object of a semantic map.
type Instance struct {
	ID string // "obj3", as the map file names it
	// Center and Size are the axis-aligned bounding box, in metres.
	Center, Size mgl64.Vec3
	// Observations is how many frames saw the instance.
	Observations int
	// Classes is the class distribution, normalised to sum to 1, most
	// probable first (ties by class name).
	Classes []ClassScore
	// Evidence is the sum of the file's scores before normalisation (0
	// when unknown); EncodeVoxeland writes P×Evidence so that a map read,
	// written and read again is the same map.
	Evidence float64
}

// ClassScore is one class of an instance's distribution.
type ClassScore struct {
	Class string
	P     float64
}

// Best returns the instance's most probable class, or "" when it has none.
func (in Instance) Best() string {
	if len(in.Classes) == 0 {
		return ""
	}
	return in.Classes[0].Class
}
