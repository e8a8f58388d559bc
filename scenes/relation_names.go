package scenes

import "strings"

// A model that writes a scene graph from an image names relations in its
// own words ("to the left of", "on", "contains"). ReadRelation maps such a
// name onto the table's relations (Relations), so that what the model
// wrote can be checked against the table's geometry; docs/metrics.md
// lists the same table ("Tabletop: perception errors").

// RelationReading is what a relation name says in the table's terms:
// Relation holds from the edge's source to its target or, when Reversed,
// from its target to its source ("the bowl contains the block": the block
// is inside_of the bowl).
type RelationReading struct {
	Relation string
	Reversed bool
}

// relationSynonyms are the names ReadRelation reads, by what they mean,
// each written as foldRelation leaves it (so "left_of" is "left of"). A
// table relation's own name is always among its synonyms, and no name
// means two things. Directions follow the
// table's: left is smaller x, above is larger y, away from the robots,
// which is farther from the camera that stands on their side; so
// "behind" is above and "in front of" below. "below" is the table's
// planar relation, never "under": a block under another is the reverse
// of on_top_of.
var relationSynonyms = []struct {
	reading RelationReading
	names   []string
}{
	{RelationReading{RelLeftOf, false}, []string{"left of", "to the left of", "on the left of", "on the left side of", "left side of", "left"}},
	{RelationReading{RelRightOf, false}, []string{"right of", "to the right of", "on the right of", "on the right side of", "right side of", "right"}},
	{RelationReading{RelAbove, false}, []string{"above", "behind", "beyond", "in back of", "far from the robot", "farther from the robot", "further from the robot"}},
	{RelationReading{RelBelow, false}, []string{"below", "in front of", "close to the robot", "closer to the robot", "nearer to the robot"}},
	{RelationReading{RelInsideOf, false}, []string{"inside of", "in", "inside", "in the", "within", "contained in", "placed in", "sitting in", "resting in"}},
	{RelationReading{RelOnTopOf, false}, []string{"on top of", "on", "on top", "atop", "stacked on", "stacked on top of", "resting on", "sitting on", "placed on"}},
	{RelationReading{RelNear, false}, []string{"near", "next to", "beside", "close to", "near to", "nearby", "adjacent to"}},
	{RelationReading{RelInsideOf, true}, []string{"contains", "containing", "holds", "holding"}},
	{RelationReading{RelOnTopOf, true}, []string{"under", "beneath", "underneath", "supports", "supporting"}},
}

// relationNames indexes relationSynonyms by name.
var relationNames = func() map[string]RelationReading {
	m := map[string]RelationReading{}
	for _, s := range relationSynonyms {
		for _, name := range s.names {
			if _, dup := m[name]; dup {
				panic("scenes: relation name " + name + " is listed twice")
			}
			m[name] = s.reading
		}
	}
	for _, rel := range Relations {
		if m[foldRelation(rel)] != (RelationReading{Relation: rel}) {
			panic("scenes: relation " + rel + " does not read as itself")
		}
	}
	return m
}()

// ReadRelation reads a relation name from an open vocabulary as one of
// the table's relations, through the table of synonyms above. The name is
// folded first: lower case, underscores and hyphens read as spaces, runs
// of space as one, and a leading "is " or "are " dropped, so "Left_Of",
// "is left of" and "left-of" all read as left_of. ok is false for a name
// the table does not list; such a name is never guessed at.
func ReadRelation(name string) (r RelationReading, ok bool) {
	r, ok = relationNames[foldRelation(name)]
	return r, ok
}

// foldRelation is a relation name as the synonyms table writes it.
func foldRelation(name string) string {
	name = strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return ' '
		}
		return r
	}, strings.ToLower(name))
	name = strings.Join(strings.Fields(name), " ")
	for _, verb := range []string{"is ", "are "} {
		if rest, ok := strings.CutPrefix(name, verb); ok && rest != "" {
			return rest
		}
	}
	return name
}
