package grounding

import (
	"slices"

	"github.com/ambibench/ambibench/scenes"
)

// directionWords are how a direction between two objects is said.
var directionWords = map[string]string{
	scenes.RelLeftOf:  "left of",
	scenes.RelRightOf: "right of",
	scenes.RelAbove:   "above",
	scenes.RelBelow:   "below",
}

// Describe names an object of a view without its id, for a robot that
// does not share the view's ids: "the red block" when it is the only one
// of its colour and class; else by its direction from an object that is
// ("the red block left of the green bowl") and that the others of its
// kind do not share; else by its direction from the other of a pair ("the
// red block left of the other red block"). Failing all three, the id.
func Describe(v View, id string) string {
	ref, err := ParseRef(id)
	if err != nil || ref.ID == "" {
		return id
	}
	kind := ref.Color + " " + ref.Class
	alike, err := v.Nodes(scenes.NodeQuery{Name: kind})
	if err != nil || !slices.Contains(alike, id) {
		return id
	}
	if len(alike) == 1 {
		return "the " + kind
	}
	from, err := v.Edges(scenes.EdgeQuery{Source: id})
	if err != nil {
		return id
	}
	for _, e := range from {
		words, ok := directionWords[e.Relation]
		if !ok || slices.Contains(alike, e.Target) {
			continue
		}
		anchor, err := ParseRef(e.Target)
		if err != nil || anchor.ID == "" {
			continue
		}
		same, err := v.Nodes(scenes.NodeQuery{Name: anchor.Color + " " + anchor.Class})
		if err != nil || len(same) != 1 {
			continue
		}
		phrase := "the " + kind + " " + words + " the " + anchor.Color + " " + anchor.Class
		if r, err := ParseRef(phrase); err == nil {
			if got, err := Resolve(v, r); err == nil && len(got) == 1 && got[0] == id {
				return phrase
			}
		}
	}
	if len(alike) == 2 {
		for _, e := range from {
			if words, ok := directionWords[e.Relation]; ok && slices.Contains(alike, e.Target) {
				return "the " + kind + " " + words + " the other " + kind
			}
		}
	}
	return id
}
