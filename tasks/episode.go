package tasks

import (
	"fmt"
	"strings"

	"github.com/ambibench/ambibench/scenes"
)

// Ref is a referring phrase and what the user means by it: an object id or
// a named place.
type Ref struct {
	Phrase string // as the instruction says it: "the red block"
	ID     string // what the user means: "red block 1", or "top left corner"
}

// Move is one pick-and-place the user asks for.
type Move struct {
	Pick  Ref
	Place Ref
	Prep  string // "in", "on" or "at": how the instruction joins the place
}

// Episode is one task instance: a table, an instruction and the intent
// behind it. Perturbations change it in place.
type Episode struct {
	Family      string
	Template    string // instruction with {pickN} and {placeN} slots
	Moves       []Move
	Objects     []scenes.Object
	TwoRobots   bool
	PartialView bool
	// OutOfView says, under partial observability, what robot 1 cannot
	// see: OutOfViewObject or OutOfViewDestination. Empty otherwise.
	OutOfView string
	// Label is the ground-truth ambiguity: "none" unless a perturbation
	// made the episode ambiguous.
	Label string
	// Answer is what the simulated user says to a question whose tag
	// matches Label.
	Answer string
	// AnswerSeen, when set, is Answer for a robot that names what it sees
	// in its camera image rather than the table's objects by id: it says
	// which object is meant by where it stands ("I mean the blue block to
	// the left of the red bowl"), since that robot's names are its own.
	AnswerSeen string
	// Difficulty grows with the number of moves and relations to resolve.
	Difficulty int
	// ViewNoise misreads every scene graph a robot is shown; the table
	// itself, and so the goal, is as Objects says. Zero: perfect
	// perception.
	ViewNoise scenes.GraphNoise
	// Physics is the execution noise of the robots. Zero: exact.
	Physics PhysicsNoise
}

// PhysicsNoise is execution noise: how far placements stray and how often
// grasps slip. Seed fixes the draws, so an episode replays exactly.
type PhysicsNoise struct {
	PlaceNoise float64 // standard deviation of a placement's error along each axis, metres
	SlipRate   float64 // chance that a grasp slips and drops the block part way
	Seed       uint64
}

// Label of a clear episode.
const LabelNone = "none"

// What is out of robot 1's view under partial observability
// (Episode.OutOfView).
const (
	OutOfViewObject      = "object"      // the block is in robot 2's workspace
	OutOfViewDestination = "destination" // its destination is
)

// Instruction renders the template with the moves' phrases.
func (e *Episode) Instruction() string {
	s := e.Template
	for i, m := range e.Moves {
		s = strings.ReplaceAll(s, fmt.Sprintf("{pick%d}", i), m.Pick.Phrase)
		s = strings.ReplaceAll(s, fmt.Sprintf("{place%d}", i), m.Prep+" "+m.Place.Phrase)
	}
	return s
}

// Referred returns the ids of the objects the user means, in move order.
func (e *Episode) Referred() []string {
	var ids []string
	for _, m := range e.Moves {
		ids = append(ids, m.Pick.ID)
		if _, isPlace := placePoint(m.Place.ID); !isPlace {
			ids = append(ids, m.Place.ID)
		}
	}
	return ids
}

// Clone returns a deep copy of e.
func (e *Episode) Clone() *Episode {
	c := *e
	c.Moves = append([]Move(nil), e.Moves...)
	c.Objects = make([]scenes.Object, len(e.Objects))
	for i, o := range e.Objects {
		c.Objects[i] = o.Clone()
	}
	return &c
}

// Object returns the episode's object with the given id.
func (e *Episode) Object(id string) (scenes.Object, bool) { return scenes.Find(e.Objects, id) }

// Remove deletes an object from the table.
func (e *Episode) Remove(id string) {
	out := e.Objects[:0]
	for _, o := range e.Objects {
		if o.ID != id {
			out = append(out, o)
		}
	}
	e.Objects = out
}

// Goal returns the predicate the final table must satisfy: every move's
// block at its destination.
func (e *Episode) Goal() Goal {
	g := Goal{}
	for _, m := range e.Moves {
		g.Conds = append(g.Conds, Cond{Object: m.Pick.ID, Target: m.Place.ID})
	}
	return g
}

// Goal is a conjunction of placements.
type Goal struct{ Conds []Cond }

// Cond says an object must be at a target: inside a bowl, on a block, or at
// a named place (or the shared workspace).
type Cond struct{ Object, Target string }

// Holds reports whether every condition holds on a table, and if not, the
// first that fails.
func (g Goal) Holds(objs []scenes.Object) (bool, string) {
	for _, c := range g.Conds {
		if ok, why := c.holds(objs); !ok {
			return false, why
		}
	}
	return true, ""
}

func (c Cond) holds(objs []scenes.Object) (bool, string) {
	o, ok := scenes.Find(objs, c.Object)
	if !ok {
		return false, fmt.Sprintf("%s is not on the table", c.Object)
	}
	if p, isPlace := placePoint(c.Target); isPlace {
		if scenes.AtPoint(o, p) {
			return true, ""
		}
		return false, fmt.Sprintf("%s is not at the %s", c.Object, c.Target)
	}
	t, ok := scenes.Find(objs, c.Target)
	if !ok {
		return false, fmt.Sprintf("%s is not on the table", c.Target)
	}
	switch t.Class {
	case scenes.ClassBowl:
		if scenes.Inside(o, t) {
			return true, ""
		}
		return false, fmt.Sprintf("%s is not inside %s", c.Object, c.Target)
	default:
		if scenes.OnTop(o, t) {
			return true, ""
		}
		return false, fmt.Sprintf("%s is not on top of %s", c.Object, c.Target)
	}
}
