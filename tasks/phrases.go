package tasks

import (
	"math/rand/v2"

	"github.com/ambibench/ambibench/scenes"
)

// Phrase is the plain referring phrase of an object: "the red block".
func Phrase(o scenes.Object) string { return "the " + o.Color() + " " + o.Class }

// PlacePhrase is how a named place or the shared workspace is referred to.
func PlacePhrase(name string) string { return "the " + name }

// PrepFor returns the preposition that joins a destination of a class.
func PrepFor(class string) string {
	if class == scenes.ClassBlock {
		return "on"
	}
	return "in"
}

// RelationWords are the words a spatial phrase uses for each direction.
var RelationWords = map[string]string{
	scenes.RelLeftOf:  "to the left of",
	scenes.RelRightOf: "to the right of",
	scenes.RelAbove:   "above",
	scenes.RelBelow:   "below",
}

// Directions lists the four directions in a fixed order.
var Directions = []string{scenes.RelLeftOf, scenes.RelRightOf, scenes.RelAbove, scenes.RelBelow}

// SpatialPhrase names a block by its relation to a reference object: "the
// block to the left of the blue bowl".
func SpatialPhrase(rel string, ref scenes.Object) string {
	return "the block " + RelationWords[rel] + " " + Phrase(ref)
}

func pick[T any](rng *rand.Rand, xs []T) T { return xs[rng.IntN(len(xs))] }

// ofClass returns the objects of a class, in table order.
func ofClass(objs []scenes.Object, class string) []scenes.Object {
	var out []scenes.Object
	for _, o := range objs {
		if o.Class == class {
			out = append(out, o)
		}
	}
	return out
}
