package tasks

import (
	"github.com/go-gl/mathgl/mgl64"

	"github.com/ambibench/ambibench/scenes"
)

// placePoint returns the point of a named place or the shared workspace.
func placePoint(name string) (mgl64.Vec2, bool) {
	if name == scenes.SharedPlace {
		return scenes.SharedPoint, true
	}
	p, ok := scenes.Places[name]
	return p, ok
}

// IsPlace reports whether a destination is a named place rather than an
// object.
func IsPlace(name string) bool {
	_, ok := placePoint(name)
	return ok
}
